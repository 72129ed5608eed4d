import {
  WAREHOUSE_ACTIVITY,
  WAREHOUSE_BILLING,
  WAREHOUSE_DECLARED_VALUES,
  WAREHOUSE_SLA,
  type Activity as ActivityWire,
  type DeclaredValueRecord as DeclaredValueWire,
  type Invoice as InvoiceWire,
  type Report as ReportWire,
  type ServiceCredit as ServiceCreditWire,
  type WarehouseException as ExceptionWire,
} from "../../../contract/index.ts";
import { created, ok, type RouteSpec } from "../../pipeline/route.ts";
import { idempotentCreate, intParam, keyOf, list, read, tenant, write } from "./http.ts";
import {
  accountSummary,
  findInvoice,
  findReport,
  integrationStatus,
  requestServiceCredit,
  slaMetrics,
  submitDeclaredValue,
} from "./billing.ts";
import { findException } from "./operator.ts";
import { shownActor } from "./state.ts";
import type { Activity, DeclaredValueRecord, Invoice, Report, ServiceCredit, WarehouseException } from "./model.ts";

// Routes for declared values, invoices, the account, reports, exceptions, SLA
// metrics, service credits, the activity log and the integration status
// (contract/warehouse/; rules in billing.ts; exceptions in operator.ts).

// Records as the API shows them (copies: the stored records stay the store's).
const declaredValueWire = (r: DeclaredValueRecord): DeclaredValueWire => structuredClone(r);
const invoiceWire = (r: Invoice): InvoiceWire => structuredClone(r);
const reportWire = (r: Report): ReportWire => structuredClone(r);
const exceptionWire = (r: WarehouseException): ExceptionWire => structuredClone(r);
const serviceCreditWire = (r: ServiceCredit): ServiceCreditWire => structuredClone(r);
// Masked again on the way out: a state saved before keys were masked may hold one in full.
const activityWire = (r: Activity): ActivityWire => ({
  ...structuredClone(r),
  actor: shownActor(r.actor),
  actor_label: r.actor_label ?? null,
});

export const billingRoutes: RouteSpec[] = [
  read(WAREHOUSE_DECLARED_VALUES.list, (c) => {
    const { unique_id: uid, ...page } = c.input.query;
    const rows = tenant(c).declared_values.filter((d) => !uid || d.unique_id === uid);
    return list("declared_values", [...rows].reverse(), page, declaredValueWire);
  }),
  write(WAREHOUSE_DECLARED_VALUES.create, (c) => {
    const { idempotency_key, unique_id, amount } = c.input.body;
    return idempotentCreate(c, "declared-value", idempotency_key, () =>
      created(declaredValueWire(submitDeclaredValue(c.services, tenant(c), keyOf(c), { unique_id, amount }))),
    );
  }),

  read(WAREHOUSE_BILLING.invoices, (c) =>
    list(
      "invoices",
      Object.values(tenant(c).invoices).sort((a, b) => b.month.localeCompare(a.month)),
      c.input.query,
      invoiceWire,
    ),
  ),
  read(WAREHOUSE_BILLING.invoice, (c) => ok(invoiceWire(findInvoice(tenant(c), c.input.params.invoice_id)))),

  read(WAREHOUSE_BILLING.account, (c) => ok(accountSummary(tenant(c)))),

  read(WAREHOUSE_BILLING.reports, (c) =>
    list(
      "reports",
      Object.values(tenant(c).reports).sort((a, b) => b.report_id - a.report_id),
      c.input.query,
      reportWire,
    ),
  ),
  read(WAREHOUSE_BILLING.report, (c) =>
    ok(reportWire(findReport(tenant(c), intParam(c.input.params.report_id, "report_id", "report")))),
  ),

  read(WAREHOUSE_ACTIVITY.exceptions, (c) => {
    const { status, ...page } = c.input.query;
    const rows = Object.values(tenant(c).exceptions)
      .filter((e) => !status || e.status === status)
      .sort((a, b) => b.exception_id - a.exception_id);
    return list("exceptions", rows, page, exceptionWire);
  }),
  read(WAREHOUSE_ACTIVITY.exception, (c) =>
    ok(exceptionWire(findException(tenant(c), intParam(c.input.params.exception_id, "exception_id", "exception")))),
  ),

  read(WAREHOUSE_SLA.sla, (c) =>
    ok(slaMetrics(tenant(c), c.input.query.month ?? c.services.clock.nowIso().slice(0, 7), c.services.clock.now())),
  ),

  read(WAREHOUSE_SLA.serviceCredits, (c) =>
    list(
      "service_credits",
      Object.values(tenant(c).service_credits).sort((a, b) => b.service_credit_id - a.service_credit_id),
      c.input.query,
      serviceCreditWire,
    ),
  ),
  write(WAREHOUSE_SLA.requestServiceCredit, (c) => {
    const { idempotency_key, reason, amount, order_id } = c.input.body;
    return idempotentCreate(c, "service-credit", idempotency_key, () =>
      created(
        serviceCreditWire(
          requestServiceCredit(c.services, tenant(c), keyOf(c), {
            reason,
            amount: amount ?? null,
            order_id: order_id ?? null,
          }),
        ),
      ),
    );
  }),

  read(WAREHOUSE_ACTIVITY.activity, (c) => {
    const { kind, ...page } = c.input.query;
    return list(
      "activity",
      tenant(c)
        .activity.filter((a) => !kind || a.kind === kind)
        .reverse(),
      page,
      activityWire,
    );
  }),

  read(WAREHOUSE_ACTIVITY.integrationStatus, (c) => ok(integrationStatus(tenant(c)))),
];
