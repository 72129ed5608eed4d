// The warehouse area's records, as plain JSON (they live in the store, so
// snapshot/restore/export come for free). Field names are the wire names.

export * from "../../state/warehouse-records.ts";
import type { CardRow, Invoice } from "../../state/warehouse-records.ts";

export type { ShippingAddress as Address } from "../../shipping/address.ts";
import type { ShippingAddress as Address } from "../../shipping/address.ts";
import type { Carrier } from "../../shipping/carriers.ts";
import { CARD_TYPES, EXCEPTION_KINDS, INBOUND_STATUSES, ORDER_STATUSES } from "../../../contract/index.ts";
import type {
  CancelReason,
  CardTypeFilter,
  ExceptionKind,
  InboundStatus,
  OrderStatus,
} from "../../../contract/index.ts";

// The wire's enums are the contract's (contract/warehouse/).
export {
  CARD_TYPES,
  EXCEPTION_KINDS,
  INBOUND_STATUSES,
  ORDER_STATUSES,
  type CardTypeFilter,
  type ExceptionKind,
  type InboundStatus,
  type OrderStatus,
};

export interface Rate {
  rate_id: string;
  carrier: Carrier;
  service: string;
  service_token: string;
  amount: string;
  currency: "USD";
  estimated_days: number;
}

export interface Order {
  order_id: number;
  status: OrderStatus;
  unique_ids: string[];
  address: Address;
  rates: Rate[];
  quoted_at: string;
  quote_expires_at: string;
  /** Key that quoted it: re-quoting supersedes every uncommitted quote of this caller. */
  quoted_by: string;
  superseded_by: number | null;
  cancel_reason: CancelReason | null;
  rate_id: string | null;
  carrier: string | null;
  service: string | null;
  amount: string | null;
  tracking_number: string | null;
  tracking_status: string | null;
  label_url: string | null;
  ship_by_at: string | null;
  sla_due_at: string | null;
  committed_at: string | null;
  label_purchased_at: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  returned_at: string | null;
  cancelled_at: string | null;
  /** Cards of a RETURNED order not yet scanned back into inventory. */
  awaiting_scan: string[];
  attempts: number;
  last_error: { code: string; message: string; at: string } | null;
  /** The billing month its label was billed in (internal; absent in states saved before it). */
  label_billed_month?: string;
  /** Label purchase in flight: due time and attempt number (the timer re-checks both). */
  /** LABEL_PURCHASING: when the label purchase finishes (virtual-clock ms; contract/lifecycles/warehouse-order.ts). */
  due_at_ms: number | null;
  created_at: string;
  updated_at: string;
}

export interface Withdrawal {
  withdrawal_id: number;
  status: "REQUESTED" | "COMPLETED";
  unique_ids: string[];
  method: "pickup" | "ship";
  address: Address | null;
  notes: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface CardTransfer {
  transfer_id: number;
  unique_id: string;
  from_account: string;
  to_account: string;
  status: "COMPLETED";
  note: string | null;
  created_at: string;
}

export interface Attachment {
  attachment_id: number;
  filename: string;
  content_type: string;
  size_bytes: number | null;
  created_at: string;
}

export interface InboundShipment {
  inbound_shipment_id: number;
  submission_key: string | null;
  status: InboundStatus;
  site_id: string;
  carrier: string | null;
  tracking_number: string | null;
  expected_card_count: number;
  /**
   * Tenant-declared value per card (USD cents), carried by the received cards
   * while their identity is pending. Required when announcing; null only in
   * states saved before it was.
   */
  declared_value_per_card: number | null;
  notes: string | null;
  attachments: Attachment[];
  received_unique_ids: string[];
  created_at: string;
  updated_at: string;
  received_at: string | null;
  cancelled_at: string | null;
}

export interface DeclaredValueRecord {
  declared_value_id: number;
  unique_id: string;
  amount: number;
  currency: "USD";
  source: "tenant";
  created_at: string;
}

export interface Report {
  report_id: number;
  kind: "monthly_statement" | "inventory_snapshot";
  month: string;
  status: "READY";
  card_count: number;
  created_at: string;
}

export interface WarehouseException {
  exception_id: number;
  kind: ExceptionKind;
  status: "OPEN" | "RESOLVED";
  message: string;
  unique_id: string | null;
  order_id: number | null;
  inbound_shipment_id: number | null;
  created_at: string;
  resolved_at: string | null;
}

export interface ServiceCredit {
  service_credit_id: number;
  status: "APPROVED" | "UNDER_REVIEW";
  reason: string;
  order_id: number | null;
  /** USD cents requested. */
  amount: number | null;
  decision: string;
  created_at: string;
}

export interface Activity {
  activity_id: number;
  at: string;
  kind: string;
  /** `operator`, `carrier`, or the calling key masked (`rip_v1_abcd…`): never a key in full. */
  actor: string;
  /** The calling key's label (null for operator and carrier; absent in states saved before it). */
  actor_label?: string | null;
  summary: string;
  refs: Record<string, string | number>;
}

export interface IntegrationIssue {
  issue_id: number;
  kind: "internal_error";
  status: "OPEN";
  method: string;
  path: string;
  message: string;
  opened_at: string;
}

export interface Usage {
  labels: number;
  label_amount_cents: number;
  /** Labels bought per price (USD cents → count); absent in states saved before it existed. */
  label_amounts?: Record<string, number>;
  /** Voided labels whose month was already invoiced, per price (USD cents → count): credited on this month's invoice. */
  label_voids?: Record<string, number>;
  inbound: number;
  withdrawals: number;
}

/** One tenant account's warehouse. */
export interface TenantState {
  account_id: string;
  name: string;
  prefix: string;
  /** Names its invoices, unique across tenants (absent in states saved before it: made on first use). */
  invoice_code?: string;
  created_at: string;
  rev: number;
  cards: Record<string, CardRow>;
  orders: Record<string, Order>;
  withdrawals: Record<string, Withdrawal>;
  transfers: Record<string, CardTransfer>;
  inbound: Record<string, InboundShipment>;
  declared_values: DeclaredValueRecord[];
  invoices: Record<string, Invoice>;
  reports: Record<string, Report>;
  exceptions: Record<string, WarehouseException>;
  service_credits: Record<string, ServiceCredit>;
  activity: Activity[];
  issues: IntegrationIssue[];
  /** Control-plane armed label failures: the next N label purchases fail. */
  fail_next_labels: number;
  /** Billed label and inbound counts per `YYYY-MM`, for month close. */
  usage: Record<string, Usage>;
}

export interface WarehouseState {
  tenants: Record<string, TenantState>;
}
