import { ApiError } from "../errors.ts";
import { balanceOf, isMetered, newAccount, settle, take } from "../metering.ts";
import { generation } from "../generation.ts";
import type { Step } from "./context.ts";

/** A metered route's cost is taken up front (402 insufficient_credits); the refund step settles it. */
export const metering: Step = {
  name: "metering",
  on: (spec) => spec.cost !== undefined,
  run(p) {
    const cost = p.spec.cost!;
    const key = p.key!;
    if (!isMetered(key)) return;
    const { store } = p.services;
    const acct = settle((store.state.credits[key.key] ??= newAccount(p.now)), p.now);
    p.charge = take(acct, cost);
    p.chargedIn = generation(p.services);
    if (!p.charge) {
      p.headers["X-Credits-Cost"] = "0";
      p.headers["X-Credits-Remaining"] = String(balanceOf(acct));
      throw new ApiError(
        402,
        "insufficient_credits",
        `This call costs ${cost} credits and the balance is ${balanceOf(acct)}. Top up with POST /api/v1/credits/topup?usd=<5..1000>.`,
        { details: { cost, balance: balanceOf(acct) } },
      );
    }
  },
};
