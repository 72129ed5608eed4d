import { NotApplicable, runs, type Check } from "../types.ts";
import { ensure, env, expectError, expectSuccess, expectWarehouseError } from "../assert.ts";
import { US_ADDRESS } from "./addresses.ts";

// Refusals and limits of docs/reference/ that no other check provokes (issue 34): the billing model's 403 on
// buyback, the offset cap, the idempotency key's length and a price query of a card with no market price.

const MISSING_CARD = "CONFORMANCE-MISSING-CARD";

interface HeldCard {
  unique_id?: unknown;
  status?: unknown;
  location?: unknown;
  identity?: { status?: unknown };
  declared_value?: unknown;
}

export const refusalChecks: Check[] = [
  {
    id: "mystery.buyback-not-pool-partner",
    guards:
      "docs/reference/live-service.md “Buyback offers and the pool wallet” (POOL model) and “Partner error codes” (403 not_pool_partner)",
    profile: "mystery",
    title: "Buyback offers with a TIER key → 403 not_pool_partner",
    rule: "Buyback offers are POOL-model: a TIER partner's key asking for one (by token or by purchase) is refused with 403 not_pool_partner.",
    ...runs("read-only", ["revenueShareKey"]),
    deviation: "buyback_tier_insufficient_permissions",
    async run({ http, revenueShareKey }) {
      ensure(revenueShareKey, "no TIER key");
      expectError(
        await http.post("/api/v1/mystery/buyback", { key: revenueShareKey, body: { token_ids: ["1"] } }),
        403,
        "not_pool_partner",
        "POST /mystery/buyback with a TIER key",
      );
      expectError(
        await http.post("/api/v1/mystery/buyback/conformance-missing-purchase", { key: revenueShareKey, body: {} }),
        403,
        "not_pool_partner",
        "POST /mystery/buyback/{purchase_id} with a TIER key",
      );
    },
  },
  {
    id: "pipeline.offset-capped",
    guards:
      "docs/reference/api-rules.md “Other limits” (offset at most 10,000) and “Error codes” (a leading integer is clamped)",
    profile: "pipeline",
    title: "An offset over 10,000 is clamped to 10,000",
    rule: "Offset pagination reaches at most 10,000 rows: a larger offset (a leading integer) is read as 10,000, the page's pagination.offset says so.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "offset_uncapped",
    async run({ http, partnerKey }) {
      for (const [path, offset] of [
        ["/api/v1/webhooks/deliveries", 10_001],
        ["/api/v1/mystery/purchases", 250_000],
      ] as const) {
        const r = await http.get(path, { key: partnerKey, query: { offset, limit: 5 } });
        const b = expectSuccess(r, `GET ${path}?offset=${offset}`);
        const p = ((b as { pagination?: unknown }).pagination ?? {}) as { offset?: unknown };
        ensure(
          p.offset === 10_000,
          `GET ${path}?offset=${offset}: pagination.offset must be the cap 10000, got ${JSON.stringify(p.offset)}`,
        );
      }
    },
  },
  {
    id: "warehouse.idempotency-key-128",
    guards: "docs/reference/api-rules.md “Other limits” (idempotency / submission key up to 128 characters)",
    profile: "warehouse",
    title: "An idempotency key of 129 characters → 400; 128 is accepted",
    rule: "Idempotency keys are up to 128 characters: a write with a 129-character key is refused with 400 for its key, the same write with 128 characters is judged on its merits.",
    // Refused writes only (a withdrawal of a card the tenant does not hold).
    ...runs("sandbox", ["tenantKey"]),
    deviation: "idempotency_key_limit_127",
    async run({ http, tenantKey }) {
      const withKey = (length: number) =>
        http.post("/api/v1/withdrawals", {
          key: tenantKey,
          headers: { "Idempotency-Key": "k".repeat(length) },
          body: { unique_ids: [MISSING_CARD] },
        });
      const long = await withKey(129);
      ensure(long.status === 400, `a 129-character Idempotency-Key must be refused with 400, got ${long.status}`);
      const fits = await withKey(128);
      expectWarehouseError(fits, 404, "not_found", "the same withdrawal with a 128-character Idempotency-Key");
      ensure(
        env(long).code !== env(fits).code,
        `the 129-character key's refusal must be about the key, got the 128-character one's code "${String(env(fits).code)}"`,
      );
    },
  },
  {
    id: "mystery.price-value-unknown",
    guards: "docs/reference/api-rules.md “Error codes” (404 value_unknown: the card has no market price)",
    profile: "mystery",
    title: "The price of a card with no market price → 404 value_unknown",
    rule: "GET /mystery/price of a catalog card that has no market price is 404 value_unknown (never a price of 0).",
    ...runs("read-only", ["partnerKey"], 5),
    deviation: "price_value_unknown_not_found",
    async run({ http, partnerKey, note }) {
      let unpriced: string | null = null;
      for (let page = 1; page <= 5 && !unpriced; page++) {
        const b = expectSuccess(
          await http.get("/api/v1/pokemon/cards", {
            key: partnerKey,
            query: { include: "prices", page_size: 100, page },
          }),
          `card search page ${page}`,
        );
        const rows = (Array.isArray(b.data) ? b.data : []) as { id?: string; pricing?: { market?: unknown } | null }[];
        unpriced = rows.find((c) => typeof c.id === "string" && (c.pricing?.market ?? null) === null)?.id ?? null;
        if (rows.length < 100) break;
      }
      if (!unpriced) throw new NotApplicable("no card without a market price in the first 500 cards");
      note(`card ${unpriced} has no market price`);
      expectError(
        await http.get("/api/v1/mystery/price", { key: partnerKey, query: { card_id: unpriced } }),
        404,
        "value_unknown",
        `GET /mystery/price?card_id=${unpriced}`,
      );
    },
  },
  {
    id: "warehouse.ineligible-card-409",
    guards:
      "docs/reference/api-rules.md “Raw card” (presence does not make a card eligible) and “Errors” (a 409's data is the conflicting resource's current state)",
    profile: "warehouse",
    title: "A present but ineligible card is refused a quote: 409 not_eligible whose data is the card's current state",
    rule: "A card's presence or declared value does not make it eligible for a quote: quoting a held card that is not AVAILABLE, OFFCHAIN and identity-confirmed is 409 not_eligible, and the 409's data names that card with its current status and location.",
    // A refused write only (no quote is made).
    ...runs("sandbox", ["tenantKey"]),
    deviation: "not_eligible_without_data",
    async run({ http, tenantKey, note }) {
      const inventory = expectSuccess(
        await http.get("/api/v1/inventory", { key: tenantKey, query: { limit: 100, type: "all" } }),
        "GET /inventory",
      );
      const cards = ((inventory.data as { cards?: unknown }).cards ?? []) as HeldCard[];
      const blocked = (c: HeldCard) =>
        c.status !== "AVAILABLE" || c.location !== "OFFCHAIN" || c.identity?.status !== "confirmed";
      const card = cards.find((c) => blocked(c) && c.declared_value != null) ?? cards.find((c) => blocked(c));
      if (!card || typeof card.unique_id !== "string")
        throw new NotApplicable("the tenant holds no card that is present but not eligible to ship");
      const id = card.unique_id;
      note(`card ${id}: ${String(card.status)}, ${String(card.location)}, identity ${String(card.identity?.status)}`);
      const current = expectSuccess(await http.get(`/api/v1/cards/${id}`, { key: tenantKey }), `GET /cards/${id}`)
        .data as HeldCard;
      const refusal = expectWarehouseError(
        await http.post("/api/v1/shipping-quote", { key: tenantKey, body: { unique_ids: [id], address: US_ADDRESS } }),
        409,
        "not_eligible",
        `a shipping quote of held but ineligible card ${id}`,
      );
      const rows = ((refusal.data as { cards?: unknown } | undefined)?.cards ?? null) as HeldCard[] | null;
      ensure(
        Array.isArray(rows),
        `the 409's data must carry the conflicting cards, got ${JSON.stringify(refusal.data)}`,
      );
      const row = rows.find((r) => r.unique_id === id);
      ensure(row, `the 409's data must name card ${id}`);
      // The raw card (GET /cards/{id}) has the location and identity; the inventory row the status.
      const expected = { status: card.status, location: current.location, identity: current.identity?.status };
      const got = { status: row.status, location: row.location, identity: row.identity?.status };
      for (const f of ["status", "location", "identity"] as const)
        ensure(
          got[f] === expected[f],
          `the 409's data must show card ${id}'s current ${f} ${JSON.stringify(expected[f])}, got ${JSON.stringify(got[f])}`,
        );
    },
  },
  {
    id: "webhooks.no-partial-event",
    guards: "docs/reference/sdk-shapes.md “Webhook event data” (no event exists for PARTIALLY_FULFILLED)",
    profile: "webhooks",
    title: "PARTIALLY_FULFILLED has no event: subscribing to one → 400 invalid_event_types",
    rule: "No event exists for PARTIALLY_FULFILLED: a registration naming purchase.partially_fulfilled (or its instant twin) is refused whole with 400 invalid_event_types.",
    ...runs("sandbox", ["partnerKey"]),
    deviation: "partial_event_accepted",
    async run({ http, partnerKey }) {
      for (const type of ["purchase.partially_fulfilled", "instant_purchase.partially_fulfilled"]) {
        const r = await http.post("/api/v1/webhooks", {
          key: partnerKey,
          body: { url: "https://example.com/cardos-conformance-partial", event_types: ["purchase.fulfilled", type] },
        });
        const id = r.status === 201 ? (env(r).data as { id?: unknown }).id : null;
        if (typeof id === "number") await http.call("DELETE", `/api/v1/webhooks/${id}`, { key: partnerKey });
        expectError(r, 400, "invalid_event_types", `a webhook for ${type}`);
      }
    },
  },
];
