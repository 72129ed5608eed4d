import { conflict } from "../../../pipeline/errors.ts";
import { idempotent } from "../../../pipeline/idempotency.ts";
import { paginate } from "../../../pipeline/pagination.ts";
import { PURCHASE_INPUT, PURCHASES } from "../../../../contract/index.ts";
import { intIn } from "../../../pipeline/identifiers.ts";
import { accepted, ok, serve, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { checkLater } from "../../../pipeline/schema.ts";
import { own } from "../../../state/own.ts";
import { tierOf } from "../shop/tiers.ts";
import { chainOf } from "../chain-io.ts";
import { mystery } from "../state.ts";
import { usdc } from "../../../../contract/money.ts";
import { buyCustodial } from "./custodial.ts";
import { preparePurchase, submitPurchase } from "./non-custodial.ts";
import { listPurchases, purchaseWire, readPurchase } from "./purchases.ts";

// Purchases (contract/mystery/purchases.ts): non-custodial prepare/submit,
// custodial purchase, reads. Partner keys only.

const account = (c: HandlerContext) => c.key!.account_id;

/** max_price_usdc (checked late: after the tier), else the tier's price; 409 when the tier costs more. */
function maxPriceOf(raw: unknown, price: bigint): bigint {
  const m = checkLater(PURCHASE_INPUT.maxPrice, raw, "max_price_usdc");
  if (m === null) return price;
  if (m < price)
    throw conflict("max_price_exceeded", `The tier costs ${usdc(price)} USDC, above max_price_usdc ${usdc(m)}`);
  return m;
}

export const purchaseRoutes: RouteSpec[] = [
  serve(PURCHASES.prepare, {
    gate: "purchase",
    handle(c) {
      const b = c.input.body;
      const tier = tierOf(c.services, b.tier_id);
      const wallet = checkLater(PURCHASE_INPUT.wallet, b.wallet_address, "wallet_address");
      const maxPrice = maxPriceOf(b.max_price_usdc, tier.price);
      return ok(preparePurchase(c.services, tier, wallet, maxPrice));
    },
  }),

  serve(PURCHASES.submit, {
    gate: "purchase",
    async handle(c) {
      const { tier_id, ...rest } = c.input.body;
      const tier = tierOf(c.services, tier_id);
      const { hash, wallet, external_user_id, request_id } = checkLater(PURCHASE_INPUT.submitRest, rest);
      return accepted(
        purchaseWire(
          c.services,
          await submitPurchase(c.services, account(c), { tier, hash, wallet, external_user_id, request_id }),
        ),
      );
    },
  }),

  serve(PURCHASES.purchase, {
    gate: "purchase",
    async handle(c) {
      // Present: the pipeline answers 400 missing_idempotency_key first (the contract declares it required).
      const key = c.req.headers.get("idempotency-key")!;
      const b = c.input.body;
      const tier = tierOf(c.services, b.tier_id);
      checkLater(PURCHASE_INPUT.quantity, b.quantity, "quantity");
      const who = checkLater(PURCHASE_INPUT.buyer, {
        external_user_id: b.external_user_id,
        wallet_address: b.wallet_address,
      });
      const acct = account(c);
      return idempotent(
        c.services,
        {
          scope: `${acct}:mystery-purchase`,
          key,
          fingerprint: { tier_id: tier.tierId, user: who.external_user_id ?? who.wallet_address?.toLowerCase() },
          now: c.services.clock.nowIso(),
          // A replay answers the original 202 with the purchase as it is now.
          replay: (orig) => {
            const id = (orig.data as { id: number }).id;
            const row = own(mystery(c.services).purchases, String(id));
            return accepted(row ? purchaseWire(c.services, row) : orig.data);
          },
        },
        async () => {
          chainOf(c.services); // 503 chain_unavailable before anything is held
          const maxPrice = maxPriceOf(b.max_price_usdc, tier.price);
          // 202 RESERVED: credits held, on-chain fields null; the relayer takes it from here (relay.ts).
          return accepted(purchaseWire(c.services, buyCustodial(c.services, acct, tier, who, maxPrice)));
        },
      );
    },
  }),

  serve(PURCHASES.getPurchase, {
    gate: "partner_read",
    handle(c) {
      const label = c.input.params.id;
      // A non-numeric id is a 404 naming it.
      return ok(
        purchaseWire(c.services, readPurchase(c.services, account(c), intIn(label, 1, Number.MAX_SAFE_INTEGER), label)),
      );
    },
  }),

  serve(PURCHASES.listPurchases, {
    gate: "partner_read",
    handle(c) {
      const q = c.input.query;
      const rows = listPurchases(c.services, account(c), {
        status: q.status,
        external_user_id: q.external_user_id,
        wallet: q.wallet_address,
      });
      const { items, pagination } = paginate(rows, q);
      return ok({ purchases: items.map((p) => purchaseWire(c.services, p)) }, { pagination });
    },
  }),
];
