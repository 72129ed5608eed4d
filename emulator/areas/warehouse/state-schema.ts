import { z } from "zod";
import {
  CANCEL_REASONS,
  CARD_LOCATIONS,
  CARD_STATUSES,
  CARRIERS,
  EXCEPTION_KINDS,
  INBOUND_STATUSES,
  ORDER_STATUSES,
  ShippingAddress,
} from "../../../contract/index.ts";
import { count, isoTime, month, ownRecord, safeInt, timeMs } from "../../state/fields.ts";
import type { WarehouseState } from "./model.ts";

// The warehouse slice's records in full (model.ts), what an import is held to:
// every later read of any tenant can rely on each field (issue 37: a tenant
// `{}`, `cards: null` or a card without identity once broke every warehouse
// read, for every tenant).

/** A USD decimal string with at most two decimals ("12.50", "-3"), what `toCents` reads. */
const usdText = z.string().regex(/^-?\d{1,13}(\.\d{1,2})?$/, "must be a USD amount with at most two decimals");
/** Integer cents written as text, the key of a count table (`centsOfKey`). */
const centsKey = { pattern: /^-?\d{1,13}$/, what: "integer cents" };
const cents = safeInt;
const address = ShippingAddress.strict();
const text = z.string();
const nullableText = text.nullable();
const ids = z.array(text);

const card = z.strictObject({
  unique_id: text,
  type: z.enum(["raw", "graded"]),
  identity: z.strictObject({
    status: z.enum(["unconfirmed", "confirmed"]),
    card_id: nullableText,
    name: nullableText,
    game: nullableText,
  }),
  pricing: z.strictObject({ status: z.enum(["unverified", "unpriced", "priced"]), market_price: usdText.nullable() }),
  insured_price: usdText.nullable(),
  declared_value: z.strictObject({ amount: cents, source: z.enum(["tenant", "service"]) }).nullable(),
  grading: z.strictObject({ company: text, grade: text, cert_number: text }).nullable(),
  location: z.enum(CARD_LOCATIONS),
  status: z.enum(CARD_STATUSES),
  site_id: text,
  held_by: nullableText,
  received_at: isoTime,
  updated_at: isoTime,
  rev: count,
});

const invoice = z.strictObject({
  invoice_id: text,
  month,
  period: z.strictObject({ from: isoTime, to: isoTime }),
  status: z.enum(["ISSUED", "PAID"]),
  currency: z.literal("USD"),
  lines: z.array(
    z.strictObject({
      kind: z.enum(["storage", "label", "inbound", "withdrawal"]),
      description: text,
      quantity: safeInt,
      unit_amount: usdText,
      amount: usdText,
    }),
  ),
  total: usdText,
  issued_at: isoTime,
  due_at: isoTime,
});

const rate = z.strictObject({
  rate_id: text,
  carrier: z.enum(CARRIERS),
  service: text,
  service_token: text,
  amount: usdText,
  currency: z.literal("USD"),
  estimated_days: count,
});

const order = z.strictObject({
  order_id: count,
  status: z.enum(ORDER_STATUSES),
  unique_ids: ids,
  address,
  rates: z.array(rate),
  quoted_at: isoTime,
  quote_expires_at: isoTime,
  quoted_by: text,
  superseded_by: count.nullable(),
  cancel_reason: z.enum(CANCEL_REASONS).nullable(),
  rate_id: nullableText,
  carrier: nullableText,
  service: nullableText,
  amount: usdText.nullable(),
  tracking_number: nullableText,
  tracking_status: nullableText,
  label_url: nullableText,
  ship_by_at: isoTime.nullable(),
  sla_due_at: isoTime.nullable(),
  committed_at: isoTime.nullable(),
  label_purchased_at: isoTime.nullable(),
  shipped_at: isoTime.nullable(),
  delivered_at: isoTime.nullable(),
  returned_at: isoTime.nullable(),
  cancelled_at: isoTime.nullable(),
  awaiting_scan: ids,
  attempts: count,
  last_error: z.strictObject({ code: text, message: text, at: isoTime }).nullable(),
  label_billed_month: month.optional(),
  due_at_ms: timeMs.nullable(),
  created_at: isoTime,
  updated_at: isoTime,
});

const withdrawal = z.strictObject({
  withdrawal_id: count,
  status: z.enum(["REQUESTED", "COMPLETED"]),
  unique_ids: ids,
  method: z.enum(["pickup", "ship"]),
  address: address.nullable(),
  notes: nullableText,
  created_at: isoTime,
  completed_at: isoTime.nullable(),
});

const transfer = z.strictObject({
  transfer_id: count,
  unique_id: text,
  from_account: text,
  to_account: text,
  status: z.literal("COMPLETED"),
  note: nullableText,
  created_at: isoTime,
});

const inbound = z.strictObject({
  inbound_shipment_id: count,
  submission_key: nullableText,
  status: z.enum(INBOUND_STATUSES),
  site_id: text,
  carrier: nullableText,
  tracking_number: nullableText,
  expected_card_count: count,
  declared_value_per_card: cents.nullable(),
  notes: nullableText,
  attachments: z.array(
    z.strictObject({
      attachment_id: count,
      filename: text,
      content_type: text,
      size_bytes: count.nullable(),
      created_at: isoTime,
    }),
  ),
  received_unique_ids: ids,
  created_at: isoTime,
  updated_at: isoTime,
  received_at: isoTime.nullable(),
  cancelled_at: isoTime.nullable(),
});

const tenant = z.strictObject({
  account_id: text,
  name: text,
  prefix: text,
  invoice_code: text.optional(),
  created_at: isoTime,
  rev: count,
  cards: ownRecord(card),
  orders: ownRecord(order),
  withdrawals: ownRecord(withdrawal),
  transfers: ownRecord(transfer),
  inbound: ownRecord(inbound),
  declared_values: z.array(
    z.strictObject({
      declared_value_id: count,
      unique_id: text,
      amount: cents,
      currency: z.literal("USD"),
      source: z.literal("tenant"),
      created_at: isoTime,
    }),
  ),
  invoices: ownRecord(invoice),
  reports: ownRecord(
    z.strictObject({
      report_id: count,
      kind: z.enum(["monthly_statement", "inventory_snapshot"]),
      month,
      status: z.literal("READY"),
      card_count: count,
      created_at: isoTime,
    }),
  ),
  exceptions: ownRecord(
    z.strictObject({
      exception_id: count,
      kind: z.enum(EXCEPTION_KINDS),
      status: z.enum(["OPEN", "RESOLVED"]),
      message: text,
      unique_id: nullableText,
      order_id: count.nullable(),
      inbound_shipment_id: count.nullable(),
      created_at: isoTime,
      resolved_at: isoTime.nullable(),
    }),
  ),
  service_credits: ownRecord(
    z.strictObject({
      service_credit_id: count,
      status: z.enum(["APPROVED", "UNDER_REVIEW"]),
      reason: text,
      order_id: count.nullable(),
      amount: cents.nullable(),
      decision: text,
      created_at: isoTime,
    }),
  ),
  activity: z.array(
    z.strictObject({
      activity_id: count,
      at: isoTime,
      kind: text,
      actor: text,
      actor_label: nullableText.optional(),
      summary: text,
      refs: ownRecord(z.union([text, safeInt])),
    }),
  ),
  issues: z.array(
    z.strictObject({
      issue_id: count,
      kind: z.literal("internal_error"),
      status: z.literal("OPEN"),
      method: text,
      path: text,
      message: text,
      opened_at: isoTime,
    }),
  ),
  fail_next_labels: count,
  usage: ownRecord(
    z.strictObject({
      labels: count,
      label_amount_cents: cents,
      label_amounts: ownRecord(count, centsKey).optional(),
      label_voids: ownRecord(count, centsKey).optional(),
      inbound: count,
      withdrawals: count,
    }),
    { pattern: /^\d{4}-(0[1-9]|1[0-2])$/, what: "months YYYY-MM" },
  ),
});

export const warehouseSchema: z.ZodType<WarehouseState> = z.strictObject({ tenants: ownRecord(tenant) });
