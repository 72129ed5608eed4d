import { REDEMPTION, REDEMPTION_INPUT } from "../../../../contract/mystery/redemption.ts";
import { badRequest } from "../../../pipeline/errors.ts";
import { checkIdempotencyKey } from "../../../pipeline/idempotency.ts";
import { intIn } from "../../../pipeline/identifiers.ts";
import { paginate } from "../../../pipeline/pagination.ts";
import { accepted, created, ok, serve, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { checkLater } from "../../../pipeline/schema.ts";
import { prepareRedemption, quoteRedemption } from "./prepare.ts";
import { listRedemptions, preparedWire, redemptionsFor, redemptionWire, submitWire } from "./redemption.ts";
import { submitRedemption, verifyRedemptions } from "./submit.ts";

// Redemption endpoints (contract/mystery/redemption.ts; docs/mystery.md "Redemption"):
// the live flow of the SDK, KYC only if the partner requires it.

const account = (c: HandlerContext) => c.key!.account_id;
const write = "partner_write";
const read = "partner_read";

export const redemptionRoutes: RouteSpec[] = [
  serve(REDEMPTION.quote, {
    gate: write,
    handle: async (c) => {
      const { address, carriers, target } = c.input.body;
      // Creates no rows.
      return ok(await quoteRedemption(c.services, account(c), address, carriers, target));
    },
  }),

  serve(REDEMPTION.prepare, {
    gate: write,
    handle: async (c) => {
      const b = c.input.body;
      const key =
        typeof b.idempotency_key === "string" && b.idempotency_key !== ""
          ? b.idempotency_key
          : c.req.headers.get("idempotency-key");
      if (!key)
        throw badRequest("missing_idempotency_key", "Send idempotency_key in the body or the Idempotency-Key header");
      checkIdempotencyKey(key, "idempotency_key");
      // The key is checked first, so the rest of the body only now.
      checkLater(REDEMPTION_INPUT.shippingPayer, b.shipping_payer, "shipping_payer");
      const { address, carriers, target } = checkLater(REDEMPTION_INPUT.shipping, b);
      return created(
        preparedWire(c.services, await prepareRedemption(c.services, account(c), { key, address, carriers, target })),
      );
    },
  }),

  serve(REDEMPTION.submit, {
    gate: write,
    handle: async (c) => {
      const { id, label, hash } = c.input.body;
      return accepted(submitWire(await submitRedemption(c.services, account(c), id, label, hash)));
    },
  }),

  serve(REDEMPTION.get, {
    gate: read,
    handle: async (c) => {
      // The segment as sent, and as a purchase id (null when it is none).
      const raw = c.input.params.purchase_id;
      const id = intIn(raw, 1, Number.MAX_SAFE_INTEGER);
      let rows = redemptionsFor(c.services, account(c), id, raw);
      if (c.input.query.verify) {
        await verifyRedemptions(
          c.services,
          rows.map((r) => r.redemption_id),
        );
        rows = redemptionsFor(c.services, account(c), id, raw);
      }
      return ok({ redemptions: rows.map(redemptionWire) });
    },
  }),

  serve(REDEMPTION.list, {
    gate: read,
    handle: (c) => {
      const { status, ...page } = c.input.query;
      const rows = listRedemptions(c.services, account(c), status ?? null);
      const { items, pagination } = paginate(rows, page);
      return ok({ redemptions: items.map(redemptionWire) }, { pagination });
    },
  }),
];
