import { badRequest } from "../../pipeline/errors.ts";
import { created, ok, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import { cents, idempotentCreate, intParam, keyOf, list, queryId, read, reqId, reqStr, scoped, statusFilter, tenant, write } from "./http.ts";
import { accountSummary, findInvoice, findReport, integrationStatus, requestServiceCredit, slaMetrics, submitDeclaredValue } from "./billing.ts";
import { findException } from "./operator.ts";
import { isMonth } from "./state.ts";

// Routes for declared values, invoices, the account, reports, exceptions, SLA
// metrics, service credits, the activity log and the integration status
// (rules in billing.ts; exceptions in operator.ts).

const READ = scoped("read:inventory");

function monthParam(c: HandlerContext): string {
  const m = c.query.get("month") ?? c.services.clock.nowIso().slice(0, 7);
  if (!isMonth(m)) throw badRequest("invalid_month", "month must be YYYY-MM");
  return m;
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
      return created({ ...submitDeclaredValue(c.services, tenant(c), keyOf(c).key, { unique_id: uid, amount }) });
    });
  }),

  read("/invoices", READ, (c) => list(c, "invoices", Object.values(tenant(c).invoices).sort((a, b) => b.month.localeCompare(a.month)))),
  read("/invoices/:invoice_id", READ, (c) => ok(findInvoice(tenant(c), c.params.invoice_id))),

  read("/account", READ, (c) => ok(accountSummary(tenant(c)))),

  read("/reports", READ, (c) => list(c, "reports", Object.values(tenant(c).reports).sort((a, b) => b.report_id - a.report_id))),
  read("/reports/:report_id", READ, (c) => ok(findReport(tenant(c), intParam(c, "report_id", "report")))),

  read("/exceptions", READ, (c) => {
    const status = statusFilter(c, ["OPEN", "RESOLVED"]);
    return list(c, "exceptions", Object.values(tenant(c).exceptions).filter((e) => !status || e.status === status).sort((a, b) => b.exception_id - a.exception_id));
  }),
  read("/exceptions/:exception_id", READ, (c) => ok(findException(tenant(c), intParam(c, "exception_id", "exception")))),

  read("/sla", READ, (c) => ok(slaMetrics(tenant(c), monthParam(c), c.services.clock.now()))),

  read("/service-credits", READ, (c) => list(c, "service_credits", Object.values(tenant(c).service_credits).sort((a, b) => b.service_credit_id - a.service_credit_id))),
  write("POST", "/service-credits", scoped("write:service_credit"), async (c) => {
    const b = await c.object();
    return idempotentCreate(c, "service-credit", b, () => {
      const reason = reqStr(b, "reason", "invalid_reason", 2000);
      const amount = cents(b, "amount", false) ?? null;
      if (b.order_id !== undefined && b.order_id !== null && (typeof b.order_id !== "number" || !Number.isSafeInteger(b.order_id)))
        throw badRequest("invalid_order_id", "order_id must be an integer");
      const orderId = typeof b.order_id === "number" ? b.order_id : null;
      return created({ ...requestServiceCredit(c.services, tenant(c), keyOf(c).key, { reason, amount, order_id: orderId }) });
    });
  }),

  read("/activity", READ, (c) => {
    const kind = c.query.get("kind");
    return list(c, "activity", tenant(c).activity.filter((a) => !kind || a.kind === kind).reverse());
  }),

  read("/integration-status", READ, (c) => ok(integrationStatus(tenant(c)))),
];
