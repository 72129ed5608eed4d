import { optString } from "../../control/body.ts";
import type { ControlContext, ControlSpec } from "../../control/route.ts";
import { badRequest } from "../../pipeline/errors.ts";
import { intId } from "../../pipeline/identifiers.ts";
import { withKeyLock } from "../../pipeline/key-lock.ts";
import { ok } from "../../pipeline/route.ts";
import { closeAccountPeriod, closeAllPeriods, payStatement, pendingStatement } from "./revenue/payouts.ts";
import { isTxHash } from "./util.ts";

// Operator actions for revenue share (rules in revenue/payouts.ts): close the
// open period of a TIER account into a PENDING statement, pay a statement.

export const revenueControl: ControlSpec[] = [
  {
    method: "POST",
    path: "/mystery/payouts/close",
    describe: "Close the open revenue period into a PENDING payout statement {account_id?} (omitted: every TIER account with a non-empty period); payout.statement_ready",
    handle: (c) => {
      const acct = optString(c.body, "account_id");
      if (acct !== undefined) return ok({ payouts: [closeAccountPeriod(c.services, acct)] });
      return ok({ payouts: closeAllPeriods(c.services) });
    },
  },
  {
    method: "POST",
    path: "/mystery/payouts/:id/pay",
    describe: "Pay a PENDING payout statement {tx_hash?} → PAID (payout.paid); needs a payout wallet (at close or now)",
    // Check PENDING → pay on chain → mark PAID is exclusive per payout: a parallel second call waits and answers 409.
    handle: (c) => withKeyLock(c.services.store, `mystery:payout:${String(intId(c.params.id) ?? c.params.id)}`, () => pay(c)),
  },
];

async function pay(c: ControlContext) {
  const id = intId(c.params.id);
  pendingStatement(c.services, id, c.params.id);
  const given = optString(c.body, "tx_hash");
  if (given !== undefined && !isTxHash(given)) throw badRequest("invalid_tx_hash", "tx_hash must be 0x followed by 64 hex characters");
  return ok(await payStatement(c.services, id!, given));
}
