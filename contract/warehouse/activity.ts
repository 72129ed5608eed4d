import { operation } from "../operation.ts";
import { z } from "../zod.ts";
import {
  badPage,
  count,
  filteredList,
  instant,
  int,
  list,
  notFound,
  page,
  pathId,
  READ_INVENTORY,
  TENANT_ONLY,
} from "./common.ts";

// What the tenant sees of the warehouse's side (docs/warehouse.md): the
// activity log, exceptions raised on its cards and orders, open integration
// issues, and GET /info (verifies the key).

export const EXCEPTION_KINDS = ["damaged", "missing", "identity_mismatch", "address_issue", "other"] as const;
export type ExceptionKind = (typeof EXCEPTION_KINDS)[number];

export const Activity = z.object({
  activity_id: int,
  at: instant,
  kind: z.string(),
  actor: z.string().describe("`operator`, `carrier`, or the calling key masked (`rip_v1_abcd…`)"),
  actor_label: z.string().nullable().describe("The calling key's label; null for operator and carrier"),
  summary: z.string(),
  refs: z.record(z.string(), z.union([z.string(), z.number()])),
});
export type Activity = z.output<typeof Activity>;

export const WarehouseException = z.object({
  exception_id: int,
  kind: z.enum(EXCEPTION_KINDS),
  status: z.enum(["OPEN", "RESOLVED"]),
  message: z.string(),
  unique_id: z.string().nullable(),
  order_id: int.nullable(),
  inbound_shipment_id: int.nullable(),
  created_at: instant,
  resolved_at: instant.nullable(),
});
export type WarehouseException = z.output<typeof WarehouseException>;

export const IntegrationStatus = z.object({
  status: z.enum(["ok", "degraded"]),
  open_issues: count,
  issues: z.array(
    z.object({
      issue_id: int,
      kind: z.literal("internal_error"),
      status: z.literal("OPEN"),
      method: z.string(),
      path: z.string(),
      message: z.string(),
      opened_at: instant,
    }),
  ),
});
export type IntegrationStatus = z.output<typeof IntegrationStatus>;

/** GET /info: the key, its plan and rate limit, and its tenant. */
export const KeyInfo = z.object({
  key: z.object({ kind: z.literal("tenant"), label: z.string(), scopes: z.array(z.string()), created_at: instant }),
  plan: z.string(),
  rate_limit: z.object({ limit_per_min: int.positive(), window_seconds: int.positive() }),
  tenant: z.object({ account_id: z.string(), name: z.string(), unique_id_prefix: z.string() }),
});
export type KeyInfo = z.output<typeof KeyInfo>;

export const WAREHOUSE_ACTIVITY = {
  info: operation({
    id: "warehouse.info",
    method: "GET",
    path: "/info",
    summary: "Verify a tenant key: its scopes, plan, rate limit and tenant",
    ...TENANT_ONLY,
    schema: { responses: { 200: { description: "The key, its plan and rate limit, and its tenant", data: KeyInfo } } },
  }),
  activity: operation({
    id: "warehouse.activity.list",
    method: "GET",
    path: "/activity",
    summary: "The activity log: every tenant and operator action, newest first",
    ...READ_INVENTORY,
    schema: {
      query: z.object({ kind: z.string().optional().describe("Only this kind, e.g. order.committed"), ...page }),
      responses: {
        200: { description: "Every tenant and operator action, newest first", data: list("activity", Activity) },
        400: badPage,
      },
    },
  }),
  exceptions: operation({
    id: "warehouse.exceptions.list",
    method: "GET",
    path: "/exceptions",
    summary: "Exceptions raised on the tenant's cards, orders and shipments, newest first",
    ...READ_INVENTORY,
    schema: filteredList("exceptions", WarehouseException, ["OPEN", "RESOLVED"], "Exceptions, newest first"),
  }),
  exception: operation({
    id: "warehouse.exceptions.get",
    method: "GET",
    path: "/exceptions/:exception_id",
    summary: "One exception",
    ...READ_INVENTORY,
    schema: {
      params: pathId("exception_id", "exception"),
      responses: { 200: { description: "The exception", data: WarehouseException }, 404: notFound("exception") },
    },
  }),
  integrationStatus: operation({
    id: "warehouse.integrationStatus.get",
    method: "GET",
    path: "/integration-status",
    summary: "Open integration issues (every warehouse 500 opens one)",
    ...READ_INVENTORY,
    schema: {
      responses: {
        200: { description: "Degraded while an integration issue (a warehouse 500) is open", data: IntegrationStatus },
      },
    },
  }),
};
