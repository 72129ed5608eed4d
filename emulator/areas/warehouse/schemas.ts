import { identifier, later, withCode, z, type IssueParams, type RouteSchema } from "../../pipeline/schema.ts";
import { MAX_ID_ARRAY, MAX_PAGE_SIZE, offsetPageQuery } from "../../pipeline/pagination.ts";
import { MAX_IDEMPOTENCY_KEY } from "../../pipeline/idempotency.ts";
import { shippingAddressSchema } from "../../shipping/address.ts";
import { CARRIERS } from "../../shipping/carriers.ts";
import { SITES } from "../../../fixtures/warehouse/index.ts";
import { CARD_LOCATIONS, CARD_STATUSES, CARD_TYPES, EXCEPTION_KINDS, INBOUND_STATUSES, ORDER_STATUSES } from "./model.ts";
import { isMonth } from "./state.ts";

// What the warehouse routes take and answer (interface "Warehouse", "Raw card
// (warehouse)", "Limits"; docs/warehouse.md for what the interface does not
// show). Errors use the warehouse envelope: the machine code is in `code`.
//
// Some checks stay rules, checked by the handler after the schema: the shared
// shipping rules (address, carriers: their codes and details are theirs), and
// fields whose record's 404/409 must come first (inbound update and
// attachments, a transfer's note): those are declared `later` (documented,
// accepted as sent) and checked with checkLater once the record is found.

// ---- request pieces ----

/** An inbound shipment holds at most this many cards. */
export const MAX_CARDS = 5_000;
export const ATTACHMENT_TYPES = ["application/pdf", "image/jpeg", "image/png", "image/webp", "text/csv"];
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;
/** Sites that take inbound shipments. */
export const INBOUND_SITES = SITES.filter((s) => s.services.includes("inbound")).map((s) => s.site_id);

const given = (what: string) => (iss: { input?: unknown }) => (iss.input === undefined || iss.input === null ? `is required: ${what}` : `must be ${what}`);

/** A non-blank string, kept as sent. */
const nonBlank = () => z.string({ error: given("a non-empty string") }).refine((s) => s.trim() !== "", "must be a non-empty string");

/** A non-blank string of at most `max` characters. */
const text = (max: number) => nonBlank().max(max, `must be at most ${max} characters`);

/** A non-blank identifier (400 identifier_too_long over 255 characters). */
const idText = () => identifier(nonBlank());

/** The largest amount a tenant may declare or ask for: USD 10 million, in cents (far above any card, far below float trouble). */
export const MAX_CENTS = 1_000_000_000;

/** USD cents: a positive integer up to MAX_CENTS. */
const cents = () =>
  withCode(
    z
      .int({ error: given("a positive integer number of USD cents") })
      .positive("must be a positive integer number of USD cents")
      .max(MAX_CENTS, `must be at most ${MAX_CENTS} USD cents (USD 10,000,000)`),
    "invalid_amount",
  );

/** `idempotency_key` / `submission_key` (null: none); the Idempotency-Key header is checked by idempotency.ts. */
const idempotencyKey = (description = `Makes the write idempotent (at most ${MAX_IDEMPOTENCY_KEY} characters); the Idempotency-Key header does the same`) =>
  withCode(
    z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(MAX_IDEMPOTENCY_KEY, `is at most ${MAX_IDEMPOTENCY_KEY} characters`)
      .nullish()
      .describe(description),
    "invalid_idempotency_key",
  );

/** `unique_ids`: always an array; over 500 entries is invalid_pagination (checked first), each an identifier, no repeats. */
const uniqueIds = withCode(
  z
    .array(z.unknown(), { error: given("an array of unique_id strings (always an array, even for one card)") })
    .refine((ids) => ids.length <= MAX_ID_ARRAY, {
      error: (iss) => `has ${(iss.input as unknown[]).length} entries; at most ${MAX_ID_ARRAY} are allowed`,
      params: { code: "invalid_pagination" } satisfies IssueParams,
    })
    .pipe(
      z
        .array(identifier(z.string({ error: "every entry must be a non-empty string" }).min(1, "every entry must be a non-empty string")))
        .min(1, "must name at least one card")
        .refine((ids) => new Set(ids).size === ids.length, "must not repeat a card"),
    )
    .meta({ items: { type: "string", maxLength: 255 }, minItems: 1, maxItems: MAX_ID_ARRAY, description: "unique_id strings, always an array, no repeats" }),
  "invalid_unique_ids",
);

/** `status=` filters: one of `allowed`, any case. */
const statusQuery = (allowed: readonly [string, ...string[]]) =>
  withCode(
    z
      .string()
      .transform((s) => s.toUpperCase())
      .pipe(z.enum(allowed, { error: `must be one of ${allowed.join(", ")}` }))
      .optional()
      .describe(`One of ${allowed.join(", ")} (any case)`),
    "invalid_status",
  );

const typeQuery = withCode(
  z.enum(CARD_TYPES, { error: "must be graded or all (default: raw cards only)" }).default("raw").describe("raw (default), graded, or all"),
  "invalid_type",
);

const page = offsetPageQuery();
const pageQuery = z.object(page);

/** A path id: any string (a non-integer one names nothing: 404). */
const pathId = (name: string, what: string) => z.object({ [name]: identifier().describe(`The ${what}'s id`) });
const uniqueIdParam = z.object({ unique_id: identifier().describe("The card's unique_id") });

// ---- the `since` keyset cursor of GET /cards ----

export const CURSOR_PREFIX = "r:";

/** Opaque keyset cursor: `r:` + base64url of the keyset position. */
export const encodeCursor = (rev: number) => CURSOR_PREFIX + Buffer.from(`rev:${rev}`).toString("base64url");

function decodeCursor(raw: string): number | null {
  if (raw === "0") return 0;
  if (!raw.startsWith(CURSOR_PREFIX)) return null;
  const m = /^rev:(\d{1,15})$/.exec(Buffer.from(raw.slice(CURSOR_PREFIX.length), "base64url").toString("utf8"));
  return m ? Number(m[1]) : null;
}

const since = withCode(
  z
    .string()
    .transform((raw, ctx) => {
      const rev = decodeCursor(raw);
      if (rev !== null) return rev;
      ctx.issues.push({ code: "custom", input: raw, message: "must be 0 (a full sweep) or a next_cursor returned by GET /cards (it starts with r:)" });
      return z.NEVER;
    })
    .optional()
    .describe("0 (default) for a full sweep, or a next_cursor / resume_cursor (r:…)"),
  "invalid_cursor",
);

// ---- answers ----

const int = z.int();
const count = int.nonnegative();
const instant = z.iso.datetime();
const usd = z.string().regex(/^-?\d+\.\d{2}$/).describe("USD decimal string");
const list = <T extends z.ZodType>(name: string, row: T) => z.object({ [name]: z.array(row), total: count });

const declaredValueSchema = z.object({ amount: int.describe("USD cents"), source: z.enum(["tenant", "service"]) });

export const cardSchema = z.object({
  unique_id: z.string(),
  type: z.enum(["raw", "graded"]),
  identity: z.object({ status: z.enum(["unconfirmed", "confirmed"]), card_id: z.string().nullable(), name: z.string().nullable(), game: z.string().nullable() }),
  pricing: z.object({ status: z.enum(["unverified", "unpriced", "priced"]), market_price: usd.nullable() }),
  insured_price: usd.nullable(),
  declared_value: declaredValueSchema.nullable(),
  grading: z.object({ company: z.string(), grade: z.string(), cert_number: z.string() }).optional().describe("Graded slabs only"),
  location: z.enum(CARD_LOCATIONS),
  site_id: z.string(),
  received_at: instant,
  updated_at: instant,
});
export type CardWire = z.output<typeof cardSchema>;

/** A card of the inventory listing: with its status and what holds it. */
export const inventoryCardSchema = cardSchema.extend({ status: z.enum(CARD_STATUSES), held_by: z.string().nullable() });
export type InventoryCardWire = z.output<typeof inventoryCardSchema>;

const rateSchema = z.object({
  rate_id: z.string(),
  carrier: z.enum(CARRIERS),
  service: z.string(),
  service_token: z.string(),
  amount: usd,
  currency: z.literal("USD"),
  estimated_days: count,
});

export const orderSchema = z.object({
  order_id: int,
  status: z.enum(ORDER_STATUSES),
  unique_ids: z.array(z.string()),
  address: shippingAddressSchema,
  rates: z.array(rateSchema),
  quoted_at: instant,
  quote_expires_at: instant,
  superseded_by: int.nullable(),
  cancel_reason: z.enum(["superseded", "cancelled", "cancelled_label_voided"]).nullable(),
  rate_id: z.string().nullable(),
  carrier: z.string().nullable(),
  service: z.string().nullable(),
  amount: usd.nullable(),
  tracking_number: z.string().nullable(),
  tracking_status: z.string().nullable(),
  label_url: z.string().nullable(),
  ship_by_at: instant.nullable(),
  sla_due_at: instant.nullable(),
  committed_at: instant.nullable(),
  label_purchased_at: instant.nullable(),
  shipped_at: instant.nullable(),
  delivered_at: instant.nullable(),
  returned_at: instant.nullable(),
  cancelled_at: instant.nullable(),
  attempts: count,
  last_error: z.object({ code: z.string(), message: z.string(), at: instant }).nullable(),
  created_at: instant,
  updated_at: instant,
  awaiting_scan_unique_ids: z.array(z.string()).describe("Cards of a RETURNED order not yet scanned back"),
});
export type OrderWire = z.output<typeof orderSchema>;

export const quoteSchema = z.object({
  order_id: int,
  status: z.literal("PENDING_PAYMENT"),
  unique_ids: z.array(z.string()),
  address: shippingAddressSchema,
  rates: z.array(rateSchema).min(1),
  quoted_at: instant,
  expires_at: instant,
  superseded_order_id: int.nullable().describe("The newest quote this one superseded"),
  superseded_order_ids: z.array(int).describe("Every uncommitted quote of this key this one superseded"),
});
export type QuoteWire = z.output<typeof quoteSchema>;

export const withdrawalSchema = z.object({
  withdrawal_id: int,
  status: z.enum(["REQUESTED", "COMPLETED"]),
  unique_ids: z.array(z.string()),
  method: z.enum(["pickup", "ship"]),
  address: shippingAddressSchema.nullable(),
  notes: z.string().nullable(),
  created_at: instant,
  completed_at: instant.nullable(),
});
export type WithdrawalWire = z.output<typeof withdrawalSchema>;

export const transferSchema = z.object({
  transfer_id: int,
  unique_id: z.string(),
  from_account: z.string(),
  to_account: z.string(),
  status: z.literal("COMPLETED"),
  note: z.string().nullable(),
  created_at: instant,
});
export type TransferWire = z.output<typeof transferSchema>;

export const siteSchema = z.object({
  site_id: z.string(),
  name: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  timezone: z.string(),
  services: z.array(z.string()),
});
export type SiteWire = z.output<typeof siteSchema>;

export const attachmentSchema = z.object({
  attachment_id: int,
  filename: z.string(),
  content_type: z.string(),
  size_bytes: count.nullable(),
  created_at: instant,
});

export const inboundSchema = z.object({
  inbound_shipment_id: int,
  submission_key: z.string().nullable(),
  status: z.enum(INBOUND_STATUSES),
  site_id: z.string(),
  carrier: z.string().nullable(),
  tracking_number: z.string().nullable(),
  expected_card_count: int.positive(),
  declared_value_per_card: int.positive().nullable().describe("USD cents (null only in states saved before it was required)"),
  notes: z.string().nullable(),
  attachments: z.array(attachmentSchema),
  received_unique_ids: z.array(z.string()),
  created_at: instant,
  updated_at: instant,
  received_at: instant.nullable(),
  cancelled_at: instant.nullable(),
});
export type InboundWire = z.output<typeof inboundSchema>;

const announcedSchema = inboundSchema.extend({ created: z.boolean().describe("false on a replay of the submission_key") });

export const declaredValueRecordSchema = z.object({
  declared_value_id: int,
  unique_id: z.string(),
  amount: int.positive().describe("USD cents"),
  currency: z.literal("USD"),
  source: z.literal("tenant"),
  created_at: instant,
});
export type DeclaredValueWire = z.output<typeof declaredValueRecordSchema>;

export const invoiceSchema = z.object({
  invoice_id: z.string(),
  month: z.string(),
  period: z.object({ from: instant, to: instant }),
  status: z.enum(["ISSUED", "PAID"]),
  currency: z.literal("USD"),
  lines: z.array(z.object({ kind: z.enum(["storage", "label", "inbound", "withdrawal"]), description: z.string(), quantity: count, unit_amount: usd, amount: usd })),
  total: usd,
  issued_at: instant,
  due_at: instant,
});
export type InvoiceWire = z.output<typeof invoiceSchema>;

export const accountSchema = z.object({
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
export type AccountWire = z.output<typeof accountSchema>;

export const reportSchema = z.object({
  report_id: int,
  kind: z.enum(["monthly_statement", "inventory_snapshot"]),
  month: z.string(),
  status: z.literal("READY"),
  card_count: count,
  created_at: instant,
});
export type ReportWire = z.output<typeof reportSchema>;

export const exceptionSchema = z.object({
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
export type ExceptionWire = z.output<typeof exceptionSchema>;

export const slaSchema = z.object({
  month: z.string(),
  target_on_time_rate: z.string(),
  orders_committed: count,
  orders_shipped: count,
  shipped_on_time: count,
  missed_sla: count,
  on_time_rate: z.string().nullable().describe("A 4-decimal fraction; null with nothing shipped or late"),
  average_handling_hours: z.string().nullable(),
  late_order_ids: z.array(int),
});
export type SlaWire = z.output<typeof slaSchema>;

export const serviceCreditSchema = z.object({
  service_credit_id: int,
  status: z.enum(["APPROVED", "UNDER_REVIEW"]),
  reason: z.string(),
  order_id: int.nullable(),
  amount: int.positive().nullable().describe("USD cents requested"),
  decision: z.string(),
  created_at: instant,
});
export type ServiceCreditWire = z.output<typeof serviceCreditSchema>;

export const activitySchema = z.object({
  activity_id: int,
  at: instant,
  kind: z.string(),
  actor: z.string().describe("`operator`, `carrier`, or the calling key masked (`rip_v1_abcd…`)"),
  actor_label: z.string().nullable().describe("The calling key's label; null for operator and carrier"),
  summary: z.string(),
  refs: z.record(z.string(), z.union([z.string(), z.number()])),
});
export type ActivityWire = z.output<typeof activitySchema>;

export const integrationStatusSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  open_issues: count,
  issues: z.array(
    z.object({ issue_id: int, kind: z.literal("internal_error"), status: z.literal("OPEN"), method: z.string(), path: z.string(), message: z.string(), opened_at: instant }),
  ),
});
export type IntegrationStatusWire = z.output<typeof integrationStatusSchema>;

export const infoSchema = z.object({
  key: z.object({ kind: z.literal("tenant"), label: z.string(), scopes: z.array(z.string()), created_at: instant }),
  plan: z.string(),
  rate_limit: z.object({ limit_per_min: int.positive(), window_seconds: int.positive() }),
  tenant: z.object({ account_id: z.string(), name: z.string(), unique_id_prefix: z.string() }),
});

// ---- request bodies ----

export const quoteBody = z.object({
  unique_ids: uniqueIds,
  // The shared shipping rules check these in the handler (missing_shipping_address, invalid_address with details.fields, phone_required; unknown_carrier with details.available).
  address: later(shippingAddressSchema),
  shipping_address: later(shippingAddressSchema.describe("Alias of address")),
  carriers: later(z.union([z.array(z.enum(CARRIERS)), z.string().describe("Comma-separated")]).describe("Only these carriers (default: all)")),
});
export type QuoteBody = z.output<typeof quoteBody>;

export const commitBody = z.object({
  order_id: withCode(z.int({ error: given("an integer (the order_id returned by POST /shipping-quote)") }), "invalid_order_id"),
  rate_id: withCode(identifier(z.string({ error: given("a non-empty string (one of the quote's rates)") }).min(1, "must be a non-empty string (one of the quote's rates)")), "invalid_rate_id"),
});

export const withdrawalBody = z.object({
  idempotency_key: idempotencyKey(),
  unique_ids: uniqueIds,
  method: withCode(
    z
      .enum(["pickup", "ship"], { error: 'must be "pickup" or "ship"' })
      .nullish()
      .transform((m) => m ?? "pickup"),
    "invalid_method",
  ),
  // Checked by the shared address rule when method is ship (ignored for a pickup).
  address: later(shippingAddressSchema.describe("Required when method is ship")),
  notes: withCode(text(2000).nullish(), "invalid_notes"),
});

const recipient = (description: string) => withCode(idText().optional().describe(description), "invalid_recipient");
export const transferNote = withCode(text(2000).nullish(), "invalid_note");

export const transferBody = z
  .object({
    idempotency_key: idempotencyKey(),
    to_account_id: recipient("The tenant account receiving custody"),
    to_tenant: recipient("Alias of to_account_id"),
    // Checked after the recipient and the card (their 404/409 come first).
    note: later(transferNote),
  })
  .refine((b) => b.to_account_id !== undefined || b.to_tenant !== undefined, { path: ["to_account_id"], error: "is required: the tenant account receiving custody" });

const site = withCode(
  idText()
    .refine((s) => INBOUND_SITES.includes(s), `must be a site that takes inbound shipments: ${INBOUND_SITES.join(", ")}`)
    .nullish(),
  "invalid_site",
);
const carrier = withCode(text(64).nullish(), "invalid_carrier");
const trackingNumber = withCode(text(128).nullish(), "invalid_tracking_number");
const cardCount = withCode(z.int({ error: given(`an integer from 1 to ${MAX_CARDS}`) }).min(1, `must be an integer from 1 to ${MAX_CARDS}`).max(MAX_CARDS, `must be an integer from 1 to ${MAX_CARDS}`), "invalid_card_count");
const notes = withCode(text(2000).nullish(), "invalid_notes");

export const announceBody = z.object({
  submission_key: idempotencyKey(`Makes the announcement idempotent (at most ${MAX_IDEMPOTENCY_KEY} characters): a replay answers 200 with created: false`),
  site_id: site,
  carrier,
  tracking_number: trackingNumber,
  expected_card_count: cardCount,
  // Required: the received cards are pending identity, and pending cards carry the tenant's declared value.
  declared_value_per_card: cents(),
  notes,
});

/** PATCH: any of the announced fields; the declared value and the count cannot be cleared. */
export const updateBody = z.object({
  carrier,
  tracking_number: trackingNumber,
  notes,
  expected_card_count: cardCount.optional(),
  declared_value_per_card: cents().optional(),
  site_id: site,
});
export type UpdateBody = z.output<typeof updateBody>;

export const attachmentBody = withCode(
  z.object({
    idempotency_key: idempotencyKey(),
    filename: text(255),
    content_type: text(100).refine((t) => ATTACHMENT_TYPES.includes(t), `must be one of ${ATTACHMENT_TYPES.join(", ")}`),
    size_bytes: int.min(0).max(MAX_ATTACHMENT_BYTES, "must be an integer up to 25 MB").nullish(),
  }),
  "invalid_attachment",
);

export const declaredValueBody = z.object({
  idempotency_key: idempotencyKey(),
  unique_id: withCode(idText(), "invalid_unique_ids"),
  amount: cents(),
  currency: withCode(z.literal("USD", { error: "amount is in USD cents; currency, when sent, must be USD" }).optional(), "invalid_amount"),
});

export const serviceCreditBody = z.object({
  idempotency_key: idempotencyKey(),
  reason: withCode(text(2000), "invalid_reason"),
  amount: cents().nullish(),
  order_id: withCode(z.int({ error: "must be an integer" }).nullish(), "invalid_order_id"),
});

// ---- routes ----

const notFound = (what: string) => ({ description: `No ${what} of this tenant with that id`, codes: ["not_found"] }) as const;
const badPage = { description: "limit/offset without an integer", codes: ["invalid_pagination"] } as const;
const pagedList = (name: string, row: z.ZodType, description: string) => ({
  query: pageQuery,
  responses: { 200: { description, data: list(name, row) }, 400: badPage },
});
const filteredList = (name: string, row: z.ZodType, statuses: readonly [string, ...string[]], description: string) => ({
  query: z.object({ status: statusQuery(statuses), ...page }),
  responses: { 200: { description, data: list(name, row) }, 400: { description: "A status outside the list, or bad paging", codes: ["invalid_status", "invalid_pagination"] } },
});
const badJson = ["invalid_json"] as const;
const idempotencyConflict = { description: "The key was used for a different request", codes: ["idempotency_mismatch"] } as const;

export const SCHEMAS = {
  info: { responses: { 200: { description: "The key, its plan and rate limit, and its tenant", data: infoSchema } } },

  sweep: {
    query: z.object({
      offset: withCode(
        z.never({ error: "GET /cards pages with the since cursor, not offset (use since=0 for a full sweep; GET /inventory pages by offset)" }).optional().describe("Not accepted: sweep with since"),
        "invalid_pagination",
      ),
      limit: offsetPageQuery(MAX_PAGE_SIZE).limit,
      since,
      type: typeQuery,
    }),
    responses: {
      200: {
        description: "Cards in the vault changed after the cursor, oldest change first",
        data: z.object({
          cards: z.array(cardSchema),
          next_cursor: z.string().startsWith(CURSOR_PREFIX).nullable().describe("The next page of this sweep; null at its end"),
          resume_cursor: z.string().startsWith(CURSOR_PREFIX).describe("Where a later incremental sweep resumes"),
          has_more: z.boolean(),
        }),
      },
      400: { description: "offset sent, a bad cursor, type or limit", codes: ["invalid_pagination", "invalid_cursor", "invalid_type"] },
    },
  },
  card: { params: uniqueIdParam, responses: { 200: { description: "The card, directly under data", data: cardSchema }, 404: notFound("card") } },
  inventory: {
    query: z.object({ ...page, type: typeQuery, status: statusQuery(["AVAILABLE", "RESERVED"]) }),
    responses: {
      200: {
        description: "Cards in the vault by receipt, with status; pending_identity overlaps the rows (never add it to total)",
        data: z.object({ cards: z.array(inventoryCardSchema), total: count, pending_identity: count }),
      },
      400: { description: "Bad paging, type or status", codes: ["invalid_pagination", "invalid_type", "invalid_status"] },
    },
  },

  quote: {
    body: quoteBody,
    responses: {
      200: { description: "An order in PENDING_PAYMENT with its rates; the caller's uncommitted quotes are superseded", data: quoteSchema },
      400: {
        description: "unique_ids, then address, then carriers",
        codes: [...badJson, "invalid_unique_ids", "invalid_pagination", "identifier_too_long", "missing_shipping_address", "invalid_address", "phone_required", "unknown_carrier"],
      },
      404: { description: "A card that is not the tenant's", codes: ["not_found"] },
      409: { description: "Cards that cannot ship now (data.cards)", codes: ["not_eligible"] },
      422: { description: "No carrier serves the destination", codes: ["no_rates"] },
    },
  },
  commit: {
    body: commitBody,
    responses: {
      202: { description: "LABEL_PURCHASING (or, for a retry of a commit that went through, the order as it is)", data: orderSchema },
      400: { description: "order_id or rate_id", codes: [...badJson, "invalid_order_id", "invalid_rate_id", "identifier_too_long"] },
      404: { description: "No such order, or a rate that is not the order's", codes: ["not_found", "rate_not_found"] },
      409: { description: "Superseded, expired, not committable, or cards no longer eligible (data: the order or the cards)", codes: ["quote_superseded", "invalid_status", "quote_expired", "not_eligible"] },
    },
  },
  orders: filteredList("orders", orderSchema, ORDER_STATUSES, "Orders, newest first"),
  order: { params: pathId("order_id", "order"), responses: { 200: { description: "The order", data: orderSchema }, 404: notFound("order") } },
  cancelOrder: {
    params: pathId("order_id", "order"),
    responses: {
      200: { description: "CANCELLED (a purchased label is voided); the cards are released", data: orderSchema },
      404: notFound("order"),
      409: { description: "Not PENDING_PAYMENT or LABEL_PURCHASED (data: the order)", codes: ["invalid_status"] },
    },
  },

  withdrawals: filteredList("withdrawals", withdrawalSchema, ["REQUESTED", "COMPLETED"], "Withdrawals, newest first"),
  withdrawal: { params: pathId("withdrawal_id", "withdrawal"), responses: { 200: { description: "The withdrawal", data: withdrawalSchema }, 404: notFound("withdrawal") } },
  requestWithdrawal: {
    body: withdrawalBody,
    responses: {
      201: { description: "REQUESTED; the cards are held (a replay answers the original)", data: withdrawalSchema },
      400: {
        description: "A field is invalid",
        codes: [...badJson, "invalid_idempotency_key", "invalid_unique_ids", "invalid_pagination", "identifier_too_long", "invalid_method", "invalid_notes", "missing_shipping_address", "invalid_address", "phone_required"],
      },
      404: { description: "A card that is not the tenant's", codes: ["not_found"] },
      409: { description: "Cards not available (data.cards), or the key reused", codes: ["not_eligible", "idempotency_mismatch"] },
    },
  },
  transfers: pagedList("transfers", transferSchema, "Card transfers in and out, newest first"),
  transfer: { params: pathId("transfer_id", "card transfer"), responses: { 200: { description: "The transfer", data: transferSchema }, 404: notFound("card transfer") } },
  transferCard: {
    params: uniqueIdParam,
    body: transferBody,
    responses: {
      201: { description: "Custody moved; the card keeps its unique_id (a replay answers the original)", data: transferSchema },
      400: { description: "Recipient missing, invalid or the tenant itself; then the note", codes: [...badJson, "invalid_idempotency_key", "invalid_recipient", "identifier_too_long", "invalid_note"] },
      404: { description: "No such recipient account, or no such card", codes: ["recipient_not_found", "not_found"] },
      409: { description: "The card is not available, the recipient holds that id, or the key reused", codes: ["not_eligible", idempotencyConflict.codes[0]] },
    },
  },
  sites: pagedList("sites", siteSchema, "The warehouse sites"),
  site: { params: pathId("site_id", "site"), responses: { 200: { description: "The site", data: siteSchema }, 404: { description: "No such site", codes: ["not_found"] } } },

  shipments: filteredList("inbound_shipments", inboundSchema, INBOUND_STATUSES, "Inbound shipments, newest first"),
  shipment: { params: pathId("inbound_shipment_id", "inbound shipment"), responses: { 200: { description: "The shipment", data: inboundSchema }, 404: notFound("inbound shipment") } },
  attachments: {
    params: pathId("inbound_shipment_id", "inbound shipment"),
    responses: {
      200: { description: "The shipment's attachments", data: z.object({ inbound_shipment_id: int, attachments: z.array(attachmentSchema) }) },
      404: notFound("inbound shipment"),
    },
  },
  announce: {
    body: announceBody,
    responses: {
      201: { description: "ANNOUNCED, created: true", data: announcedSchema },
      200: { description: "A replay of the submission_key: the shipment as it is now, created: false", data: announcedSchema },
      400: {
        description: "A field is invalid",
        codes: [...badJson, "invalid_idempotency_key", "invalid_site", "identifier_too_long", "invalid_carrier", "invalid_tracking_number", "invalid_card_count", "invalid_amount", "invalid_notes"],
      },
      409: idempotencyConflict,
    },
  },
  updateShipment: {
    params: pathId("inbound_shipment_id", "inbound shipment"),
    // The shipment's 404/409 come before the body's 400s.
    body: later(updateBody),
    responses: {
      200: { description: "The updated shipment", data: inboundSchema },
      400: {
        description: "A field is invalid, or nothing to update",
        codes: [...badJson, "invalid_carrier", "invalid_tracking_number", "invalid_notes", "invalid_card_count", "invalid_amount", "invalid_site", "identifier_too_long", "invalid_update"],
      },
      404: notFound("inbound shipment"),
      409: { description: "Not ANNOUNCED (data: the shipment)", codes: ["invalid_status"] },
    },
  },
  cancelShipment: {
    params: pathId("inbound_shipment_id", "inbound shipment"),
    responses: {
      200: { description: "CANCELLED", data: inboundSchema },
      404: notFound("inbound shipment"),
      409: { description: "Not ANNOUNCED (data: the shipment)", codes: ["invalid_status"] },
    },
  },
  addAttachment: {
    params: pathId("inbound_shipment_id", "inbound shipment"),
    // The key is checked first, then the shipment's 404/409, then the other fields.
    body: later(attachmentBody),
    responses: {
      201: { description: "The attachment (a replay answers the original)", data: attachmentSchema.extend({ inbound_shipment_id: int }) },
      400: { description: "The key, then the fields", codes: [...badJson, "invalid_idempotency_key", "invalid_attachment"] },
      404: notFound("inbound shipment"),
      409: { description: "Cancelled shipment (data: the shipment), or the key reused", codes: ["invalid_status", "idempotency_mismatch"] },
    },
  },
  removeAttachment: {
    params: pathId("inbound_shipment_id", "inbound shipment").extend({ attachment_id: identifier().describe("The attachment's id") }),
    responses: {
      200: { description: "Removed", data: z.object({ inbound_shipment_id: int, attachment_id: int, deleted: z.literal(true) }) },
      404: { description: "No such shipment, or no such attachment on it", codes: ["not_found"] },
      409: { description: "Cancelled shipment (data: the shipment)", codes: ["invalid_status"] },
    },
  },

  declaredValues: {
    query: z.object({ unique_id: withCode(identifier().optional().describe("Only this card's"), "identifier_too_long"), ...page }),
    responses: {
      200: { description: "Declared values submitted, newest first", data: list("declared_values", declaredValueRecordSchema) },
      400: { description: "unique_id too long, or bad paging", codes: ["identifier_too_long", "invalid_pagination"] },
    },
  },
  declareValue: {
    body: declaredValueBody,
    responses: {
      201: { description: "The card pending identity now carries the tenant's value (a replay answers the original)", data: declaredValueRecordSchema },
      400: { description: "A field is invalid", codes: [...badJson, "invalid_idempotency_key", "invalid_unique_ids", "identifier_too_long", "invalid_amount"] },
      404: { description: "No such card", codes: ["not_found"] },
      409: { description: "The card is outside the vault or has a published identity (data), or the key reused", codes: ["not_eligible", "idempotency_mismatch"] },
    },
  },
  invoices: pagedList("invoices", invoiceSchema, "Invoices, newest month first"),
  invoice: { params: pathId("invoice_id", "invoice"), responses: { 200: { description: "The invoice", data: invoiceSchema }, 404: notFound("invoice") } },
  account: { responses: { 200: { description: "The tenant's account: what it holds and its open exceptions", data: accountSchema } } },
  reports: pagedList("reports", reportSchema, "Reports, newest first"),
  report: { params: pathId("report_id", "report"), responses: { 200: { description: "The report", data: reportSchema }, 404: notFound("report") } },
  exceptions: filteredList("exceptions", exceptionSchema, ["OPEN", "RESOLVED"], "Exceptions, newest first"),
  exception: { params: pathId("exception_id", "exception"), responses: { 200: { description: "The exception", data: exceptionSchema }, 404: notFound("exception") } },
  sla: {
    query: z.object({ month: withCode(z.string().refine(isMonth, "must be YYYY-MM").optional().describe("YYYY-MM (default: the current month)"), "invalid_month") }),
    responses: { 200: { description: "SLA metrics of the orders committed that month", data: slaSchema }, 400: { description: "month is not YYYY-MM", codes: ["invalid_month"] } },
  },
  serviceCredits: pagedList("service_credits", serviceCreditSchema, "Service credit requests, newest first"),
  requestServiceCredit: {
    body: serviceCreditBody,
    responses: {
      201: { description: "APPROVED for an order that missed its SLA, otherwise UNDER_REVIEW (a replay answers the original)", data: serviceCreditSchema },
      400: { description: "A field is invalid", codes: [...badJson, "invalid_idempotency_key", "invalid_reason", "invalid_amount", "invalid_order_id"] },
      404: { description: "No such order", codes: ["not_found"] },
      409: { description: "The order already has a request (data: it), or the key reused", codes: ["service_credit_exists", "idempotency_mismatch"] },
    },
  },
  activity: {
    query: z.object({ kind: z.string().optional().describe("Only this kind, e.g. order.committed"), ...page }),
    responses: { 200: { description: "Every tenant and operator action, newest first", data: list("activity", activitySchema) }, 400: badPage },
  },
  integrationStatus: { responses: { 200: { description: "Degraded while an integration issue (a warehouse 500) is open", data: integrationStatusSchema } } },
} satisfies Record<string, RouteSchema>;
