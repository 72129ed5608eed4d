import { ApiError } from "../../pipeline/errors.ts";
import { balanceOf, newAccount, settle } from "../../pipeline/metering.ts";
import { CREDITS } from "../../../contract/index.ts";
import { ok, serve, type RouteSpec } from "../../pipeline/route.ts";
import { topup } from "./topup.ts";
import { usageView } from "./usage.ts";

// Credits routes (contract/credits.ts): for metered keys only.

export const creditsRoutes: RouteSpec[] = [
  serve(CREDITS.topup, {
    async handle(c) {
      const key = c.key!;
      const reply = await topup({
        services: c.services,
        key,
        url: c.url,
        headers: c.req.headers,
        amount: c.input.query.usd,
      });
      const now = c.services.clock.now();
      const acct = settle((c.services.store.state.credits[key.key] ??= newAccount(now)), now);
      // Not a metered call, but the new balance is what a partner wants to see next.
      return { ...reply, headers: { ...reply.headers, "X-Credits-Remaining": String(balanceOf(acct)) } };
    },
  }),
  serve(CREDITS.usage, {
    handle(c) {
      const acct = c.services.store.state.credits[c.key!.key];
      if (!acct) throw new ApiError(500, "internal_error", "no credit account for a metered key");
      return ok(usageView(c.key!, acct, c.services.clock.now()));
    },
  }),
];
