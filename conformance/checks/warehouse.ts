import type { Check, CheckContext } from "../types.ts";
import { emulatorOnly, runs } from "../types.ts";
import { waitFor } from "../wait.ts";
import { runUnique } from "../isolate.ts";
import type { HttpResult } from "../../harness/http.ts";
import { ensure, expectStatus, expectSuccess, expectWarehouseError, sameFields } from "../assert.ts";
import { sameAcrossReads } from "../progress.ts";
import type { AnyLifecycle } from "../../contract/lifecycle.ts";
import { INBOUND_SHIPMENT, WAREHOUSE_ORDER } from "../../contract/lifecycles/index.ts";
import { walkOffset } from "../paging.ts";
import { US_ADDRESS } from "./addresses.ts";

// Checks of the warehouse (tenant) API. The read-only ones only GET, so they
// are safe against production with a tenant key; sandbox ones write (quotes,
// announcements) and clean up after themselves; emulator ones drive the clock
// and operator actions through /_emulator.

const DE = { name: "Conformance Check", street1: "Unter den Linden 1", city: "Berlin", zip: "10117", country: "DE" };
const MISSING_CARD = "CARD-CONFORMANCE0";

type Card = {
  unique_id?: unknown;
  identity?: { status?: unknown };
  pricing?: { status?: unknown; market_price?: unknown };
  insured_price?: unknown;
  declared_value?: unknown;
  location?: unknown;
  status?: unknown;
};
type Data = Record<string, unknown>;

export const data = (r: HttpResult, what: string, status = 200) => expectSuccess(r, what, status).data as Data;

async function firstCards(ctx: CheckContext, query: Record<string, string | number> = {}): Promise<Card[]> {
  const d = data(
    await ctx.http.get("/api/v1/cards", { key: ctx.tenantKey, query: { since: 0, limit: 100, ...query } }),
    "GET /cards",
  );
  ensure(Array.isArray(d.cards), "GET /cards: data.cards must be an array");
  return d.cards as Card[];
}

/** A card that can be quoted (published, in the vault, available), from the offset inventory listing. */
export async function shippableCard(ctx: CheckContext): Promise<string> {
  const d = data(
    await ctx.http.get("/api/v1/inventory", {
      key: ctx.tenantKey,
      query: { limit: 100, status: "AVAILABLE", type: "all" },
    }),
    "GET /inventory",
  );
  const card = (d.cards as Card[]).find((c) => c.identity?.status === "confirmed" && c.location === "OFFCHAIN");
  ensure(card, "the tenant has no shippable card (confirmed identity, OFFCHAIN, AVAILABLE) to run this check with");
  return card.unique_id as string;
}

async function quote(ctx: CheckContext, id: string) {
  const d = data(
    await ctx.http.post("/api/v1/shipping-quote", {
      key: ctx.tenantKey,
      body: { unique_ids: [id], address: US_ADDRESS },
    }),
    "POST /shipping-quote",
  );
  const rates = d.rates as { rate_id: string }[];
  ensure(
    typeof d.order_id === "number" && Array.isArray(rates) && rates.length > 0,
    "a quote must carry an integer order_id and rates with rate_id",
  );
  return { order_id: d.order_id, rate_id: rates[0].rate_id };
}

/** Quotes and commits an order; the label is bought a few seconds later (the clock advanced, or waited for in real time). */
async function placeOrder(ctx: CheckContext, id: string) {
  const q = await quote(ctx, id);
  data(await ctx.http.post("/api/v1/orders", { key: ctx.tenantKey, body: q }), "POST /orders", 202);
  if (ctx.control) await ctx.control.advance(5_000);
  else
    await waitFor(
      ctx,
      `order ${q.order_id}'s label`,
      async () => ((await getOrder(ctx, q.order_id)).status === "LABEL_PURCHASED" ? true : undefined),
      30_000,
    );
  return q.order_id;
}

const getOrder = async (ctx: CheckContext, id: number) =>
  data(await ctx.http.get(`/api/v1/orders/${id}`, { key: ctx.tenantKey }), `GET /orders/${id}`);
/** Gives an order's card back (the label voided): a used target keeps its shippable cards for later runs. */
const cancelOrder = async (ctx: CheckContext, id: number) =>
  ctx.http.post(`/api/v1/orders/${id}/cancel`, { key: ctx.tenantKey, body: {} });

export const warehouseChecks: Check[] = [
  {
    id: "warehouse.partner-key-403",
    guards: "docs/reference/api-rules.md “Error codes” (403) and “Authentication”",
    profile: "warehouse",
    title: "A partner key on a warehouse endpoint → 403",
    rule: "A non-tenant key on warehouse endpoints returns 403 (Insufficient permissions), never charged.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "warehouse_accepts_partner_key",
    async run({ http, partnerKey }) {
      for (const path of ["/api/v1/cards", "/api/v1/orders", "/api/v1/info"]) {
        const r = await http.get(path, { key: partnerKey });
        expectWarehouseError(r, 403, "Insufficient permissions", `partner key on GET ${path}`);
      }
    },
  },
  {
    id: "warehouse.info-verifies-key",
    guards: "docs/reference/api-rules.md “Warehouse endpoints” (GET /info)",
    profile: "warehouse",
    title: "GET /info verifies the key",
    rule: "GET /info verifies the key: 200 with the key's details for a valid tenant key, 401 without one.",
    ...runs("read-only", ["tenantKey"]),
    deviation: "info_without_key",
    async run({ http, tenantKey }) {
      const d = data(await http.get("/api/v1/info", { key: tenantKey }), "GET /info with the tenant key");
      ensure(d && typeof d === "object", "GET /info: data must be an object");
      expectStatus(await http.get("/api/v1/info"), 401, "GET /info without a key");
    },
  },
  {
    id: "warehouse.cards-keyset",
    guards: "docs/reference/api-rules.md “Raw card” and “Other limits” (keyset since unbounded)",
    profile: "warehouse",
    title: "GET /cards pages with an opaque r: keyset cursor",
    rule: "The card list uses a keyset cursor (opaque string with prefix r:); since=0 starts a full sweep; pages do not repeat cards.",
    ...runs("read-only", ["tenantKey"]),
    deviation: "cursor_without_prefix",
    async run(ctx) {
      const { http, tenantKey, note } = ctx;
      // The whole sweep in pages of `limit`, followed to the page whose next_cursor is null.
      const whole = await firstCards(ctx);
      const limit = Math.max(1, Math.ceil(whole.length / 3));
      const seen = new Set<unknown>();
      let since: string | number = 0;
      let pages = 0;
      for (;;) {
        ensure(++pages <= 60, "the sweep did not end within 60 pages");
        const page = data(
          await http.get("/api/v1/cards", { key: tenantKey, query: { since, limit } }),
          `GET /cards?since=${since}&limit=${limit}`,
        );
        const cards = page.cards as Card[];
        ensure(
          Array.isArray(cards) && cards.length <= limit,
          `data.cards must be an array of at most ${limit} (limit) cards`,
        );
        for (const c of cards) {
          ensure(!seen.has(c.unique_id), `page ${pages} repeats card ${String(c.unique_id)}`);
          seen.add(c.unique_id);
        }
        const next = page.next_cursor;
        if (next === null || next === undefined) break;
        ensure(
          typeof next === "string" && next.startsWith("r:"),
          `next_cursor must be an opaque string starting with r:, got ${JSON.stringify(next)}`,
        );
        ensure(cards.length > 0, "a page with a next_cursor must not be empty");
        since = next;
      }
      if (whole.length < 100) {
        const missing = whole.filter((c) => !seen.has(c.unique_id));
        ensure(
          missing.length === 0 && seen.size === whole.length,
          `the sweep saw ${seen.size} cards; one page of 100 lists ${whole.length} (missing ${missing
            .map((c) => String(c.unique_id))
            .slice(0, 3)
            .join(", ")})`,
        );
      }
      note(`${seen.size} cards in ${pages} pages of ${limit}`);
    },
  },
  {
    id: "warehouse.card-combinations",
    guards: "docs/reference/api-rules.md “Raw card” (identity/pricing combinations, declared_value)",
    profile: "warehouse",
    title: "Raw cards follow the identity/pricing combinations",
    rule: "unique_id starts with CARD- (≤ 22 chars); unconfirmed → unverified with null prices and a (tenant) declared value; unpriced → null prices and null declared value; priced → decimal-string prices and a (service) declared value; declared_value is integer USD cents with a source.",
    ...runs("read-only", ["tenantKey"]),
    deviation: "prices_as_numbers",
    async run(ctx) {
      const cards = await firstCards(ctx, { type: "all" });
      for (const c of cards) {
        const id = String(c.unique_id);
        ensure(
          typeof c.unique_id === "string" && id.startsWith("CARD-") && id.length <= 22,
          `unique_id ${JSON.stringify(c.unique_id)} must start with CARD- and be at most 22 characters`,
        );
        if (c.identity?.status === "unconfirmed" && c.pricing)
          ensure(
            c.pricing.status === "unverified" && c.pricing.market_price === null,
            `${id}: a pending identity must be unverified with a null market price`,
          );
        if (c.pricing?.status === "unpriced" || c.pricing?.status === "unverified")
          ensure(
            c.pricing.market_price === null && (c.insured_price ?? null) === null,
            `${id}: ${c.pricing.status} cards have null market and insured prices`,
          );
        if (c.pricing?.status === "priced") {
          ensure(
            typeof c.pricing.market_price === "string" && /^\d+(\.\d+)?$/.test(c.pricing.market_price),
            `${id}: a priced card's market_price must be a USD decimal string, got ${JSON.stringify(c.pricing.market_price)}`,
          );
          ensure(
            c.insured_price === undefined || typeof c.insured_price === "string",
            `${id}: insured_price must be a decimal string`,
          );
        }
        const dv = c.declared_value as { amount?: unknown; source?: unknown } | null | undefined;
        if (dv)
          ensure(
            Number.isInteger(dv.amount) && typeof dv.source === "string",
            `${id}: declared_value must be {amount: integer USD cents, source}`,
          );
        // The source's spelling is not shown ("for example tenant-supplied or service-supplied"): check presence per row.
        if (dv !== undefined) {
          if (c.identity?.status === "unconfirmed")
            ensure(dv !== null, `${id}: a pending identity carries the tenant's declared value, got null`);
          else if (c.pricing?.status === "unpriced")
            ensure(
              dv === null,
              `${id}: a published, unpriced card has a null declared value, got ${JSON.stringify(dv)}`,
            );
          else if (c.pricing?.status === "priced")
            ensure(dv !== null, `${id}: a priced card carries the service's declared value, got null`);
        }
      }
    },
  },
  {
    id: "warehouse.card-get",
    guards: "docs/reference/api-rules.md “Warehouse endpoints” (get card)",
    profile: "warehouse",
    title: "GET /cards/{id} returns the card directly under data",
    rule: "get card returns the same card object directly under data; 404 not_found for an unknown id.",
    ...runs("read-only", ["tenantKey"]),
    deviation: "card_wrapped",
    async run(ctx) {
      const [card] = await firstCards(ctx, { type: "all" });
      ensure(card, "the tenant has no card to get");
      const d = data(await ctx.http.get(`/api/v1/cards/${card.unique_id}`, { key: ctx.tenantKey }), "GET /cards/{id}");
      ensure(
        d.unique_id === card.unique_id,
        `data.unique_id must be ${String(card.unique_id)}, got ${JSON.stringify(d.unique_id)} (keys: ${Object.keys(d).join(", ")})`,
      );
    },
  },
  {
    id: "warehouse.error-envelope",
    guards: "docs/reference/api-rules.md “Error envelope” (warehouse: message, error, code)",
    profile: "warehouse",
    title: "Warehouse errors: message, human error, machine code",
    rule: "Warehouse errors are {success:false, message, error:<human-readable>, code}; branch on the status and code.",
    ...runs("read-only", ["tenantKey"]),
    deviation: "warehouse_partner_envelope",
    async run({ http, tenantKey }) {
      const b = expectWarehouseError(
        await http.get(`/api/v1/cards/${MISSING_CARD}`, { key: tenantKey }),
        404,
        "not_found",
        "GET a missing card",
      );
      ensure(b.error !== b.code, "error must be the human-readable text, not the machine code");
    },
  },
  {
    id: "warehouse.inventory-listing",
    guards: "docs/reference/api-rules.md “Warehouse endpoints” (inventory) and “Response envelope” (pagination)",
    profile: "warehouse",
    title: "The inventory listing adds status, total and pending_identity",
    rule: "Inventory puts cards under data.cards with offset/total pagination, adds status per card, and counts pending_identity separately.",
    ...runs("read-only", ["tenantKey"]),
    deviation: "inventory_without_status",
    async run({ http, tenantKey }) {
      const r = await http.get("/api/v1/inventory", { key: tenantKey, query: { limit: 5 } });
      const d = data(r, "GET /inventory?limit=5");
      const cards = d.cards as Card[];
      ensure(Array.isArray(cards), "data.cards must be an array");
      ensure(
        Number.isInteger(d.total) && (d.total as number) >= cards.length,
        "data.total must be an integer ≥ the listed rows",
      );
      ensure(Number.isInteger(d.pending_identity), "data.pending_identity must be an integer count");
      ensure(
        cards.every((c) => typeof c.status === "string"),
        "every inventory card must carry a status",
      );
      const pag = (r.body as { pagination?: { limit?: unknown; offset?: unknown } }).pagination;
      ensure(pag && pag.limit === 5 && pag.offset === 0, "the listing must carry pagination {limit, offset, has_more}");
    },
  },
  {
    id: "warehouse.inventory-walk",
    guards:
      "docs/reference/api-rules.md “Response envelope” (pagination {limit, offset, has_more}) and “Other limits” (offset pagination)",
    profile: "warehouse",
    title: "The inventory walked by offset: no gap, no repeat, has_more false only on the last page",
    rule: "Offset pages of the inventory cover it exactly once; data.total is the same on every page and equals the rows walked; has_more is true until the last page.",
    ...runs("read-only", ["tenantKey"]),
    deviation: "inventory_page_overlap",
    async run({ http, tenantKey, note }) {
      const one = data(
        await http.get("/api/v1/inventory", { key: tenantKey, query: { limit: 100, type: "all" } }),
        "GET /inventory?limit=100",
      );
      const whole = (one.cards as Card[]).map((c) => c.unique_id);
      ensure(whole.length >= 2, `the tenant needs at least 2 cards in its inventory to walk, has ${whole.length}`);
      const limit = Math.max(1, Math.ceil(whole.length / 3));
      const full = (one.total as number) <= 100;
      const walk = await walkOffset(http, tenantKey, "/api/v1/inventory", {
        rowsKey: "cards",
        idKey: "unique_id",
        limit,
        whole: full ? whole : undefined,
        total: "total",
        query: { type: "all" },
      });
      note(`${walk.rows} cards in ${walk.pages} pages of ${limit}`);
    },
  },
  {
    id: "warehouse.integration-status",
    guards: "docs/reference/api-rules.md “Warehouse endpoints” (integration status)",
    profile: "warehouse",
    title: "GET /integration-status lists open integration issues",
    rule: "GET /integration-status returns the open integration issues (a list, empty when there are none).",
    ...runs("read-only", ["tenantKey"]),
    deviation: "integration_status_bare",
    async run({ http, tenantKey }) {
      const d = data(await http.get("/api/v1/integration-status", { key: tenantKey }), "GET /integration-status");
      ensure(
        d && typeof d === "object" && Array.isArray(d.issues),
        `data.issues must be an array, got ${JSON.stringify(d).slice(0, 120)}`,
      );
    },
  },
  {
    id: "warehouse.quote-phone-required",
    guards: "docs/reference/api-rules.md “Warehouse endpoints” (shipping quote: phone_required)",
    profile: "warehouse",
    title: "A non-US quote without a phone → 400 phone_required",
    rule: "Shipping quote to a non-US destination without a phone number is 400 phone_required.",
    ...runs("sandbox", ["tenantKey"]),
    deviation: "phone_not_required",
    async run({ http, tenantKey }) {
      const r = await http.post("/api/v1/shipping-quote", {
        key: tenantKey,
        body: { unique_ids: [MISSING_CARD], address: DE },
      });
      expectWarehouseError(r, 400, "phone_required", "quote to DE without a phone");
    },
  },
  {
    id: "warehouse.quote-unknown-carrier",
    guards: "docs/reference/api-rules.md “Warehouse endpoints” (carriers)",
    profile: "warehouse",
    title: "A quote naming an unavailable carrier → 400 unknown_carrier",
    rule: "Quote carriers must be among usps, ups, dhl_express, lso; otherwise 400 unknown_carrier.",
    ...runs("sandbox", ["tenantKey"]),
    deviation: "unknown_carrier_ignored",
    async run({ http, tenantKey }) {
      const r = await http.post("/api/v1/shipping-quote", {
        key: tenantKey,
        body: { unique_ids: [MISSING_CARD], address: US_ADDRESS, carriers: ["fedex"] },
      });
      expectWarehouseError(r, 400, "unknown_carrier", "quote with carriers [fedex]");
    },
  },
  {
    id: "warehouse.quote-id-array",
    guards: "docs/reference/api-rules.md “Other limits” (id array 500 entries)",
    profile: "warehouse",
    title: "unique_ids is always an array of at most 500",
    rule: "unique_ids is always an array; an id array over 500 entries is 400 invalid_pagination.",
    ...runs("sandbox", ["tenantKey"]),
    deviation: "id_array_unbounded",
    async run({ http, tenantKey }) {
      const single = await http.post("/api/v1/shipping-quote", {
        key: tenantKey,
        body: { unique_ids: MISSING_CARD, address: US_ADDRESS },
      });
      expectStatus(single, 400, "unique_ids as a bare string");
      const ids = Array.from({ length: 501 }, (_, i) => `CARD-CONF${i}`);
      expectWarehouseError(
        await http.post("/api/v1/shipping-quote", { key: tenantKey, body: { unique_ids: ids, address: US_ADDRESS } }),
        400,
        "invalid_pagination",
        "501 unique_ids",
      );
    },
  },
  {
    id: "warehouse.requote-supersedes",
    guards: "docs/reference/api-rules.md “States and transitions” (re-quote supersedes)",
    profile: "warehouse",
    title: "Re-quoting supersedes the caller's uncommitted quote",
    rule: "Re-quoting supersedes the caller's uncommitted quote: committing the superseded quote's rate is refused.",
    ...runs("sandbox", ["tenantKey"]),
    deviation: "requote_keeps_old_quote",
    async run(ctx) {
      const id = await shippableCard(ctx);
      const first = await quote(ctx, id);
      const second = await quote(ctx, id);
      const stale = await ctx.http.post("/api/v1/orders", { key: ctx.tenantKey, body: first });
      expectWarehouseError(stale, 409, "quote_superseded", "committing a superseded quote");
      await ctx.http.post(`/api/v1/orders/${second.order_id}/cancel`, { key: ctx.tenantKey, body: {} });
    },
  },
  {
    id: "warehouse.error-codes-declared",
    guards: "docs/reference/api-rules.md “Error codes” (each operation's codes)",
    profile: "warehouse",
    title: "An error answers a code its operation declares",
    rule: "Every error carries the status and machine code the operation declares for it; a code the operation does not declare fails (the wire check, on every answer).",
    ...runs("sandbox", ["tenantKey"]),
    deviation: "error_code_undeclared",
    async run(ctx) {
      const id = await shippableCard(ctx);
      const first = await quote(ctx, id);
      const second = await quote(ctx, id);
      // Every answer's code is held to the operation's declared codes as it arrives (wire.ts); this one is asserted too.
      expectWarehouseError(
        await ctx.http.post("/api/v1/orders", { key: ctx.tenantKey, body: first }),
        409,
        "quote_superseded",
        "committing a superseded quote",
      );
      await ctx.http.post(`/api/v1/orders/${second.order_id}/cancel`, { key: ctx.tenantKey, body: {} });
    },
  },
  {
    id: "warehouse.by-id-equals-listed",
    guards:
      "docs/reference/api-rules.md “Warehouse endpoints” (get card, get order, get inbound shipment); docs/reference/api-rules.md “Raw card” (declared_value in USD cents)",
    profile: "warehouse",
    title: "A card, an order and an inbound shipment fetched by id equal the same resource listed, field by field",
    rule: "One resource, many routes: GET /cards/{id}, /orders/{id} and /inbound-shipments/{id} answer the same fields and values (units included: declared values in integer cents) as the resource's row in its list.",
    ...runs("sandbox", ["tenantKey"]),
    deviation: "card_by_id_declared_value_scaled",
    async run(ctx) {
      const { http, tenantKey: key } = ctx;
      const cards = await firstCards(ctx, { type: "all" });
      ensure(
        cards.some((c) => c.declared_value !== null),
        "the tenant has no card with a declared value to compare",
      );
      for (const c of cards.slice(0, 10))
        sameFields(
          data(await http.get(`/api/v1/cards/${String(c.unique_id)}`, { key }), "GET /cards/{id}"),
          c as Data,
          `card ${String(c.unique_id)}`,
        );
      const orderId = await placeOrder(ctx, await shippableCard(ctx));
      const listedOrder = async () => {
        const orders = data(await http.get("/api/v1/orders", { key, query: { limit: 100 } }), "GET /orders")
          .orders as Data[];
        const row = orders.find((o) => o.order_id === orderId);
        ensure(row, `order ${orderId} missing from GET /orders`);
        return row;
      };
      // A live warehouse may move the order on between the reads (a label bought): forward along its lifecycle only.
      const order = { byId: () => getOrder(ctx, orderId), listed: listedOrder, first: "listed" as const };
      await sameAcrossReads(WAREHOUSE_ORDER as AnyLifecycle, order, `order ${orderId}`);
      await cancelOrder(ctx, orderId);
      const body = {
        submission_key: runUnique("inbound"),
        expected_card_count: 1,
        declared_value_per_card: 1234,
        notes: "conformance check; cancelled right away",
      };
      const id = data(await http.post("/api/v1/inbound-shipments", { key, body }), "announce", 201).inbound_shipment_id;
      try {
        const listed = async () => {
          const row = (
            data(await http.get("/api/v1/inbound-shipments", { key, query: { limit: 100 } }), "GET /inbound-shipments")
              .inbound_shipments as Data[]
          ).find((x) => x.inbound_shipment_id === id);
          ensure(row, `inbound shipment ${String(id)} missing from GET /inbound-shipments`);
          return row;
        };
        const byId = async () =>
          data(await http.get(`/api/v1/inbound-shipments/${String(id)}`, { key }), "GET /inbound-shipments/{id}");
        await sameAcrossReads(
          INBOUND_SHIPMENT as AnyLifecycle,
          { byId, listed, first: "listed" },
          `inbound shipment ${String(id)}`,
        );
      } finally {
        await http.post(`/api/v1/inbound-shipments/${String(id)}/cancel`, { key, body: {} });
      }
    },
  },
  {
    id: "warehouse.inbound-replay",
    guards: "docs/reference/api-rules.md “Other limits” (idempotency: inbound replay 200 created:false)",
    profile: "warehouse",
    title: "An inbound-shipment replay answers 200 with created:false",
    rule: "Inbound shipments are idempotent on submission_key: a replay returns 200 with created:false and the same shipment.",
    ...runs("sandbox", ["tenantKey"]),
    deviation: "inbound_replay_201",
    async run({ http, tenantKey }) {
      const body = {
        submission_key: runUnique("inbound"),
        expected_card_count: 1,
        declared_value_per_card: 100,
        notes: "conformance check; cancelled right away",
      };
      const a = data(await http.post("/api/v1/inbound-shipments", { key: tenantKey, body }), "announce", 201);
      const b = data(
        await http.post("/api/v1/inbound-shipments", { key: tenantKey, body }),
        "replay of the announcement",
        200,
      );
      ensure(b.created === false, `a replay must carry created:false, got ${JSON.stringify(b.created)}`);
      ensure(b.inbound_shipment_id === a.inbound_shipment_id, "a replay must return the original shipment");
      await http.post(`/api/v1/inbound-shipments/${a.inbound_shipment_id}/cancel`, { key: tenantKey, body: {} });
    },
  },
  {
    id: "warehouse.declared-value-cents",
    guards: "docs/reference/api-rules.md “Raw card” (declared_value in USD cents)",
    profile: "warehouse",
    title: "Declared values are integer USD cents",
    rule: "declared_value is an amount in USD cents (integer); a fractional amount is rejected with 400.",
    ...runs("sandbox", ["tenantKey"]),
    deviation: "declared_value_accepts_decimals",
    async run(ctx) {
      const [card] = await firstCards(ctx);
      ensure(card, "the tenant has no card");
      const r = await ctx.http.post("/api/v1/declared-values", {
        key: ctx.tenantKey,
        body: { unique_id: card.unique_id, amount: 12.5 },
      });
      expectWarehouseError(r, 400, "invalid_amount", "declared value of 12.5");
    },
  },
  {
    id: "warehouse.write-scope-403",
    guards: "docs/reference/api-rules.md “Authentication” (scopes) and “Error codes” (403)",
    profile: "warehouse",
    title: "Writes need their scope (write:order for a quote)",
    rule: "A tenant key without write:order gets 403 on shipping-quote; read:inventory alone does not allow writes.",
    // Refused writes only; emulator mode mints the key.
    ...runs("sandbox", ["readOnlyTenantKey"]),
    deviation: "warehouse_ignores_write_scope",
    async run({ http, readOnlyTenantKey }) {
      ensure(readOnlyTenantKey, "no read-only tenant key");
      const key = readOnlyTenantKey;
      expectWarehouseError(
        await http.post("/api/v1/shipping-quote", { key, body: { unique_ids: [MISSING_CARD], address: US_ADDRESS } }),
        403,
        "Insufficient permissions",
        "quote without write:order",
      );
      expectWarehouseError(
        await http.post("/api/v1/withdrawals", { key, body: { unique_ids: [MISSING_CARD] } }),
        403,
        "Insufficient permissions",
        "withdrawal without write:withdrawal",
      );
    },
  },
  {
    id: "warehouse.order-label-utc",
    guards: "docs/reference/api-rules.md “Other limits” (business-day math in US Central; timestamps UTC)",
    profile: "warehouse",
    title: "Committing a rate buys the label; deadlines are UTC",
    rule: "POST /orders {order_id, rate_id} buys the label (a few seconds); ship_by_at and sla_due_at are computed in US Central business days and returned in UTC.",
    ...runs("sandbox", ["tenantKey"]),
    deviation: "deadlines_local_time",
    async run(ctx) {
      const id = await placeOrder(ctx, await shippableCard(ctx));
      const o = await getOrder(ctx, id);
      await cancelOrder(ctx, id);
      ensure(
        o.status === "LABEL_PURCHASED",
        `the order must be LABEL_PURCHASED a few seconds after commit, is ${String(o.status)}`,
      );
      for (const f of ["ship_by_at", "sla_due_at"])
        ensure(
          typeof o[f] === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(o[f] as string),
          `${f} must be a UTC timestamp (…Z), got ${JSON.stringify(o[f])}`,
        );
    },
  },
  {
    id: "warehouse.order-failure-retry",
    guards: "docs/reference/api-rules.md “Other limits” (order commits safe to retry: PENDING_PAYMENT)",
    profile: "warehouse",
    title: "A failed label purchase leaves PENDING_PAYMENT; the retry succeeds",
    rule: "Order commit with a rate fails → PENDING_PAYMENT, nothing applied; retry is safe.",
    ...emulatorOnly("faults", "makes the next label purchase fail (POST /_emulator/warehouse/labels/fail-next)", [
      "tenantKey",
    ]),
    deviation: "failed_commit_marks_failed",
    async run(ctx) {
      const info = data(await ctx.http.get("/api/v1/info", { key: ctx.tenantKey }), "GET /info");
      const account = (info.tenant as { account_id: string }).account_id;
      const q = await quote(ctx, await shippableCard(ctx));
      await ctx.control!.request("POST", "/warehouse/labels/fail-next", { account_id: account, times: 1 });
      data(await ctx.http.post("/api/v1/orders", { key: ctx.tenantKey, body: q }), "commit", 202);
      await ctx.control!.advance(5_000);
      const failed = await getOrder(ctx, q.order_id);
      ensure(
        failed.status === "PENDING_PAYMENT",
        `after a failed label purchase the order must be PENDING_PAYMENT, is ${String(failed.status)}`,
      );
      data(await ctx.http.post("/api/v1/orders", { key: ctx.tenantKey, body: q }), "retry of the commit", 202);
      await ctx.control!.advance(5_000);
      const done = await getOrder(ctx, q.order_id);
      ensure(done.status === "LABEL_PURCHASED", `the retry must buy the label, order is ${String(done.status)}`);
    },
  },
  {
    id: "warehouse.return-scan-back",
    guards: "docs/reference/api-rules.md “States and transitions” (return, scan back)",
    profile: "warehouse",
    title: "Returned and scanned-back cards are OFFCHAIN and orderable again",
    rule: "Carrier return → RETURNED; each card scanned back → OFFCHAIN, card.returned, and can be ordered again.",
    ...emulatorOnly("operator", "ships the order, has the carrier return it and scans the card back in the vault", [
      "tenantKey",
    ]),
    deviation: "scan_back_not_offchain",
    async run(ctx) {
      const id = await shippableCard(ctx);
      const orderId = await placeOrder(ctx, id);
      await ctx.control!.request("POST", `/warehouse/orders/${orderId}/ship`);
      await ctx.control!.request("POST", `/warehouse/orders/${orderId}/return`);
      ensure(
        (await getOrder(ctx, orderId)).status === "RETURNED",
        "the order must be RETURNED after the carrier returns it",
      );
      await ctx.control!.request("POST", `/warehouse/orders/${orderId}/scan-back`, {});
      const card = data(await ctx.http.get(`/api/v1/cards/${id}`, { key: ctx.tenantKey }), "GET the scanned-back card");
      ensure(card.location === "OFFCHAIN", `a scanned-back card must be OFFCHAIN, is ${JSON.stringify(card.location)}`);
      const again = await quote(ctx, id);
      await ctx.http.post(`/api/v1/orders/${again.order_id}/cancel`, { key: ctx.tenantKey, body: {} });
    },
  },
  {
    id: "warehouse.idempotent-create",
    guards: "docs/reference/api-rules.md “Other limits” (a replay returns the original record with the same 201)",
    profile: "warehouse",
    title: "Write replays return the original record with the same 201",
    rule: "Writes accept idempotency_key: a replay returns the original record with the same 201.",
    ...runs("sandbox", ["tenantKey"]),
    deviation: "idempotent_replay_200",
    async run(ctx) {
      const body = {
        unique_ids: [await shippableCard(ctx)],
        idempotency_key: `conformance-${Math.random().toString(36).slice(2)}`,
      };
      const a = data(
        await ctx.http.post("/api/v1/withdrawals", { key: ctx.tenantKey, body }),
        "request a withdrawal",
        201,
      );
      const b = data(
        await ctx.http.post("/api/v1/withdrawals", { key: ctx.tenantKey, body }),
        "replay the request",
        201,
      );
      ensure(a.withdrawal_id === b.withdrawal_id, "the replay must return the original withdrawal");
    },
  },
];
