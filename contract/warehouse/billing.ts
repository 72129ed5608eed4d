import { operation } from "../operation.ts";
import { z } from "../zod.ts";
import { count, instant, int, notFound, pagedList, pathId, READ_INVENTORY, usd } from "./common.ts";

// Billing (docs/warehouse.md, "Invoices"): invoices and the reports made when
// a billing month closes, and the account summary.

export const INVOICE_LINE_KINDS = ["storage", "label", "inbound", "withdrawal"] as const;
export const REPORT_KINDS = ["monthly_statement", "inventory_snapshot"] as const;

export const InvoiceLine = z.object({
  kind: z.enum(INVOICE_LINE_KINDS),
  description: z.string(),
  quantity: count,
  unit_amount: usd,
  amount: usd,
});
export type InvoiceLine = z.output<typeof InvoiceLine>;

export const Invoice = z.object({
  invoice_id: z.string(),
  month: z.string(),
  period: z.object({ from: instant, to: instant }),
  status: z.enum(["ISSUED", "PAID"]),
  currency: z.literal("USD"),
  lines: z.array(InvoiceLine),
  total: usd,
  issued_at: instant,
  due_at: instant,
});
export type Invoice = z.output<typeof Invoice>;

export const Report = z.object({
  report_id: int,
  kind: z.enum(REPORT_KINDS),
  month: z.string(),
  status: z.literal("READY"),
  card_count: count,
  created_at: instant,
});
export type Report = z.output<typeof Report>;

/** The tenant's account: what it holds and its open exceptions. */
export const WarehouseAccount = z.object({
  account_id: z.string(),
  name: z.string(),
  status: z.literal("active"),
  unique_id_prefix: z.string(),
  created_at: instant,
  sites: z.array(z.string()),
  inventory: z.object({ cards: count, raw: count, graded: count, pending_identity: count }),
  open_exceptions: count,
  currency: z.literal("USD"),
});
export type WarehouseAccount = z.output<typeof WarehouseAccount>;

export const WAREHOUSE_BILLING = {
  invoices: operation({
    id: "warehouse.invoices.list",
    method: "GET",
    path: "/invoices",
    summary: "The tenant's invoices, newest month first",
    ...READ_INVENTORY,
    schema: pagedList("invoices", Invoice, "Invoices, newest month first"),
  }),
  invoice: operation({
    id: "warehouse.invoices.get",
    method: "GET",
    path: "/invoices/:invoice_id",
    summary: "One invoice",
    ...READ_INVENTORY,
    schema: {
      params: pathId("invoice_id", "invoice"),
      responses: { 200: { description: "The invoice", data: Invoice }, 404: notFound("invoice") },
    },
  }),
  account: operation({
    id: "warehouse.account.get",
    method: "GET",
    path: "/account",
    summary: "The tenant's account: what it holds and its open exceptions",
    ...READ_INVENTORY,
    schema: {
      responses: {
        200: { description: "The tenant's account: what it holds and its open exceptions", data: WarehouseAccount },
      },
    },
  }),
  reports: operation({
    id: "warehouse.reports.list",
    method: "GET",
    path: "/reports",
    summary: "Reports made when billing months closed, newest first",
    ...READ_INVENTORY,
    schema: pagedList("reports", Report, "Reports, newest first"),
  }),
  report: operation({
    id: "warehouse.reports.get",
    method: "GET",
    path: "/reports/:report_id",
    summary: "One report",
    ...READ_INVENTORY,
    schema: {
      params: pathId("report_id", "report"),
      responses: { 200: { description: "The report", data: Report }, 404: notFound("report") },
    },
  }),
};
