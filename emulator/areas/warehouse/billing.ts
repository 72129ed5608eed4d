import { ApiError, badRequest, notFound } from "../../pipeline/errors.ts";
import { created, ok, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import { SITES } from "../../../fixtures/warehouse/index.ts";
import { own } from "../../state/own.ts";
import type { DeclaredValueRecord, Order, ServiceCredit, TenantState } from "./model.ts";
import { custodyCards } from "./format.ts";
import { cents, idempotentCreate, intParam, keyOf, list, queryId, read, reqId, reqStr, scoped, statusFilter, tenant, write } from "./http.ts";
import { findCard } from "./inventory.ts";
import { findOrder } from "./orders.ts";
import { logActivity, touch } from "./state.ts";

// Declared values, invoices, the account, reports, exceptions, SLA metrics,
// service credits, the activity log and the integration status.

const READ = scoped("read:inventory");

/** An order missed its SLA: shipped after sla_due_at, or still unshipped past it. */
export function missedSla(o: Order, now: number): boolean {
  if (!o.sla_due_at) return false;
  const due = Date.parse(o.sla_due_at);
  if (o.shipped_at) return Date.parse(o.shipped_at) > due;
  return o.status === "LABEL_PURCHASED" && now > due;
}

function monthParam(c: HandlerContext): string {
  const m = c.query.get("month") ?? c.services.clock.nowIso().slice(0, 7);
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(m)) throw badRequest("invalid_month", "month must be YYYY-MM");
  return m;
}

function slaMetrics(t: TenantState, month: string, now: number) {
  const orders = Object.values(t.orders).filter((o) => o.sla_due_at && o.committed_at?.startsWith(month));
  const shipped = orders.filter((o) => o.shipped_at);
  const late = orders.filter((o) => missedSla(o, now));
  const onTime = shipped.filter((o) => !missedSla(o, now));
  const hours = shipped.map((o) => (Date.parse(o.shipped_at as string) - Date.parse(o.committed_at as string)) / 3_600_000);
  return {
    month,
    target_on_time_rate: "0.9900",
    orders_committed: orders.length,
    orders_shipped: shipped.length,
    shipped_on_time: onTime.length,
    missed_sla: late.length,
    on_time_rate: shipped.length || late.length ? (onTime.length / (shipped.length + late.filter((o) => !o.shipped_at).length)).toFixed(4) : null,
    average_handling_hours: hours.length ? (hours.reduce((a, b) => a + b, 0) / hours.length).toFixed(2) : null,
    late_order_ids: late.map((o) => o.order_id),
  };
}

export const billingRoutes: RouteSpec[] = [
  read("/declared-values", READ, (c) => {
    const uid = queryId(c, "unique_id");
    const rows = tenant(c).declared_values.filter((d) => !uid || d.unique_id === uid);
    return list(c, "declared_values", [...rows].reverse());
  }),
  write("POST", "/declared-values", scoped("write:declared_value"), async (c) => {
    const b = await c.object();
    return idempotentCreate(c, "declared-value", b, () => {
      const uid = reqId(b, "unique_id", "invalid_unique_ids");
      const amount = cents(b, "amount", true) as number;
      if (b.currency !== undefined && b.currency !== "USD") throw badRequest("invalid_amount", "amount is in USD cents; currency, when sent, must be USD");
      const t = tenant(c);
      const card = findCard(t, uid);
      if (card.status !== "AVAILABLE" && card.status !== "RESERVED")
        throw new ApiError(409, "not_eligible", `Card ${uid} is ${card.status}; declared values apply to cards in the vault`, {
          data: { unique_id: uid, status: card.status, location: card.location },
          human: "The card is not in the vault",
        });
      // The interface's combinations: only a pending identity shows the tenant's value; a published card shows null
      // (unpriced) or the service's value (priced), so a tenant value there would never be shown, or would break the rule.
      if (card.identity.status !== "unconfirmed")
        throw new ApiError(409, "not_eligible", `Card ${uid} has a published identity (pricing ${card.pricing.status}); declared values apply to cards pending identity, and published cards carry the service's value`, {
          data: { unique_id: uid, identity: { ...card.identity }, pricing: { ...card.pricing }, declared_value: card.declared_value ? { ...card.declared_value } : null },
          human: "Declared values apply to cards pending identity",
        });
      const iso = c.services.clock.nowIso();
      const rec: DeclaredValueRecord = { declared_value_id: c.services.store.nextId("warehouse.declared_value", 1), unique_id: uid, amount, currency: "USD", source: "tenant", created_at: iso };
      t.declared_values.push(rec);
      card.declared_value = { amount, source: "tenant" };
      touch(t, card, iso);
      logActivity(c.services, t, keyOf(c).key, "declared_value.submitted", `Declared ${uid} at ${amount} cents`, { unique_id: uid });
      return created({ ...rec });
    });
  }),

  read("/invoices", READ, (c) => list(c, "invoices", Object.values(tenant(c).invoices).sort((a, b) => b.month.localeCompare(a.month)))),
  read("/invoices/:invoice_id", READ, (c) => {
    const inv = own(tenant(c).invoices, c.params.invoice_id);
    if (!inv) throw notFound(`No invoice ${c.params.invoice_id}`);
    return ok(inv);
  }),

  read("/account", READ, (c) => {
    const t = tenant(c);
    const cards = custodyCards(t);
    return ok({
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
    });
  }),

  read("/reports", READ, (c) => list(c, "reports", Object.values(tenant(c).reports).sort((a, b) => b.report_id - a.report_id))),
  read("/reports/:report_id", READ, (c) => {
    const r = own(tenant(c).reports, String(intParam(c, "report_id", "report")));
    if (!r) throw notFound(`No report ${c.params.report_id}`);
    return ok(r);
  }),

  read("/exceptions", READ, (c) => {
    const status = statusFilter(c, ["OPEN", "RESOLVED"]);
    return list(c, "exceptions", Object.values(tenant(c).exceptions).filter((e) => !status || e.status === status).sort((a, b) => b.exception_id - a.exception_id));
  }),
  read("/exceptions/:exception_id", READ, (c) => {
    const e = own(tenant(c).exceptions, String(intParam(c, "exception_id", "exception")));
    if (!e) throw notFound(`No exception ${c.params.exception_id}`);
    return ok(e);
  }),

  read("/sla", READ, (c) => ok(slaMetrics(tenant(c), monthParam(c), c.services.clock.now()))),

  read("/service-credits", READ, (c) => list(c, "service_credits", Object.values(tenant(c).service_credits).sort((a, b) => b.service_credit_id - a.service_credit_id))),
  write("POST", "/service-credits", scoped("write:service_credit"), async (c) => {
    const b = await c.object();
    return idempotentCreate(c, "service-credit", b, () => {
      const reason = reqStr(b, "reason", "invalid_reason", 2000);
      const amount = cents(b, "amount", false) ?? null;
      if (b.order_id !== undefined && b.order_id !== null && (typeof b.order_id !== "number" || !Number.isSafeInteger(b.order_id)))
        throw badRequest("invalid_order_id", "order_id must be an integer");
      const t = tenant(c);
      const order = typeof b.order_id === "number" ? findOrder(t, b.order_id) : null;
      if (order) {
        const existing = Object.values(t.service_credits).find((s) => s.order_id === order.order_id);
        if (existing)
          throw new ApiError(409, "service_credit_exists", `Order ${order.order_id} already has service credit request ${existing.service_credit_id}`, {
            data: { ...existing },
            human: "A service credit was already requested for this order",
          });
      }
      const late = order !== null && missedSla(order, c.services.clock.now());
      const sc: ServiceCredit = {
        service_credit_id: c.services.store.nextId("warehouse.service_credit", 1),
        status: late ? "APPROVED" : "UNDER_REVIEW",
        reason,
        order_id: order?.order_id ?? null,
        amount: amount ?? (late && order?.amount ? Math.round(Number(order.amount) * 100) : null),
        decision: late ? "sla_missed: the order shipped after its sla_due_at" : "under_review: no missed SLA on record; an operator will review it",
        created_at: c.services.clock.nowIso(),
      };
      t.service_credits[String(sc.service_credit_id)] = sc;
      logActivity(c.services, t, keyOf(c).key, "service_credit.requested", `Service credit ${sc.service_credit_id} ${sc.status}`, { service_credit_id: sc.service_credit_id });
      return created({ ...sc });
    });
  }),

  read("/activity", READ, (c) => {
    const kind = c.query.get("kind");
    return list(c, "activity", tenant(c).activity.filter((a) => !kind || a.kind === kind).reverse());
  }),

  read("/integration-status", READ, (c) => {
    const issues = tenant(c).issues.filter((i) => i.status === "OPEN");
    return ok({ status: issues.length ? "degraded" : "ok", open_issues: issues.length, issues: structuredClone(issues) });
  }),
];
