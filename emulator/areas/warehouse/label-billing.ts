import { own } from "../../state/own.ts";
import type { Order, TenantState } from "./model.ts";
import { toCents } from "./money.ts";
import { billableUsage, monthClosed, monthOf, usageOf } from "./state.ts";

// Labels on the bill. A label is billed in the first open month at its
// purchase; a voided label (an order cancelled in LABEL_PURCHASED) is not
// billed: it leaves that month's usage while the month is open, or is
// credited on the next invoice once it was invoiced (an issued invoice never
// changes). Service credits and voids together never pay back more than the
// label was billed.

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

/** What the label of `o` is billed now (cents): its cost once bought, nothing once voided or never bought. */
export function labelBilledCents(o: Order): number {
  if (!o.label_purchased_at || o.cancel_reason === "cancelled_label_voided") return 0;
  return toCents(o.amount ?? "0");
}

/** What approved service credits already pay back for `o` (cents). */
export function creditedCents(t: TenantState, o: Order): number {
  return Object.values(t.service_credits)
    .filter((sc) => sc.order_id === o.order_id && sc.status === "APPROVED")
    .reduce((sum, sc) => sum + (sc.amount ?? 0), 0);
}

/**
 * The label of `o` was voided at `iso`. A label a service credit already paid back is paid back
 * only for the rest: the label stays on the bill and the void credits what the credit did not,
 * so the tenant never gets more back than was billed (issue 37).
 */
export function voidLabel(t: TenantState, o: Order, iso: string): void {
  if (!o.label_purchased_at) return;
  const cents = toCents(o.amount ?? "0");
  const credited = Math.min(creditedCents(t, o), cents);
  if (credited > 0) {
    if (cents > credited) bump((billableUsage(t, iso).usage.label_voids ??= {}), cents - credited, 1);
    return;
  }
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
