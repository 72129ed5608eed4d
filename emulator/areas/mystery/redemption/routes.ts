import { badRequest } from "../../../pipeline/errors.ts";
import { checkIdempotencyKey } from "../../../pipeline/idempotency.ts";
import { paginate } from "../../../pipeline/pagination.ts";
import { accepted, created, ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { checkLater } from "../../../pipeline/schema.ts";
import { partner, schemaRoute as typed } from "../access.ts";
import { prepareRedemption, quoteRedemption } from "./prepare.ts";
import { formatRedemption, listRedemptions, redemptionsFor } from "./redemption.ts";
import { byPurchaseRoute, checkShippingPayer, listRoute, prepareRoute, quoteRoute, shippingRequest, submitRoute } from "./schemas.ts";
import { submitRedemption, verifyRedemptions } from "./submit.ts";

// Redemption endpoints (interface "Mystery commerce"; service-facts §4.7: the live flow of SDK 0.1.2, KYC only if the partner requires it).

const account = (c: HandlerContext) => c.key!.account_id;

export const redemptionRoutes: RouteSpec[] = [
  typed("POST", "/mystery/redemption/quote", partner("cards:redeem"), "partner_write", quoteRoute, async (c) => {
    const { address, carriers, target } = c.input.body;
    // Creates no rows.
    return ok(await quoteRedemption(c.services, account(c), address, carriers, target));
  }),

  typed("POST", "/mystery/redemption/prepare", partner("cards:redeem"), "partner_write", prepareRoute, async (c) => {
    const b = c.input.body;
    const key = typeof b.idempotency_key === "string" && b.idempotency_key !== "" ? b.idempotency_key : c.req.headers.get("idempotency-key");
    if (!key) throw badRequest("missing_idempotency_key", "Send idempotency_key in the body or the Idempotency-Key header");
    checkIdempotencyKey(key, "idempotency_key");
    // The key is checked first, so the rest of the body only now.
    checkShippingPayer(b.shipping_payer);
    const { address, carriers, target } = checkLater(shippingRequest, b);
    const r = await prepareRedemption(c.services, account(c), { key, address, carriers, target });
    return created(formatRedemption(c.services, r, true));
  }),

  typed("POST", "/mystery/redemption/submit", partner("cards:redeem"), "partner_write", submitRoute, async (c) => {
    const { id, label, hash } = c.input.body;
    return accepted(formatRedemption(c.services, await submitRedemption(c.services, account(c), id, label, hash)));
  }),

  typed("GET", "/mystery/redemption/:purchase_id", partner("packs:read"), "partner_read", byPurchaseRoute, async (c) => {
    const { raw, id } = c.input.params.purchase_id;
    let rows = redemptionsFor(c.services, account(c), id, raw);
    if (c.input.query.verify) {
      await verifyRedemptions(c.services, rows.map((r) => r.redemption_id));
      rows = redemptionsFor(c.services, account(c), id, raw);
    }
    return ok({ redemptions: rows.map((r) => formatRedemption(c.services, r)) });
  }),

  typed("GET", "/mystery/redemptions", partner("packs:read"), "partner_read", listRoute, (c) => {
    const { status, ...page } = c.input.query;
    const rows = listRedemptions(c.services, account(c), status);
    const { items, pagination } = paginate(rows, page);
    return ok({ redemptions: items.map((r) => formatRedemption(c.services, r)) }, { pagination });
  }),
];
