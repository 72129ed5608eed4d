import { FREE_CREDITS_PER_MONTH } from "../../state/plans.ts";
import { balanceOf, monthOf, nextResetAt } from "../../pipeline/metering.ts";
import type { CreditAccount, KeyRecord } from "../../state/schema.ts";
import type { PlanWire, UsageWire } from "../../../contract/index.ts";

// GET /api/v1/account/usage: the interface names balance, plan and
// month-to-date usage; the rest (split of the balance, reset date, rate limit,
// plan list) is what a partner needs to reason about the X-Credits-* headers.

export const PLANS: readonly PlanWire[] = [
  {
    name: "Pay as you go",
    included_credits_per_month: FREE_CREDITS_PER_MONTH,
    rate_limit_per_min: 300,
    status: "available",
    available: true,
  },
  {
    name: "Starter",
    included_credits_per_month: 7_500,
    rate_limit_per_min: 300,
    status: "coming_soon",
    available: false,
  },
  {
    name: "Growth",
    included_credits_per_month: 60_000,
    rate_limit_per_min: 300,
    status: "coming_soon",
    available: false,
  },
  {
    name: "Professional",
    included_credits_per_month: 300_000,
    rate_limit_per_min: 300,
    status: "coming_soon",
    available: false,
  },
];

/**
 * `acct` is already settled (monthly reset applied) by the pipeline, and this call costs 0, so
 * `balance` equals this response's X-Credits-Remaining. The pipeline records the call itself after
 * the handler, so it is added to the request count here (figures include the call you are making).
 */
export function usageView(key: KeyRecord, acct: CreditAccount, now: number): UsageWire {
  const month = monthOf(now);
  const start = `${month}-01T00:00:00.000Z`;
  const resetAt = nextResetAt(now);
  return {
    balance: balanceOf(acct),
    free_credits: acct.free,
    purchased_credits: acct.purchased,
    plan: PLANS[0]!.name,
    plans: PLANS.map((p) => ({ ...p })),
    month_to_date_usage: acct.usage[month] ?? 0,
    month_to_date_requests: (acct.requests[month] ?? 0) + 1,
    period: { month, start, end: resetAt },
    free_credits_monthly: FREE_CREDITS_PER_MONTH,
    free_credits_reset_at: resetAt,
    rate_limit: { limit_per_min: key.rate_limit_per_min, window_seconds: 60 },
    metering: "metered",
  };
}
