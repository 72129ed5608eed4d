import { badInput, missing, opt, text } from "../../../control/schemas.ts";
import { defineControl, type ControlSpec } from "../../../control/route.ts";
import { accountOf } from "../../../control/account.ts";
import { notFound } from "../../../pipeline/errors.ts";
import { intId } from "../../../pipeline/identifiers.ts";
import { ok } from "../../../pipeline/route.ts";
import { z } from "../../../pipeline/schema.ts";
import { mystery } from "../state.ts";
import { armWorker, serial } from "../worker.ts";
import { kycRequired, setKycRequired } from "./kyc.ts";
import { Redemption } from "../../../../contract/mystery/redemption.ts";
import { endUnshipped, redemptionWire } from "./redemption.ts";

// Operator actions of redemption under /_emulator/mystery: the per-partner KYC
// switch and a cancel of a redemption that has not shipped.

const kycBody = z
  .object({
    account_id: opt(text()),
    key: opt(text()).meta({ description: "A key of the partner (instead of account_id)" }),
    required: z.boolean({ error: "required must be true or false" }),
  })
  .refine((b) => b.account_id !== undefined || b.key !== undefined, { message: "account_id or key is required" });

export const redemptionControl: ControlSpec[] = [
  defineControl({
    method: "POST",
    path: "/mystery/kyc",
    describe:
      "Per-partner KYC switch {account_id | key, required: boolean}: on → redemption prepare answers PREPARED with kyc.status PENDING, kyc.kyc_url and no calls first (off by default, on for vesta)",
    schema: {
      body: kycBody,
      responses: {
        200: {
          description: "The partner's setting now",
          data: z.object({ account_id: z.string(), kyc_required: z.boolean() }),
        },
        400: badInput,
        404: missing("key"),
      },
    },
    handle: (c) => {
      const b = c.input.body;
      const account = accountOf(c.services, b);
      setKycRequired(c.services, account, b.required);
      return ok({ account_id: account, kyc_required: kycRequired(c.services, account) });
    },
  }),
  defineControl({
    method: "POST",
    path: "/mystery/redemptions/:id/cancel",
    describe:
      "Cancel a redemption that has not shipped → CANCELLED (redemption.updated): its burn is cancelled on chain and a landed shipping payment paid back {reason?}",
    schema: {
      params: z.object({ id: z.string() }),
      body: z.object({ reason: opt(text()) }),
      responses: {
        200: { description: "The redemption, CANCELLED", data: Redemption },
        400: badInput,
        404: missing("redemption"),
        409: { description: "Already shipped or ended", codes: ["invalid_status"] },
      },
    },
    handle: async (c) => {
      const raw = c.input.params.id;
      const id = intId(raw);
      if (id === null || !mystery(c.services).redemptions[id]) throw notFound(`No redemption ${raw}`);
      let out: Redemption | null = null;
      await serial(c.services, async () => {
        const r = await endUnshipped(
          c.services,
          id,
          "CANCELLED",
          c.input.body.reason ?? "cancelled by the operator",
          (what, err) => console.error(`[emulator] ${what} failed:`, err),
        );
        out = redemptionWire(r);
      });
      armWorker(c.services);
      return ok(out);
    },
  }),
];
