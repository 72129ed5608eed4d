import { badRequest, conflict } from "../../../pipeline/errors.ts";
import { idempotent } from "../../../pipeline/idempotency.ts";
import { checkIdLength, intId } from "../../../pipeline/identifiers.ts";
import { paginate, parseOffsetPage } from "../../../pipeline/pagination.ts";
import { accepted, ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { own } from "../../../state/own.ts";
import { partner, route } from "../access.ts";
import { tierOf } from "../catalog/tiers.ts";
import { chainOf } from "../chain-io.ts";
import { identityOf } from "../identity.ts";
import { mystery, PURCHASE_STATUSES, type PurchaseStatus } from "../state.ts";
import { isTxHash, optIdentifier, parseUsdc, tierParam, usdc, walletParam, type Body } from "../util.ts";
import { buyCustodial } from "./custodial.ts";
import { preparePurchase, submitPurchase } from "./non-custodial.ts";
import { formatPurchase, listPurchases, readPurchase } from "./purchases.ts";

// Purchases: non-custodial prepare/submit, custodial purchase, reads.

const account = (c: HandlerContext) => c.key!.account_id;

function maxPriceOf(b: Body, price: bigint): bigint {
  if (b.max_price_usdc === undefined || b.max_price_usdc === null) return price;
  const m = parseUsdc(b.max_price_usdc);
  if (m === null) throw badRequest("invalid_amount", "max_price_usdc must be a non-negative decimal USDC amount with at most 6 places, such as \"25.00\"");
  if (m < price) throw conflict("max_price_exceeded", `The tier costs ${usdc(price)} USDC, above max_price_usdc ${usdc(m)}`);
  return m;
}

export const purchaseRoutes: RouteSpec[] = [
  route("POST", "/mystery/purchase/prepare", partner("packs:purchase"), "purchase", async (c) => {
    const b = await c.object();
    const tier = tierOf(c.services, tierParam(b.tier_id));
    const wallet = walletParam(b.wallet_address);
    const maxPrice = maxPriceOf(b, tier.price);
    return ok(preparePurchase(c.services, tier, wallet, maxPrice));
  }),

  route("POST", "/mystery/purchase/submit", partner("packs:purchase"), "purchase", async (c) => {
    const b = await c.object();
    const tier = tierOf(c.services, tierParam(b.tier_id));
    const hash = b.transaction_hash ?? b.tx_hash;
    if (hash === undefined || hash === null || hash === "") throw badRequest("missing_tx_hash", "transaction_hash is required (submit after the purchase transaction is mined)");
    if (!isTxHash(hash)) throw badRequest("invalid_tx_hash", "transaction_hash must be 0x followed by 64 hex characters");
    const wallet = walletParam(b.wallet_address);
    const external_user_id = optIdentifier(b, "external_user_id");
    checkIdLength(b.request_id, "request_id");
    const request_id = b.request_id === undefined || b.request_id === null ? null : String(b.request_id);
    return accepted(formatPurchase(await submitPurchase(c.services, account(c), { tier, hash, wallet, external_user_id, request_id })));
  }),

  route("POST", "/mystery/purchase", partner("packs:purchase"), "purchase", async (c) => {
    const key = c.req.headers.get("idempotency-key");
    if (key === null || key.trim() === "") throw badRequest("missing_idempotency_key", "POST /mystery/purchase requires an Idempotency-Key header");
    const b = await c.object();
    const tier = tierOf(c.services, tierParam(b.tier_id));
    if (b.quantity !== undefined && b.quantity !== 1) throw badRequest("unsupported_quantity", "quantity is fixed at 1 (one pack per call)");
    const who = identityOf(b, "Send external_user_id and/or wallet_address to say which end user buys");
    const acct = account(c);
    return idempotent(
      c.services.store,
      {
        scope: `${acct}:mystery-purchase`,
        key,
        fingerprint: { tier_id: tier.tierId, user: who.external_user_id ?? who.wallet_address?.toLowerCase() },
        now: c.services.clock.nowIso(),
        // A replay answers the original 202 with the purchase as it is now.
        replay: (orig) => {
          const id = (orig.data as { id: number }).id;
          const row = own(mystery(c.services).purchases, String(id));
          return accepted(row ? formatPurchase(row) : orig.data);
        },
      },
      async () => {
        chainOf(c.services); // 503 chain_unavailable before anything is held
        const maxPrice = maxPriceOf(b, tier.price);
        return accepted(formatPurchase(await buyCustodial(c.services, acct, tier, who, maxPrice)));
      },
    );
  }),

  route("GET", "/mystery/purchase/:id", partner("packs:read"), "partner_read", async (c) =>
    ok(formatPurchase(await readPurchase(c.services, account(c), intId(c.params.id, "purchase_id"), c.params.id ?? ""))),
  ),

  route("GET", "/mystery/purchases", partner("packs:read"), "partner_read", async (c) => {
    const status = c.query.get("status");
    if (status !== null && !PURCHASE_STATUSES.includes(status.toUpperCase() as PurchaseStatus))
      throw badRequest("invalid_status", `status must be one of ${PURCHASE_STATUSES.join(", ")}`);
    const page = parseOffsetPage(c.query);
    const user = c.query.get("external_user_id");
    checkIdLength(user, "external_user_id");
    const wallet = c.query.get("wallet_address")?.toLowerCase() ?? null;
    const rows = await listPurchases(c.services, account(c), { status: status === null ? null : (status.toUpperCase() as PurchaseStatus), external_user_id: user, wallet });
    const { items, pagination } = paginate(rows, page);
    return ok({ purchases: items.map(formatPurchase) }, { pagination });
  }),
];
