import type { Services } from "../../pipeline/services.ts";
import { ApiError, notFound } from "../../pipeline/errors.ts";
import { SITES } from "../../../contract/index.ts";
import { own } from "../../state/own.ts";
import type { DeclaredValueRecord, Invoice, Order, Report, ServiceCredit, TenantState } from "./model.ts";
import { vaultCards } from "./format.ts";
import { findCard } from "./inventory.ts";
import { findOrder } from "./orders.ts";
import { labelBilledCents } from "./label-billing.ts";
import { type Actor, logActivity, touch } from "./state.ts";
import type {
  IntegrationStatus as IntegrationStatusWire,
  Sla as SlaWire,
  WarehouseAccount as AccountWire,
} from "../../../contract/index.ts";
import { COUNTERS } from "../../state/ids.ts";

// Billing rules: declared values, invoices and reports, the account summary,
// SLA metrics, service credits and the integration status. Closing a month
// (the invoice) is an operator action in operator.ts. Routes: billing-routes.ts.

export interface DeclaredValueInput {
  unique_id: string;
  /** USD cents. */
  amount: number;
}

export interface ServiceCreditInput {
  reason: string;
  /** USD cents; null: the order's label amount when the SLA was missed. */
  amount: number | null;
  order_id: number | null;
}

/**
 * An order missed its SLA: shipped after sla_due_at, or still unshipped past
 * it. A later transition never erases a miss: an order cancelled after its
 * deadline had missed it already (cancelled before it, it never missed).
 */
export function missedSla(o: Order, now: number): boolean {
  if (!o.sla_due_at) return false;
  const due = Date.parse(o.sla_due_at);
  const settled = o.shipped_at ?? o.cancelled_at;
  return (settled ? Date.parse(settled) : now) > due;
}

export function slaMetrics(t: TenantState, month: string, now: number): SlaWire {
  const orders = Object.values(t.orders).filter((o) => o.sla_due_at && o.committed_at?.startsWith(month));
  const shipped = orders.filter((o) => o.shipped_at);
  const late = orders.filter((o) => missedSla(o, now));
  const onTime = shipped.filter((o) => !missedSla(o, now));
  const hours = shipped.map(
    (o) => (Date.parse(o.shipped_at as string) - Date.parse(o.committed_at as string)) / 3_600_000,
  );
  return {
    month,
    target_on_time_rate: "0.9900",
    orders_committed: orders.length,
    orders_shipped: shipped.length,
    shipped_on_time: onTime.length,
    missed_sla: late.length,
    on_time_rate:
      shipped.length || late.length
        ? (onTime.length / (shipped.length + late.filter((o) => !o.shipped_at).length)).toFixed(4)
        : null,
    average_handling_hours: hours.length ? (hours.reduce((a, b) => a + b, 0) / hours.length).toFixed(2) : null,
    late_order_ids: late.map((o) => o.order_id),
  };
}

/** The tenant declares a value for a card pending identity (published cards carry the service's value). */
export function submitDeclaredValue(
  services: Services,
  t: TenantState,
  actor: Actor,
  input: DeclaredValueInput,
): DeclaredValueRecord {
  const { unique_id: uid, amount } = input;
  const card = findCard(t, uid);
  if (card.status !== "AVAILABLE" && card.status !== "RESERVED")
    throw new ApiError(
      409,
      "not_eligible",
      `Card ${uid} is ${card.status}; declared values apply to cards in the vault`,
      {
        data: { unique_id: uid, status: card.status, location: card.location },
        human: "The card is not in the vault",
      },
    );
  // The interface's combinations: only a pending identity shows the tenant's value; a published card shows null
  // (unpriced) or the service's value (priced), so a tenant value there would never be shown, or would break the rule.
  if (card.identity.status !== "unconfirmed")
    throw new ApiError(
      409,
      "not_eligible",
      `Card ${uid} has a published identity (pricing ${card.pricing.status}); declared values apply to cards pending identity, and published cards carry the service's value`,
      {
        data: {
          unique_id: uid,
          identity: { ...card.identity },
          pricing: { ...card.pricing },
          declared_value: card.declared_value ? { ...card.declared_value } : null,
        },
        human: "Declared values apply to cards pending identity",
      },
    );
  const iso = services.clock.nowIso();
  const rec: DeclaredValueRecord = {
    declared_value_id: services.store.nextId(COUNTERS.warehouseDeclaredValue),
    unique_id: uid,
    amount,
    currency: "USD",
    source: "tenant",
    created_at: iso,
  };
  t.declared_values.push(rec);
  card.declared_value = { amount, source: "tenant" };
  touch(t, card, iso);
  logActivity(services, t, actor, "declared_value.submitted", `Declared ${uid} at ${amount} cents`, { unique_id: uid });
  return rec;
}

/**
 * Approved at once only for an order that missed its SLA and only up to what
 * its label is billed (the default amount); more than that, a label voided or
 * never bought, or no missed SLA, goes to an operator's review.
 */
function creditDecision(
  order: Order | null,
  asked: number | null,
  now: number,
): Pick<ServiceCredit, "status" | "amount" | "decision"> {
  if (!order || !missedSla(order, now) || order.amount === null)
    return {
      status: "UNDER_REVIEW",
      amount: asked,
      decision: "under_review: no missed SLA on record; an operator will review it",
    };
  // What the label is billed now: a voided label was never billed, so there is nothing to pay back at once.
  const labelCents = labelBilledCents(order);
  if (labelCents === 0)
    return {
      status: "UNDER_REVIEW",
      amount: asked,
      decision: `under_review: the order's label was ${order.label_purchased_at ? "voided" : "never bought"} and not billed; an operator will review it`,
    };
  if (asked !== null && asked > labelCents)
    return {
      status: "UNDER_REVIEW",
      amount: asked,
      decision: `under_review: ${asked} cents is above the order's label cost (${labelCents} cents), the most approved at once; an operator will review it`,
    };
  return {
    status: "APPROVED",
    amount: asked ?? labelCents,
    decision: "sla_missed: the order was not shipped by its sla_due_at",
  };
}

/** A service credit request (see creditDecision). One per order. */
export function requestServiceCredit(
  services: Services,
  t: TenantState,
  actor: Actor,
  input: ServiceCreditInput,
): ServiceCredit {
  const order = input.order_id !== null ? findOrder(t, input.order_id) : null;
  if (order) {
    const existing = Object.values(t.service_credits).find((s) => s.order_id === order.order_id);
    if (existing)
      throw new ApiError(
        409,
        "service_credit_exists",
        `Order ${order.order_id} already has service credit request ${existing.service_credit_id}`,
        {
          data: { ...existing },
          human: "A service credit was already requested for this order",
        },
      );
  }
  const { status, amount, decision } = creditDecision(order, input.amount, services.clock.now());
  const sc: ServiceCredit = {
    service_credit_id: services.store.nextId(COUNTERS.warehouseServiceCredit),
    status,
    reason: input.reason,
    order_id: order?.order_id ?? null,
    amount,
    decision,
    created_at: services.clock.nowIso(),
  };
  t.service_credits[String(sc.service_credit_id)] = sc;
  logActivity(services, t, actor, "service_credit.requested", `Service credit ${sc.service_credit_id} ${sc.status}`, {
    service_credit_id: sc.service_credit_id,
  });
  return sc;
}

export function findInvoice(t: TenantState, invoiceId: string): Invoice {
  const inv = own(t.invoices, invoiceId);
  if (!inv) throw notFound(`No invoice ${invoiceId}`);
  return inv;
}

export function findReport(t: TenantState, id: number): Report {
  const r = own(t.reports, String(id));
  if (!r) throw notFound(`No report ${id}`);
  return r;
}

/** The tenant's account: what it holds in the vault and its open exceptions. */
export function accountSummary(t: TenantState): AccountWire {
  const cards = vaultCards(t);
  return {
    account_id: t.account_id,
    name: t.name,
    status: "active",
    unique_id_prefix: `CARD-${t.prefix}`,
    created_at: t.created_at,
    sites: SITES.map((s) => s.site_id),
    inventory: {
      cards: cards.length,
      raw: cards.filter((x) => x.type === "raw").length,
      graded: cards.filter((x) => x.type === "graded").length,
      pending_identity: cards.filter((x) => x.identity.status === "unconfirmed").length,
    },
    open_exceptions: Object.values(t.exceptions).filter((e) => e.status === "OPEN").length,
    currency: "USD",
  };
}

/** Degraded while an integration issue (a warehouse 500) is open. */
export function integrationStatus(t: TenantState): IntegrationStatusWire {
  const issues = t.issues.filter((i) => i.status === "OPEN");
  return { status: issues.length ? "degraded" : "ok", open_issues: issues.length, issues: structuredClone(issues) };
}
