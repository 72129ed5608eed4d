import { own } from "../../state/own.ts";
import type { Order, TenantState } from "./model.ts";
import { toCents } from "./money.ts";
import { monthOf, usageOf } from "./state.ts";

// Labels on the bill. A label is billed in the month it was bought; a voided
// label (an order cancelled in LABEL_PURCHASED) is not billed: it leaves its
// month's usage while that month is open, or is credited on the next invoice
// when its month was already closed (an issued invoice never changes).

const bump = (counts: Record<string, number>, cents: number, by: number) => {
  counts[String(cents)] = (own(counts, String(cents)) ?? 0) + by;
};

const monthClosed = (t: TenantState, month: string) => Object.values(t.invoices).some((i) => i.month === month);

/** The label of `o` was bought at `iso`. */
export function billLabel(t: TenantState, o: Order, iso: string): void {
  const usage = usageOf(t, monthOf(iso));
  const cents = toCents(o.amount ?? "0");
  usage.labels++;
  usage.label_amount_cents += cents;
  // Per price, so the invoice can bill whole lines (quantity × unit = amount).
  bump((usage.label_amounts ??= {}), cents, 1);
}

/** The label of `o` was voided at `iso`. */
export function voidLabel(t: TenantState, o: Order, iso: string): void {
  if (!o.label_purchased_at) return;
  const cents = toCents(o.amount ?? "0");
  const bought = monthOf(o.label_purchased_at);
  if (monthClosed(t, bought)) {
    bump((usageOf(t, monthOf(iso)).label_voids ??= {}), cents, 1);
    return;
  }
  const usage = usageOf(t, bought);
  usage.labels = Math.max(0, usage.labels - 1);
  usage.label_amount_cents = Math.max(0, usage.label_amount_cents - cents);
  // States saved before per-price counts billed this label in the unbroken rest: the totals above cover it.
  const byAmount = usage.label_amounts ?? {};
  if ((own(byAmount, String(cents)) ?? 0) > 0) bump(byAmount, cents, -1);
}
