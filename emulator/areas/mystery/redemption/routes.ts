import { badRequest } from "../../../pipeline/errors.ts";
import { checkIdempotencyKey } from "../../../pipeline/idempotency.ts";
import { intId } from "../../../pipeline/identifiers.ts";
import { paginate, parseOffsetPage } from "../../../pipeline/pagination.ts";
import { accepted, created, ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, route } from "../access.ts";
import { REDEMPTION_STATUSES, type RedemptionStatus } from "../state.ts";
import { isTxHash, tokenIdOf, type Body } from "../util.ts";
import { prepareRedemption, quoteRedemption, type TargetInput } from "./prepare.ts";
import { formatRedemption, listRedemptions, redemptionsFor } from "./redemption.ts";
import { parseAddress, parseCarriers } from "./shipping.ts";
import { submitRedemption } from "./submit.ts";

// Redemption endpoints (interface "Mystery commerce"; service-facts §4.7 generation A).

const account = (c: HandlerContext) => c.key!.account_id;

/** purchase_id and/or token_id as sent (the rules answer a missing or unknown one). */
function targetOf(b: Body): TargetInput {
  const purchase = b.purchase_id === undefined || b.purchase_id === null ? null : { raw: b.purchase_id, id: intId(b.purchase_id, "purchase_id") };
  const token = b.token_id === undefined || b.token_id === null || b.token_id === "" ? null : { raw: b.token_id, id: tokenIdOf(b.token_id) };
  return { purchase, token };
}

export const redemptionRoutes: RouteSpec[] = [
  route("POST", "/mystery/redemption/quote", partner("cards:redeem"), "partner_write", async (c) => {
    const b = await c.object();
    const address = parseAddress(b);
    const carriers = parseCarriers(b);
    // Creates no rows.
    return ok(await quoteRedemption(c.services, account(c), address, carriers, targetOf(b)));
  }),

  route("POST", "/mystery/redemption/prepare", partner("cards:redeem"), "partner_write", async (c) => {
    const b = await c.object();
    const key = typeof b.idempotency_key === "string" && b.idempotency_key !== "" ? b.idempotency_key : c.req.headers.get("idempotency-key");
    if (!key) throw badRequest("missing_idempotency_key", "Send idempotency_key in the body or the Idempotency-Key header");
    checkIdempotencyKey(key, "idempotency_key");
    const address = parseAddress(b);
    const carriers = parseCarriers(b);
    const r = await prepareRedemption(c.services, account(c), { key, address, carriers, target: targetOf(b) });
    return created(formatRedemption(c.services, r, true));
  }),

  route("POST", "/mystery/redemption/submit", partner("cards:redeem"), "partner_write", async (c) => {
    const b = await c.object();
    const id = intId(b.redemption_id, "redemption_id");
    const hash = b.tx_hash ?? b.transaction_hash;
    if (!isTxHash(hash)) throw badRequest("invalid_tx_hash", "tx_hash must be 0x followed by 64 hex characters");
    return accepted(formatRedemption(c.services, await submitRedemption(c.services, account(c), id, String(b.redemption_id ?? ""), hash)));
  }),

  route("GET", "/mystery/redemption/:purchase_id", partner("packs:read"), "partner_read", (c) => {
    const raw = c.params.purchase_id!;
    const rows = redemptionsFor(c.services, account(c), intId(raw, "purchase_id"), raw);
    return ok({ redemptions: rows.map((r) => formatRedemption(c.services, r)) });
  }),

  route("GET", "/mystery/redemptions", partner("packs:read"), "partner_read", (c) => {
    const status = c.query.get("status");
    if (status !== null && !REDEMPTION_STATUSES.includes(status.toUpperCase() as RedemptionStatus))
      throw badRequest("invalid_status", `status must be one of ${REDEMPTION_STATUSES.join(", ")}`);
    const page = parseOffsetPage(c.query);
    const rows = listRedemptions(c.services, account(c), status === null ? null : (status.toUpperCase() as RedemptionStatus));
    const { items, pagination } = paginate(rows, page);
    return ok({ redemptions: items.map((r) => formatRedemption(c.services, r)) }, { pagination });
  }),
];
