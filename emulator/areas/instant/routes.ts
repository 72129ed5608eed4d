import type { AccessRule } from "../../pipeline/auth.ts";
import { paginate } from "../../pipeline/pagination.ts";
import { accepted, defineRoute, ok, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import { catalogItems } from "./catalog.ts";
import { chainOf } from "./chain-io.ts";
import { formatPurchase } from "./format.ts";
import { assertEnabled, knownPacketType, listPurchases, preparePurchase, readPurchase, submitPurchase } from "./purchases.ts";
import { catalogRoute, listRoute, prepareRoute, readRoute, submitRoute } from "./schemas.ts";

// /api/v1/instant/* exactly as sdk-contract §5.2 lists them. Partner keys only
// (scopes per service-facts §2.2); no credits (interface: instant-pack calls
// are billed on volume). The hash is the idempotency key of submit; prepare creates nothing.

const partner = (scope: string): AccessRule => ({ kinds: ["partner"], scopes: [scope] });
const account = (c: HandlerContext) => c.key!.account_id;

export const instantRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: "/instant/catalog",
    access: partner("read:catalog"),
    envelope: "partner",
    gate: "partner_read",
    schema: catalogRoute,
    async handle(c) {
      const { include_unavailable, ...page } = c.input.query;
      const { items, pagination } = paginate(await catalogItems(c.services, include_unavailable), page);
      return ok({ packs: items }, { pagination });
    },
  }),

  defineRoute({
    method: "POST",
    path: "/instant/purchase/prepare",
    access: partner("packs:purchase"),
    envelope: "partner",
    gate: "purchase",
    schema: prepareRoute,
    async handle(c) {
      const b = c.input.body;
      assertEnabled(c.services);
      chainOf(c.services); // 503 chain_unavailable under --no-chain
      const t = await knownPacketType(c.services, b.packet_type_id);
      return ok(preparePurchase(c.services, t, b.wallet_address, b.max_price_usdc));
    },
  }),

  defineRoute({
    method: "POST",
    path: "/instant/purchase/submit",
    access: partner("packs:purchase"),
    envelope: "partner",
    gate: "purchase",
    schema: submitRoute,
    async handle(c) {
      const b = c.input.body;
      assertEnabled(c.services);
      const row = await submitPurchase(c.services, account(c), {
        packet_type_id: b.packet_type_id,
        hash: b.transaction_hash,
        wallet: b.wallet_address ?? null,
        external_user_id: b.external_user_id ?? null,
      });
      return accepted(formatPurchase(row));
    },
  }),

  defineRoute({
    method: "GET",
    path: "/instant/purchase/:id",
    access: partner("packs:read"),
    envelope: "partner",
    gate: "partner_read",
    schema: readRoute,
    async handle(c) {
      const { id, label } = c.input.params.id;
      return ok(formatPurchase(await readPurchase(c.services, account(c), id, label)));
    },
  }),

  defineRoute({
    method: "GET",
    path: "/instant/purchases",
    access: partner("packs:read"),
    envelope: "partner",
    gate: "partner_read",
    schema: listRoute,
    async handle(c) {
      const { status, external_user_id, wallet_address, ...page } = c.input.query;
      const rows = await listPurchases(c.services, account(c), { status, external_user_id, wallet: wallet_address });
      const { items, pagination } = paginate(rows, page);
      return ok({ purchases: items.map(formatPurchase) }, { pagination });
    },
  }),
];
