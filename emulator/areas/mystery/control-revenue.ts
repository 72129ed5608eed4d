import type { ControlSpec } from "../../control/route.ts";
import { defineControl } from "../../control/route.ts";
import { badInput, missing, opt, text } from "../../control/schemas.ts";
import { intId } from "../../pipeline/identifiers.ts";
import { withKeyLock } from "../../pipeline/key-lock.ts";
import { ok } from "../../pipeline/route.ts";
import { z } from "../../pipeline/schema.ts";
import { closeAccountPeriod, closeAllPeriods, payStatement, pendingStatement } from "./revenue/payouts.ts";
import { RevenuePayout } from "../../../contract/index.ts";

const isTxHash = (v: unknown): v is `0x${string}` => typeof v === "string" && /^0x[0-9a-fA-F]{64}$/.test(v);

// Operator actions for revenue share (rules in revenue/payouts.ts): close the
// open period of a TIER account into a PENDING statement, pay a statement.

const txHash = z
  .string()
  .refine(isTxHash, { error: "must be 0x followed by 64 hex characters", params: { code: "invalid_tx_hash" } });

export const revenueControl: ControlSpec[] = [
  defineControl({
    method: "POST",
    path: "/mystery/payouts/close",
    describe:
      "Close the open revenue period into a PENDING payout statement {account_id?} (omitted: every TIER account with a non-empty period); payout.statement_ready",
    schema: {
      body: z.object({ account_id: opt(text()) }),
      responses: {
        200: { description: "The statements closed", data: z.object({ payouts: z.array(RevenuePayout) }) },
        400: badInput,
        404: missing("partner account"),
        409: { description: "A POOL-model account has no revenue share", codes: ["not_tier_partner"] },
      },
    },
    handle: (c) => {
      const acct = c.input.body.account_id;
      if (acct !== undefined) return ok({ payouts: [closeAccountPeriod(c.services, acct)] });
      return ok({ payouts: closeAllPeriods(c.services) });
    },
  }),
  defineControl({
    method: "POST",
    path: "/mystery/payouts/:id/pay",
    describe: "Pay a PENDING payout statement {tx_hash?} → PAID (payout.paid); needs a payout wallet (at close or now)",
    schema: {
      params: z.object({ id: z.string() }),
      body: z.object({ tx_hash: opt(txHash) }),
      responses: {
        200: { description: "The statement, PAID", data: RevenuePayout },
        400: {
          description: "tx_hash is not a transaction hash",
          codes: ["invalid_value", "invalid_tx_hash", "invalid_json"],
        },
        404: missing("payout"),
        409: { description: "Not PENDING, or no payout wallet", codes: ["invalid_status", "payout_wallet_not_set"] },
      },
    },
    // Check PENDING → pay on chain → mark PAID is exclusive per payout: a parallel second call waits and answers 409.
    handle: (c) => {
      const raw = c.input.params.id;
      const id = intId(raw);
      return withKeyLock(c.services, `mystery:payout:${String(id ?? raw)}`, async () => {
        pendingStatement(c.services, id, raw);
        return ok(await payStatement(c.services, id!, c.input.body.tx_hash));
      });
    },
  }),
];
