import { own } from "../../state/own.ts";
import type { Order, TenantState } from "./model.ts";
import { toCents } from "./money.ts";
import { billableUsage, monthClosed, monthOf, usageOf } from "./state.ts";

// Labels on the bill. A label is billed in the first open month at its
// purchase; a voided label (an order cancelled in LABEL_PURCHASED) is not
// billed: it leaves that month's usage while the month is open, or is
// credited on the next invoice once it was invoiced (an issued invoice never
// changes).

const bump = (counts: Record<string, number>, cents: number, by: number) => {
  counts[String(cents)] = (own(counts, String(cents)) ?? 0) + by;
};

/** The label of `o` was bought at `iso`. */
export function billLabel(t: TenantState, o: Order, iso: string): void {
  const { month, usage } = billableUsage(t, iso);
  const cents = toCents(o.amount ?? "0");
  usage.labels++;
  usage.label_amount_cents += cents;
  // Per price, so the invoice can bill whole lines (quantity × unit = amount).
  bump((usage.label_amounts ??= {}), cents, 1);
  o.label_billed_month = month;
}

/** The label of `o` was voided at `iso`. */
export function voidLabel(t: TenantState, o: Order, iso: string): void {
  if (!o.label_purchased_at) return;
  const cents = toCents(o.amount ?? "0");
  // States saved before label_billed_month billed a label in its purchase month.
  const billed = o.label_billed_month ?? monthOf(o.label_purchased_at);
  if (monthClosed(t, billed)) {
    bump((billableUsage(t, iso).usage.label_voids ??= {}), cents, 1);
    return;
  }
  const usage = usageOf(t, billed);
  usage.labels = Math.max(0, usage.labels - 1);
  usage.label_amount_cents = Math.max(0, usage.label_amount_cents - cents);
  // States saved before per-price counts billed this label in the unbroken rest: the totals above cover it.
  const byAmount = usage.label_amounts ?? {};
  if ((own(byAmount, String(cents)) ?? 0) > 0) bump(byAmount, cents, -1);
}
