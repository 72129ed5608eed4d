import { balanceOf, recordUsage, refund as giveBack } from "../metering.ts";
import { replaced } from "../generation.ts";
import type { Step } from "./context.ts";

/** Bills 2xx/304, refunds everything else (any 4xx or 5xx); sets the credit headers. */
export const refund: Step = {
  name: "refund",
  always: true,
  // Only the metering step takes a charge.
  on: (spec) => spec.cost !== undefined,
  run(p) {
    const { charge, key } = p;
    if (!charge || !key) return;
    p.charge = null;
    // Charged from a state that was replaced while the request ran: refunding or billing it here would add to
    // the new state's balance (free credits above their ceiling) what the new state never took.
    if (replaced(p.services, p.chargedIn)) return;
    const { store, clock } = p.services;
    const status = p.error ? p.error.status : (p.reply!.status ?? 200);
    const acct = store.state.credits[key.key]!;
    const billed = (status >= 200 && status < 300) || status === 304;
    if (billed) recordUsage(acct, charge.free + charge.purchased, clock.now());
    else giveBack(acct, charge, clock.now());
    p.headers["X-Credits-Cost"] = String(billed ? charge.free + charge.purchased : 0);
    p.headers["X-Credits-Remaining"] = String(balanceOf(acct));
  },
};
