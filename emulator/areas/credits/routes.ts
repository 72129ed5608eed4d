import { ApiError } from "../../pipeline/errors.ts";
import { balanceOf, newAccount, settle } from "../../pipeline/metering.ts";
import type { AccessRule } from "../../pipeline/auth.ts";
import { defineRoute, ok, type RouteSpec } from "../../pipeline/route.ts";
import { topup } from "./topup.ts";
import { usageView } from "./usage.ts";
import { SCHEMAS } from "./schemas.ts";

// Credits routes. Both are for metered keys: partner keys, whatever their
// scopes (the credit balance belongs to the key, not to a capability).
// Tenant keys never spend credits and legacy keys are unmetered: 403.

const METERED: AccessRule = { kinds: ["partner"] };

export const creditsRoutes: RouteSpec[] = [
  defineRoute({
    method: "POST",
    path: "/credits/topup",
    access: METERED,
    envelope: "partner",
    schema: SCHEMAS.topup,
    async handle(c) {
      const key = c.key!;
      const reply = await topup({ services: c.services, key, url: c.url, headers: c.req.headers, amount: c.input.query.usd });
      const now = c.services.clock.now();
      const acct = settle((c.services.store.state.credits[key.key] ??= newAccount(now)), now);
      // Not a metered call, but the new balance is what a partner wants to see next.
      return { ...reply, headers: { ...reply.headers, "X-Credits-Remaining": String(balanceOf(acct)) } };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/account/usage",
    access: METERED,
    envelope: "partner",
    // Metered at 0 so it carries X-Credits-Cost: 0 and the same X-Credits-Remaining as `balance`.
    cost: 0,
    schema: SCHEMAS.usage,
    handle(c) {
      const acct = c.services.store.state.credits[c.key!.key];
      if (!acct) throw new ApiError(500, "internal_error", "no credit account for a metered key");
      return ok(usageView(c.key!, acct, c.services.clock.now()));
    },
  }),
];
