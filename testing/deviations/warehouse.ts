import { runtimeSlot } from "../../emulator/pipeline/runtime.ts";
import { errorIs, is, keyOf, toSuccess, type Body, type Deviation, type Exchange } from "./deviation.ts";
import { warehouse } from "../../emulator/areas/warehouse/state.ts";
import { isoOf } from "../../contract/time.ts";

// Deviations that break the warehouse area's rules (one per conformance check
// in conformance/checks/warehouse.ts).

const WAREHOUSE_PATH =
  /^\/api\/v1\/(info|cards|inventory|shipping-quote|orders|withdrawals|card-transfers|sites|inbound-shipments|declared-values|invoices|reports|exceptions|sla|service-credits|activity|integration-status)(\/|$)|^\/api\/v1\/account$/;
const isWarehouse = (x: Exchange) => WAREHOUSE_PATH.test(x.url.pathname);
const dataOf = (x: Exchange) => (x.body?.data ?? null) as Record<string, unknown> | null;
const CARD_GET = /^\/api\/v1\/cards\/[^/]+$/;
const ORDER_GET = /^\/api\/v1\/orders\/\d+$/;

/** Every card object in a warehouse success body (lists and single gets). */
function cardsIn(x: Exchange): Record<string, unknown>[] {
  const d = dataOf(x);
  if (!d) return [];
  if (Array.isArray(d.cards)) return d.cards as Record<string, unknown>[];
  return typeof d.unique_id === "string" ? [d] : [];
}

/** idempotent_replay_200's memory of the withdrawals answered, per emulator (its runtime). */
const SEEN_WITHDRAWALS = runtimeSlot("idempotent_replay_200 seen withdrawals", () => new Set<unknown>());

/** A deviation that changes the answer of GET /api/v1/<list>/<id> (200 only). */
function byId(name: string, breaks: string, list: string, change: (d: Record<string, unknown>) => void): Deviation {
  const path = new RegExp(`^/api/v1/${list}/[^/]+$`);
  return {
    name,
    breaks,
    apply: (x) => {
      const d = dataOf(x);
      if (d && x.status === 200 && is(x, "GET", path)) change(d);
    },
  };
}

export const warehouseDeviations: readonly Deviation[] = [
  {
    name: "card_by_id_declared_value_scaled",
    breaks: "a card fetched by id carries the listed card's values (declared_value in integer cents)",
    apply: (x) => {
      const d = dataOf(x);
      const dv = d?.declared_value as { amount?: unknown } | null | undefined;
      if (is(x, "GET", CARD_GET) && x.status === 200 && typeof dv?.amount === "number") dv.amount = dv.amount * 100;
    },
  },
  // One resource, many routes (conformance/checks/warehouse-by-id.ts): a record by id differs from its row.
  byId(
    "site_by_id_timezone_utc",
    "a site fetched by id carries the listed site's values (its timezone)",
    "sites",
    (d) => {
      if (typeof d.timezone === "string") d.timezone = "UTC";
    },
  ),
  byId(
    "invoice_by_id_total_in_cents",
    "an invoice fetched by id carries the listed invoice's values (total in USD, not cents)",
    "invoices",
    (d) => {
      if (typeof d.total === "string") d.total = `${d.total.replace(".", "")}.00`;
    },
  ),
  byId(
    "report_by_id_card_count_off",
    "a report fetched by id carries the listed report's values (card_count)",
    "reports",
    (d) => {
      if (typeof d.card_count === "number") d.card_count += 1;
    },
  ),
  byId(
    "exception_by_id_status_flipped",
    "an exception fetched by id carries the listed exception's values (status)",
    "exceptions",
    (d) => {
      if (typeof d.status === "string") d.status = d.status === "OPEN" ? "RESOLVED" : "OPEN";
    },
  ),
  byId(
    "withdrawal_by_id_completed",
    "a withdrawal fetched by id carries the listed withdrawal's values (status)",
    "withdrawals",
    (d) => {
      if (typeof d.status === "string") d.status = d.status === "REQUESTED" ? "COMPLETED" : "REQUESTED";
    },
  ),
  byId(
    "transfer_by_id_accounts_swapped",
    "a card transfer fetched by id carries the listed transfer's values (from and to)",
    "card-transfers",
    (d) => {
      [d.from_account, d.to_account] = [d.to_account, d.from_account];
    },
  ),
  {
    name: "warehouse_accepts_partner_key",
    breaks: "a non-tenant key on warehouse endpoints is 403",
    apply: (x) => {
      if (isWarehouse(x) && x.status === 403 && x.req.method === "GET") toSuccess(x, { cards: [], orders: [] });
    },
  },
  {
    name: "info_without_key",
    breaks: "GET /info verifies the key (401 without one)",
    apply: (x) => {
      if (x.url.pathname === "/api/v1/info" && x.status === 401) toSuccess(x, { plan: "Pay as you go" });
    },
  },
  {
    name: "cursor_without_prefix",
    breaks: "the card list cursor is an opaque r: string",
    apply: (x) => {
      const d = dataOf(x);
      if (x.url.pathname === "/api/v1/cards" && typeof d?.next_cursor === "string")
        d.next_cursor = d.next_cursor.replace(/^r:/, "");
    },
  },
  {
    name: "prices_as_numbers",
    breaks: "warehouse prices are decimal strings",
    apply: (x) => {
      if (!isWarehouse(x)) return;
      for (const c of cardsIn(x)) {
        const pricing = c.pricing as { market_price?: unknown } | undefined;
        if (pricing && typeof pricing.market_price === "string") pricing.market_price = Number(pricing.market_price);
        if (typeof c.insured_price === "string") c.insured_price = Number(c.insured_price);
      }
    },
  },
  {
    name: "card_wrapped",
    breaks: "GET /cards/{id} returns the card directly under data",
    apply: (x) => {
      if (CARD_GET.test(x.url.pathname) && x.status === 200 && x.body) x.body.data = { card: x.body.data };
    },
  },
  {
    name: "warehouse_partner_envelope",
    breaks: "warehouse errors carry a human error and a machine code",
    apply: (x) => {
      if (isWarehouse(x) && x.body?.success === false && typeof x.body.code === "string") {
        x.body.error = x.body.code;
        delete x.body.code;
      }
    },
  },
  {
    name: "inventory_without_status",
    breaks: "the inventory listing adds status to each card",
    apply: (x) => {
      if (x.url.pathname === "/api/v1/inventory") for (const c of cardsIn(x)) delete c.status;
    },
  },
  {
    name: "integration_status_bare",
    breaks: "integration-status lists the open issues",
    apply: (x) => {
      if (x.url.pathname === "/api/v1/integration-status" && x.status === 200 && x.body) x.body.data = { status: "ok" };
    },
  },
  {
    name: "phone_not_required",
    breaks: "non-US quotes without a phone are 400 phone_required",
    apply: (x) => {
      if (errorIs(x, 400, "phone_required")) toSuccess(x, { order_id: 1, rates: [] });
    },
  },
  {
    name: "unknown_carrier_ignored",
    breaks: "unknown carriers are 400 unknown_carrier",
    apply: (x) => {
      if (errorIs(x, 400, "unknown_carrier")) toSuccess(x, { order_id: 1, rates: [] });
    },
  },
  {
    name: "id_array_unbounded",
    breaks: "id arrays over 500 entries are 400 invalid_pagination",
    apply: (x) => {
      if (x.url.pathname === "/api/v1/shipping-quote" && errorIs(x, 400, "invalid_pagination"))
        toSuccess(x, { order_id: 1, rates: [] });
    },
  },
  {
    name: "requote_keeps_old_quote",
    breaks: "re-quoting supersedes the caller's uncommitted quote",
    apply: (x) => {
      if (errorIs(x, 409, "quote_superseded")) {
        const data = x.body?.data;
        toSuccess(x, data);
        x.status = 202;
      }
    },
  },
  {
    name: "inbound_replay_201",
    breaks: "an inbound-shipment replay answers 200 with created:false",
    apply: (x) => {
      const d = dataOf(x);
      if (x.url.pathname === "/api/v1/inbound-shipments" && x.req.method === "POST" && x.status === 200 && d) {
        x.status = 201;
        d.created = true;
      }
    },
  },
  {
    name: "declared_value_accepts_decimals",
    breaks: "declared values are integer USD cents",
    apply: (x) => {
      if (x.url.pathname === "/api/v1/declared-values" && errorIs(x, 400, "invalid_amount")) {
        toSuccess(x, { declared_value_id: 1, amount: 12.5, source: "tenant" });
        x.status = 201;
      }
    },
  },
  {
    name: "warehouse_ignores_write_scope",
    breaks: "warehouse writes need their write:* scope",
    apply: (x) => {
      if (isWarehouse(x) && x.req.method !== "GET" && x.status === 403) toSuccess(x, { order_id: 1, rates: [] });
    },
  },
  {
    name: "deadlines_local_time",
    breaks: "ship_by_at and sla_due_at are returned in UTC",
    apply: (x) => {
      const d = dataOf(x);
      if (!ORDER_GET.test(x.url.pathname) || !d) return;
      for (const f of ["ship_by_at", "sla_due_at"])
        if (typeof d[f] === "string")
          d[f] = isoOf(Date.parse(d[f] as string) - 6 * 3600_000).replace(/\.\d+Z$/, "-06:00");
    },
  },
  {
    name: "failed_commit_marks_failed",
    breaks: "a failed order commit leaves PENDING_PAYMENT",
    apply: (x) => {
      const d = dataOf(x);
      if (ORDER_GET.test(x.url.pathname) && d?.status === "PENDING_PAYMENT" && d.last_error) d.status = "FAILED";
    },
  },
  {
    name: "scan_back_not_offchain",
    breaks: "a scanned-back card is OFFCHAIN again",
    apply: (x) => {
      const d = dataOf(x);
      if (!CARD_GET.test(x.url.pathname) || !d) return;
      const returned = Object.values(warehouse(x.services).tenants).some((t) =>
        Object.values(t.orders).some((o) => o.status === "RETURNED" && o.unique_ids.includes(d.unique_id as string)),
      );
      if (returned) d.location = "IN_TRANSIT";
    },
  },
  {
    name: "idempotent_replay_200",
    breaks: "a write replay returns the original record with the same 201",
    apply: (x) => {
      const d = dataOf(x);
      if (x.url.pathname !== "/api/v1/withdrawals" || x.req.method !== "POST" || x.status !== 201 || !d) return;
      const seen = x.services.runtime.of(SEEN_WITHDRAWALS);
      if (seen.has(d.withdrawal_id)) {
        x.status = 200;
        (x.body as Body).data = { ...d, replayed: true };
      } else seen.add(d.withdrawal_id);
    },
  },

  // Lifecycle deviations (conformance/checks/lifecycle.ts, one per scenario) break the rule a
  // lifecycle shows at its end, observed through the public API the scenario reads; where
  // that rule lives in later state rather than in one response, they change the state the
  // way a broken server would.
  {
    name: "lifecycle_sweep_misses_changes",
    breaks: "an incremental sweep from resume_cursor returns every card changed since",
    apply: (x) => {
      const d = dataOf(x);
      const since = x.url.searchParams.get("since");
      if (is(x, "GET", /^\/api\/v1\/cards$/) && since !== null && since !== "0" && d && Array.isArray(d.cards))
        d.cards = [];
    },
  },
  {
    name: "lifecycle_order_never_delivered",
    breaks: "a delivered order reads DELIVERED",
    apply: (x) => {
      const d = dataOf(x);
      if (is(x, "GET", /^\/api\/v1\/orders\/\d+$/) && d?.status === "DELIVERED") d.status = "SHIPPED";
    },
  },
  {
    name: "lifecycle_failed_label_holds_cards",
    breaks: "a failed label purchase applies nothing: the cards are AVAILABLE again",
    apply: (x) => {
      const key = keyOf(x);
      const d = dataOf(x);
      if (!key || !d || !Array.isArray(d.cards) || !is(x, "GET", /^\/api\/v1\/inventory$/)) return;
      const orders = Object.values(warehouse(x.services).tenants[key.account_id]?.orders ?? {});
      const held = new Set(
        orders.filter((o) => o.status === "PENDING_PAYMENT" && o.last_error).flatMap((o) => o.unique_ids),
      );
      d.cards = (d.cards as Record<string, unknown>[]).filter((c) => !held.has(String(c.unique_id)));
    },
  },
  {
    name: "lifecycle_return_not_recorded",
    breaks: "a package the carrier returns makes the order RETURNED",
    apply: (x) => {
      const d = dataOf(x);
      if (is(x, "GET", /^\/api\/v1\/orders\/\d+$/) && d?.status === "RETURNED") d.status = "SHIPPED";
    },
  },
  {
    name: "lifecycle_withdrawn_cards_stay",
    breaks: "a completed withdrawal takes the cards out of the vault (EXTERNAL)",
    apply: (x) => {
      const d = dataOf(x);
      if (is(x, "GET", /^\/api\/v1\/cards\/[^/]+$/) && d?.location === "EXTERNAL") d.location = "OFFCHAIN";
    },
  },
  {
    name: "inventory_page_overlap",
    breaks: "offset pages neither repeat nor skip rows",
    apply: (x) => {
      // Each page after the first shows its first card twice and loses its last: a repeat and a gap.
      const d = dataOf(x);
      const p = x.body?.pagination as { offset?: number } | undefined;
      if (
        is(x, "GET", /^\/api\/v1\/inventory$/) &&
        d &&
        Array.isArray(d.cards) &&
        d.cards.length > 1 &&
        (p?.offset ?? 0) > 0
      ) {
        const cards = d.cards as unknown[];
        d.cards = [cards[0], ...cards.slice(0, -1)];
      }
    },
  },
];
