import { INSTANT } from "../../../contract/index.ts";
import { intIn } from "../../pipeline/identifiers.ts";
import { paginate } from "../../pipeline/pagination.ts";
import { accepted, ok, serve, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import { catalogItems } from "./catalog.ts";
import { chainOf } from "./chain-io.ts";
import { formatPurchase } from "./format.ts";
import {
  assertEnabled,
  knownPacketType,
  listPurchases,
  preparePurchase,
  readPurchase,
  submitPurchase,
} from "./purchases.ts";

// /api/v1/instant/* (contract/instant.ts, docs/instant.md). Partner keys only;
// no credits (instant-pack calls are billed on volume). The hash is the
// idempotency key of submit; prepare creates nothing.

const account = (c: HandlerContext) => c.key!.account_id;

export const instantRoutes: RouteSpec[] = [
  serve(INSTANT.catalog, {
    gate: "partner_read",
    async handle(c) {
      const { include_unavailable, ...page } = c.input.query;
      const { items, pagination } = paginate(await catalogItems(c.services, include_unavailable), page);
      return ok({ packs: items }, { pagination });
    },
  }),

  serve(INSTANT.prepare, {
    gate: "purchase",
    async handle(c) {
      const b = c.input.body;
      assertEnabled(c.services);
      chainOf(c.services); // 503 chain_unavailable under --no-chain
      const t = await knownPacketType(c.services, b.packet_type_id);
      return ok(preparePurchase(c.services, t, b.wallet_address, b.max_price_usdc));
    },
  }),

  serve(INSTANT.submit, {
    gate: "purchase",
    async handle(c) {
      const b = c.input.body;
      assertEnabled(c.services);
      const row = await submitPurchase(c.services, account(c), {
        packet_type_id: b.packet_type_id,
        hash: b.transaction_hash,
        wallet: b.wallet_address ?? null,
        external_user_id: b.external_user_id ?? null,
      });
      return accepted(formatPurchase(c.services, row));
    },
  }),

  serve(INSTANT.getPurchase, {
    gate: "partner_read",
    handle(c) {
      const label = c.input.params.id;
      return ok(
        formatPurchase(
          c.services,
          readPurchase(c.services, account(c), intIn(label, 1, Number.MAX_SAFE_INTEGER), label),
        ),
      );
    },
  }),

  serve(INSTANT.listPurchases, {
    gate: "partner_read",
    handle(c) {
      const { status, external_user_id, wallet_address, ...page } = c.input.query;
      const rows = listPurchases(c.services, account(c), { status, external_user_id, wallet: wallet_address });
      const { items, pagination } = paginate(rows, page);
      return ok({ purchases: items.map((p) => formatPurchase(c.services, p)) }, { pagination });
    },
  }),
];
