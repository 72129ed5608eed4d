import type { Services } from "../../pipeline/services.ts";
import { badRequest, conflict, notFound } from "../../pipeline/errors.ts";
import { hashString } from "../../state/ids.ts";
import { own } from "../../state/own.ts";
import type { CardRow, ExceptionKind, Invoice, InvoiceLine, TenantState, Usage, WarehouseException } from "./model.ts";
import { vaultCards } from "./format.ts";
import { centsOfKey, insuredCents, toCents, usdCents } from "./money.ts";
import { invoiceIdOf, isMonth, logActivity, touch, usageOf } from "./state.ts";
import { isoOf } from "../../../contract/time.ts";
import { COUNTERS } from "../../state/ids.ts";

// Operator work on the warehouse side (driven by the control plane): identity
// and pricing of cards, exceptions, and closing a billing month.

/**
 * Publishes a pending card's identity: confirmed / unpriced, null prices, null
 * declared value (the interface's combination). The tenant's declared value
 * stops showing on the card; its submissions stay listed under /declared-values,
 * and the activity log says it was dropped.
 */
export function confirmIdentity(services: Services, t: TenantState, card: CardRow, cardId?: string): CardRow {
  if (card.identity.status === "confirmed")
    throw conflict("invalid_status", `Card ${card.unique_id} already has a confirmed identity`, {
      data: { ...card.identity },
    });
  let rec = cardId ? services.catalog.cardAnyGame(cardId) : undefined;
  if (cardId && !rec) throw notFound(`No catalog card ${cardId}`);
  if (!rec) {
    // No card named: a deterministic English base printing, from the unique_id.
    const candidates = services.catalog.cards("pokemon").filter((r) => !r.is_variant && r.card.language_code === "en");
    rec = candidates[hashString(card.unique_id, services.store.state.seed) % candidates.length];
  }
  const dropped = card.declared_value;
  card.identity = { status: "confirmed", card_id: rec.card.id, name: rec.card.name, game: rec.game };
  card.pricing = { status: "unpriced", market_price: null };
  card.insured_price = null;
  card.declared_value = null;
  touch(t, card, services.clock.nowIso());
  const note = dropped
    ? `; the ${dropped.source} declared value of ${dropped.amount} cents no longer shows (published cards carry the service's value once priced)`
    : "";
  logActivity(
    services,
    t,
    "operator",
    "card.identity_confirmed",
    `Identity of ${card.unique_id} confirmed as ${rec.card.id}${note}`,
    { unique_id: card.unique_id },
  );
  return card;
}

/** Prices a published card (USD cents → decimal strings, service declared value), or clears its price with null. */
export function setPrice(services: Services, t: TenantState, card: CardRow, marketCents: number | null): CardRow {
  if (card.identity.status !== "confirmed")
    throw conflict("invalid_status", `Card ${card.unique_id} is pending identity; confirm it before pricing`, {
      data: { ...card.identity },
    });
  if (marketCents === null) {
    card.pricing = { status: "unpriced", market_price: null };
    card.insured_price = null;
    card.declared_value = null;
  } else {
    card.pricing = { status: "priced", market_price: usdCents(marketCents) };
    card.insured_price = usdCents(insuredCents(marketCents));
    card.declared_value = { amount: marketCents, source: "service" };
  }
  touch(t, card, services.clock.nowIso());
  logActivity(
    services,
    t,
    "operator",
    "card.priced",
    `Price of ${card.unique_id} set to ${card.pricing.market_price ?? "none"}`,
    { unique_id: card.unique_id },
  );
  return card;
}

export function raiseException(
  services: Services,
  t: TenantState,
  input: { kind: ExceptionKind; message: string; unique_id?: string; order_id?: number; inbound_shipment_id?: number },
): WarehouseException {
  if (input.unique_id !== undefined && !own(t.cards, input.unique_id))
    throw notFound(`No card ${input.unique_id} for tenant ${t.account_id}`);
  if (input.order_id !== undefined && !own(t.orders, String(input.order_id)))
    throw notFound(`No order ${input.order_id} for tenant ${t.account_id}`);
  if (input.inbound_shipment_id !== undefined && !own(t.inbound, String(input.inbound_shipment_id)))
    throw notFound(`No inbound shipment ${input.inbound_shipment_id} for tenant ${t.account_id}`);
  const e: WarehouseException = {
    exception_id: services.store.nextId(COUNTERS.warehouseException),
    kind: input.kind,
    status: "OPEN",
    message: input.message,
    unique_id: input.unique_id ?? null,
    order_id: input.order_id ?? null,
    inbound_shipment_id: input.inbound_shipment_id ?? null,
    created_at: services.clock.nowIso(),
    resolved_at: null,
  };
  t.exceptions[String(e.exception_id)] = e;
  logActivity(services, t, "operator", "exception.opened", `Exception ${e.exception_id} (${e.kind}): ${e.message}`, {
    exception_id: e.exception_id,
  });
  return e;
}

export function findException(t: TenantState, id: number): WarehouseException {
  const e = own(t.exceptions, String(id));
  if (!e) throw notFound(`No exception ${id}`);
  return e;
}

export function resolveException(services: Services, t: TenantState, id: number): WarehouseException {
  const e = findException(t, id);
  if (e.status === "RESOLVED")
    throw conflict("invalid_status", `Exception ${id} is already resolved`, { data: structuredClone(e) });
  e.status = "RESOLVED";
  e.resolved_at = services.clock.nowIso();
  return e;
}

/** Unit prices of the warehouse's fees, in USD cents: invoice arithmetic never touches floats. */
export const FEES_CENTS = { storage_per_card: 10, inbound_per_shipment: 250, withdrawal: 500 } as const;

const line = (kind: InvoiceLine["kind"], description: string, quantity: number, unitCents: number): InvoiceLine => ({
  kind,
  description,
  quantity,
  unit_amount: usdCents(unitCents),
  amount: usdCents(quantity * unitCents),
});

/**
 * Label lines that add up: one line per label price (quantity × unit_amount =
 * amount exactly), never an averaged unit price. Labels recorded without the
 * per-price breakdown (states saved before it) are split into at most two
 * lines whose unit prices differ by a cent and still multiply exactly.
 */
export function labelLines(usage: Usage): InvoiceLine[] {
  const out: InvoiceLine[] = [];
  let count = 0;
  let cents = 0;
  const byPrice = Object.entries(usage.label_amounts ?? {}).map(([amount, n]) => [centsOfKey(amount), n] as const);
  for (const [amount, n] of byPrice.sort((a, b) => a[0] - b[0])) {
    if (n <= 0) continue;
    out.push(line("label", `Shipping labels at ${usdCents(amount)} USD`, n, amount));
    count += n;
    cents += n * amount;
  }
  // Labels voided after their month was invoiced: a credit line per price (negative unit and amount).
  const voids = Object.entries(usage.label_voids ?? {}).map(([amount, n]) => [centsOfKey(amount), n] as const);
  for (const [amount, n] of voids.sort((a, b) => a[0] - b[0]))
    if (n > 0) out.push(line("label", `Voided shipping labels credited at ${usdCents(amount)} USD`, n, -amount));
  const restCount = usage.labels - count;
  const restCents = usage.label_amount_cents - cents;
  if (restCount > 0 && restCents >= 0) {
    const unit = Math.floor(restCents / restCount);
    const extra = restCents - unit * restCount;
    if (restCount > extra) out.push(line("label", "Shipping labels", restCount - extra, unit));
    if (extra > 0) out.push(line("label", "Shipping labels", extra, unit + 1));
  }
  return out;
}

/** Closes a billing month: issues its invoice (storage, labels, inbound, withdrawals) and the month's reports. */
export function closeMonth(services: Services, t: TenantState, month: string): Invoice {
  if (!isMonth(month)) throw badRequest("invalid_value", "month must be YYYY-MM");
  // A month closes once, whatever its invoice was named (states saved before invoice codes).
  const existing = Object.values(t.invoices).find((i) => i.month === month);
  if (existing)
    throw conflict("month_closed", `Billing month ${month} is already closed`, { data: structuredClone(existing) });
  const [y, m] = month.split("-").map(Number);
  const from = Date.UTC(y, m - 1, 1);
  const to = Date.UTC(y, m, 1);
  // A month not yet begun has nothing to bill; closing it would send its usage to the month after.
  if (from > services.clock.now())
    throw badRequest(
      "invalid_value",
      `Billing month ${month} has not begun; close the current month or an earlier one`,
    );
  const invoiceId = invoiceIdOf(services, t, month);
  const usage = usageOf(t, month);
  const cards = vaultCards(t).length;
  const lines = [
    line("storage", "Vault storage (card-months)", cards, FEES_CENTS.storage_per_card),
    ...labelLines(usage),
    line("inbound", "Inbound shipments received", usage.inbound, FEES_CENTS.inbound_per_shipment),
    line("withdrawal", "Withdrawals", usage.withdrawals, FEES_CENTS.withdrawal),
  ].filter((l) => l.kind === "storage" || l.quantity > 0);
  const totalCents = lines.reduce((sum, l) => sum + toCents(l.amount), 0);
  const iso = services.clock.nowIso();
  const invoice: Invoice = {
    invoice_id: invoiceId,
    month,
    period: { from: isoOf(from), to: isoOf(to) },
    status: "ISSUED",
    currency: "USD",
    lines,
    total: usdCents(totalCents),
    issued_at: iso,
    due_at: isoOf(Date.parse(iso) + 30 * 86_400_000),
  };
  t.invoices[invoiceId] = invoice;
  for (const kind of ["monthly_statement", "inventory_snapshot"] as const) {
    const id = services.store.nextId(COUNTERS.warehouseReport);
    t.reports[String(id)] = { report_id: id, kind, month, status: "READY", card_count: cards, created_at: iso };
  }
  logActivity(
    services,
    t,
    "operator",
    "billing.month_closed",
    `Closed ${month}: invoice ${invoiceId} for ${invoice.total} USD`,
    { invoice_id: invoiceId },
  );
  return invoice;
}
