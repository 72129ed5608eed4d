import { created, ok, type RouteSpec } from "../../pipeline/route.ts";
import { idempotentCreate, intParam, keyOf, list, read, scoped, tenant, write } from "./http.ts";
import { accountSummary, findInvoice, findReport, integrationStatus, requestServiceCredit, slaMetrics, submitDeclaredValue } from "./billing.ts";
import { findException } from "./operator.ts";
import { shownActor } from "./state.ts";
import type { Activity, DeclaredValueRecord, Invoice, Report, ServiceCredit, WarehouseException } from "./model.ts";
import { SCHEMAS, type ActivityWire, type DeclaredValueWire, type ExceptionWire, type InvoiceWire, type ReportWire, type ServiceCreditWire } from "./schemas.ts";

// Routes for declared values, invoices, the account, reports, exceptions, SLA
// metrics, service credits, the activity log and the integration status
// (rules in billing.ts; exceptions in operator.ts).

const READ = scoped("read:inventory");

// Records as the API shows them (copies: the stored records stay the store's).
const declaredValueWire = (r: DeclaredValueRecord): DeclaredValueWire => structuredClone(r);
const invoiceWire = (r: Invoice): InvoiceWire => structuredClone(r);
const reportWire = (r: Report): ReportWire => structuredClone(r);
const exceptionWire = (r: WarehouseException): ExceptionWire => structuredClone(r);
const serviceCreditWire = (r: ServiceCredit): ServiceCreditWire => structuredClone(r);
// Masked again on the way out: a state saved before keys were masked may hold one in full.
const activityWire = (r: Activity): ActivityWire => ({ ...structuredClone(r), actor: shownActor(r.actor), actor_label: r.actor_label ?? null });

export const billingRoutes: RouteSpec[] = [
  read("/declared-values", READ, SCHEMAS.declaredValues, (c) => {
    const { unique_id: uid, ...page } = c.input.query;
    const rows = tenant(c).declared_values.filter((d) => !uid || d.unique_id === uid);
    return list("declared_values", [...rows].reverse(), page, declaredValueWire);
  }),
  write("POST", "/declared-values", scoped("write:declared_value"), SCHEMAS.declareValue, (c) => {
    const { idempotency_key, unique_id, amount } = c.input.body;
    return idempotentCreate(c, "declared-value", idempotency_key, () => created(declaredValueWire(submitDeclaredValue(c.services, tenant(c), keyOf(c), { unique_id, amount }))));
  }),

  read("/invoices", READ, SCHEMAS.invoices, (c) => list("invoices", Object.values(tenant(c).invoices).sort((a, b) => b.month.localeCompare(a.month)), c.input.query, invoiceWire)),
  read("/invoices/:invoice_id", READ, SCHEMAS.invoice, (c) => ok(invoiceWire(findInvoice(tenant(c), c.input.params.invoice_id)))),

  read("/account", READ, SCHEMAS.account, (c) => ok(accountSummary(tenant(c)))),

  read("/reports", READ, SCHEMAS.reports, (c) => list("reports", Object.values(tenant(c).reports).sort((a, b) => b.report_id - a.report_id), c.input.query, reportWire)),
  read("/reports/:report_id", READ, SCHEMAS.report, (c) => ok(reportWire(findReport(tenant(c), intParam(c.input.params.report_id, "report_id", "report"))))),

  read("/exceptions", READ, SCHEMAS.exceptions, (c) => {
    const { status, ...page } = c.input.query;
    const rows = Object.values(tenant(c).exceptions).filter((e) => !status || e.status === status).sort((a, b) => b.exception_id - a.exception_id);
    return list("exceptions", rows, page, exceptionWire);
  }),
  read("/exceptions/:exception_id", READ, SCHEMAS.exception, (c) => ok(exceptionWire(findException(tenant(c), intParam(c.input.params.exception_id, "exception_id", "exception"))))),

  read("/sla", READ, SCHEMAS.sla, (c) => ok(slaMetrics(tenant(c), c.input.query.month ?? c.services.clock.nowIso().slice(0, 7), c.services.clock.now()))),

  read("/service-credits", READ, SCHEMAS.serviceCredits, (c) => list("service_credits", Object.values(tenant(c).service_credits).sort((a, b) => b.service_credit_id - a.service_credit_id), c.input.query, serviceCreditWire)),
  write("POST", "/service-credits", scoped("write:service_credit"), SCHEMAS.requestServiceCredit, (c) => {
    const { idempotency_key, reason, amount, order_id } = c.input.body;
    return idempotentCreate(c, "service-credit", idempotency_key, () =>
      created(serviceCreditWire(requestServiceCredit(c.services, tenant(c), keyOf(c), { reason, amount: amount ?? null, order_id: order_id ?? null }))),
    );
  }),

  read("/activity", READ, SCHEMAS.activity, (c) => {
    const { kind, ...page } = c.input.query;
    return list("activity", tenant(c).activity.filter((a) => !kind || a.kind === kind).reverse(), page, activityWire);
  }),

  read("/integration-status", READ, SCHEMAS.integrationStatus, (c) => ok(integrationStatus(tenant(c)))),
];
