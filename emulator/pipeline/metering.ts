import type { CreditAccount, KeyRecord } from "../state/schema.ts";
import { MAX_TIME_MS } from "../clock/bounds.ts";
import { FREE_CREDITS_PER_MONTH } from "../state/plans.ts";
import { isoMonth, isoOf } from "../../contract/time.ts";

// Credits: charged up front, refunded on any 4xx/5xx. Two pools kept apart:
// free credits (reset to 500 at each UTC month start, never stacking) are spent
// first; purchased credits never expire.

export interface Charge {
  free: number;
  purchased: number;
  /** The free pool's month the free part came from. */
  period: string;
}

// The month of the last call and its bounds: most calls fall in the same month,
// so the hot path compares two numbers instead of formatting a date.
let cached = { from: 0, to: -1, month: "" };

export function monthOf(ms: number): string {
  if (ms >= cached.from && ms < cached.to) return cached.month;
  const d = new Date(ms);
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const to = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  cached = { from, to, month: isoMonth(from) };
  return cached.month;
}

export function newAccount(now: number, balance?: number): CreditAccount {
  const total = balance ?? FREE_CREDITS_PER_MONTH;
  const free = Math.min(total, FREE_CREDITS_PER_MONTH);
  return { free, purchased: total - free, free_period: monthOf(now), usage: {}, requests: {} };
}

/** Applies the monthly reset lazily: exact for any jump of the clock. */
export function settle(acct: CreditAccount, now: number): CreditAccount {
  const month = monthOf(now);
  if (acct.free_period < month) {
    acct.free = FREE_CREDITS_PER_MONTH;
    acct.free_period = month;
  }
  return acct;
}

export const balanceOf = (acct: CreditAccount): number => acct.free + acct.purchased;

/** Takes `cost` (free first); null when the balance cannot cover it (nothing taken). */
export function take(acct: CreditAccount, cost: number): Charge | null {
  if (balanceOf(acct) < cost) return null;
  const free = Math.min(acct.free, cost);
  const purchased = cost - free;
  acct.free -= free;
  acct.purchased -= purchased;
  return { free, purchased, period: acct.free_period };
}

/**
 * Gives a charge back. Free credits return to the pool they came from only
 * while that pool's month lasts: after a reset the month's 500 is fresh, and
 * adding January's credit to it would stack free credits above 500.
 */
export function refund(acct: CreditAccount, charge: Charge, now: number): void {
  settle(acct, now);
  if (acct.free_period === charge.period) acct.free += charge.free;
  acct.purchased += charge.purchased;
}

export function recordUsage(acct: CreditAccount, cost: number, now: number): void {
  const month = monthOf(now);
  acct.usage[month] = (acct.usage[month] ?? 0) + cost;
  acct.requests[month] = (acct.requests[month] ?? 0) + 1;
}

export function isMetered(key: KeyRecord): boolean {
  return key.kind !== "legacy";
}

/**
 * `X-Credits-Metering: unmetered` on every answer to a legacy key once it is known, refusals and unmetered routes
 * included (docs/reference/api-rules.md “Authentication”); nothing for any other key.
 */
export function writeMeteringHeader(h: Record<string, string>, key: KeyRecord | undefined): void {
  if (key && !isMetered(key)) h["X-Credits-Metering"] = "unmetered";
}

/** First instant of the next UTC month: when free credits reset. */
export function nextResetAt(now: number): string {
  const d = new Date(now);
  // In the clock's last month (December 9999) the next reset is past its range: shown as the range's end.
  return isoOf(Math.min(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1), MAX_TIME_MS));
}
