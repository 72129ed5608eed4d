import type { Check } from "../types.ts";
import { runs } from "../types.ts";
import { ensure, expectError, expectSuccess, intHeader } from "../assert.ts";
import { PROBE } from "./pipeline.ts";
import { walkCardData } from "../paging.ts";

// Checks of the Card Data catalog contract: list envelopes, include=prices,
// the q grammar's error codes, caps, not-live endpoints and game scoping.

type Obj = Record<string, unknown>;
const asList = (d: unknown): Obj[] => (Array.isArray(d) ? (d as Obj[]) : []);

export const catalogChecks: Check[] = [
  {
    id: "catalog.search-page",
    guards: "docs/reference/live-service.md “Envelopes” and “Pagination” (Card Data page, page_size, total_count)",
    profile: "catalog",
    title: "Card search returns a page with its paging fields",
    rule: "List endpoints return data with pagination; Card Data pages carry page, page_size, total_count beside data.",
    ...runs("read-only", ["partnerKey"], 1),
    deviation: "catalog_no_total_count",
    async run({ http, partnerKey }) {
      const b = expectSuccess(
        await http.get("/api/v1/pokemon/cards", { key: partnerKey, query: { page_size: 5 } }),
        "search",
      );
      const rows = asList(b.data);
      ensure(
        Array.isArray(b.data) && rows.length > 0 && rows.length <= 5,
        `page_size=5 must return 1..5 rows, got ${rows.length}`,
      );
      const top = b as Obj;
      ensure(
        typeof top.total_count === "number" && (top.total_count as number) >= rows.length,
        "total_count must be a number >= the rows returned",
      );
      ensure(
        top.page_size === 5 || (top.pagination as Obj | undefined)?.limit === 5,
        "the page size in force must be reported",
      );
      for (const r of rows)
        ensure(typeof r.id === "string" && typeof r.name === "string", "each card has a string id and name");
    },
  },
  {
    id: "catalog.paging-walk",
    guards:
      "docs/reference/live-service.md “Pagination” (Card Data paging: page ≥ 1, page_size, total_count); docs/reference/api-rules.md “Other limits” (page_size up to 100)",
    profile: "catalog",
    title: "A Card Data collection walked page by page: no gap, no repeat, the last page included",
    rule: "Numbered pages of page_size rows cover the collection exactly once; total_count is the same on every page; the last page holds the remainder and the page after it is empty.",
    ...runs("read-only", ["partnerKey"], 8),
    deviation: "catalog_last_page_dropped",
    async run({ http, partnerKey, note }) {
      // A collection that fits one page of 100 gives the reference; it is then walked in three or four pages.
      const sets = expectSuccess(
        await http.get("/api/v1/pokemon/expansions", { key: partnerKey, query: { page_size: 100 } }),
        "expansions",
      ) as Obj;
      let path = "/api/v1/pokemon/expansions";
      let whole = asList(sets.data);
      if (typeof sets.total_count !== "number" || sets.total_count > 100 || sets.total_count < 3) {
        const small = whole.find((e) => typeof e.total === "number" && e.total >= 3 && e.total <= 100);
        ensure(small, "no expansion of 3..100 cards to walk");
        path = `/api/v1/pokemon/expansions/${encodeURIComponent(String(small.id))}/cards`;
        whole = asList(
          (
            expectSuccess(
              await http.get(path, { key: partnerKey, query: { page_size: 100 } }),
              "expansion cards",
            ) as Obj
          ).data,
        );
      }
      ensure(whole.length >= 3, `${path} must have at least 3 rows to walk, has ${whole.length}`);
      const size = Math.ceil(whole.length / 3);
      const walk = await walkCardData(
        http,
        partnerKey,
        path,
        size,
        whole.map((r) => r.id),
      );
      note(`${path}: ${walk.rows} rows in ${walk.pages} pages of ${size}`);
    },
  },
  {
    id: "catalog.include-prices",
    guards: "docs/reference/api-rules.md “Credits and billing” (include=prices surcharge 0) and “Catalog records”",
    profile: "catalog",
    title: "include=prices embeds pricing with market_updated_at, at no extra cost",
    rule: "include=prices embeds current prices in a catalog read; surcharge 0. Catalog cards carry market_updated_at.",
    ...runs("read-only", ["partnerKey"], 1),
    deviation: "include_prices_ignored",
    async run({ http, partnerKey }) {
      const r = await http.get(PROBE, { key: partnerKey, query: { include: "prices" } });
      const b = expectSuccess(r, "GET card with include=prices");
      const pricing = (b.data as Obj).pricing as Obj | undefined;
      ensure(pricing && typeof pricing === "object", "data.pricing must be present with include=prices");
      ensure("market" in pricing, "pricing.market must be present (number or null)");
      ensure(pricing.market === null || typeof pricing.market === "number", "Card Data money is a JSON number");
      if (pricing.market !== null)
        ensure(typeof pricing.market_updated_at === "string", "a priced card carries market_updated_at");
      ensure(intHeader(r, "X-Credits-Cost", "include=prices") === 1, "include=prices costs the same 1 credit");
    },
  },
  {
    id: "catalog.card-not-found",
    guards: "docs/reference/api-rules.md “Error codes” (404 not_found)",
    profile: "catalog",
    title: "A missing card, or a card of another game, is 404 not_found",
    rule: "404 not_found for a card missing; a Pokémon id asked on /onepiece is not found.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "not_found_wrong_code",
    async run({ http, partnerKey }) {
      expectError(
        await http.get("/api/v1/pokemon/cards/zz-conformance-404", { key: partnerKey }),
        404,
        "not_found",
        "missing card",
      );
      expectError(
        await http.get("/api/v1/onepiece/cards/base1-4", { key: partnerKey }),
        404,
        "not_found",
        "Pokémon id on /onepiece",
      );
    },
  },
  {
    id: "catalog.q-errors",
    guards:
      "docs/reference/live-service.md “Card Data query grammar” and “Card Data errors” (q grammar errors carry details.position)",
    profile: "catalog",
    title: "q errors: parse_error / unknown_field / invalid_value carry details.position",
    rule: "parse_error, unknown_field, invalid_value carry details.position (0-based offset).",
    ...runs("read-only", ["partnerKey"]),
    deviation: "no_error_position",
    async run({ http, partnerKey }) {
      const cases: [string, string, number][] = [
        ["name:(charizard", "parse_error", -1],
        ["name:pikachu flavour:fire", "unknown_field", 13],
        ["hp:[abc TO 100]", "invalid_value", -1],
      ];
      for (const [q, code, position] of cases) {
        const b = expectError(
          await http.get("/api/v1/pokemon/cards", { key: partnerKey, query: { q } }),
          400,
          code,
          `q=${q}`,
        );
        const pos = (b.details as Obj | undefined)?.position;
        ensure(
          typeof pos === "number" && pos >= 0 && pos <= q.length,
          `q=${q}: details.position must be an offset into q, got ${String(pos)}`,
        );
        if (position >= 0) ensure(pos === position, `q=${q}: details.position must be ${position}, got ${pos}`);
      }
    },
  },
  {
    id: "catalog.q-too-complex",
    guards: "docs/reference/live-service.md “Card Data query grammar” (query caps → query_too_complex)",
    profile: "catalog",
    title: "More than 20 terms → 400 query_too_complex",
    rule: "Caps: 512 characters, 20 terms, nesting depth 5, 3 orderBy keys → query_too_complex.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "no_query_caps",
    async run({ http, partnerKey }) {
      const q = Array.from({ length: 21 }, (_, i) => `name:a${i}`).join(" ");
      expectError(
        await http.get("/api/v1/pokemon/cards", { key: partnerKey, query: { q } }),
        400,
        "query_too_complex",
        "21 terms",
      );
      expectError(
        await http.get("/api/v1/pokemon/cards", { key: partnerKey, query: { q: "x".repeat(513) } }),
        400,
        "query_too_complex",
        "513 characters",
      );
    },
  },
  {
    id: "catalog.page-size-cap",
    guards:
      "docs/reference/api-rules.md “Other limits” (page_size up to 100); docs/reference/live-service.md “Pagination” (out of range is 400, never clamped)",
    profile: "catalog",
    title: "page_size over 100 → 400 invalid_pagination",
    rule: "page_size up to 100 (out of range is 400 invalid_pagination on the live Card Data API).",
    ...runs("read-only", ["partnerKey"]),
    deviation: "page_size_uncapped",
    async run({ http, partnerKey }) {
      expectError(
        await http.get("/api/v1/pokemon/cards", { key: partnerKey, query: { page_size: 101 } }),
        400,
        "invalid_pagination",
        "page_size=101",
      );
    },
  },
  {
    id: "catalog.expansions",
    guards: "docs/reference/api-rules.md “Catalog endpoints”; docs/reference/live-service.md “Card Data endpoints”",
    profile: "catalog",
    title: "Expansions: search, get and their cards",
    rule: "/{game}/expansions, /{game}/expansions/{id}, /{game}/expansions/{id}/cards.",
    ...runs("read-only", ["partnerKey"], 3),
    deviation: "expansion_cards_empty",
    async run({ http, partnerKey }) {
      const list = asList(
        expectSuccess(
          await http.get("/api/v1/pokemon/expansions", { key: partnerKey, query: { page_size: 1 } }),
          "expansions",
        ).data,
      );
      ensure(list.length === 1 && typeof list[0].id === "string", "an expansion with an id");
      const id = String(list[0].id);
      const one = expectSuccess(
        await http.get(`/api/v1/pokemon/expansions/${encodeURIComponent(id)}`, { key: partnerKey }),
        "get expansion",
      );
      ensure((one.data as Obj).id === id, "get expansion returns the same id");
      const cards = asList(
        expectSuccess(
          await http.get(`/api/v1/pokemon/expansions/${encodeURIComponent(id)}/cards`, {
            key: partnerKey,
            query: { page_size: 5 },
          }),
          "expansion cards",
        ).data,
      );
      ensure(cards.length > 0, `expansion ${id} lists its cards`);
      for (const c of cards)
        ensure(
          ((c.expansion as Obj | undefined)?.id as string | undefined)?.toLowerCase() === id.toLowerCase(),
          "each card belongs to the expansion",
        );
    },
  },
  {
    id: "catalog.sealed",
    guards: "docs/reference/api-rules.md “Catalog endpoints”; docs/reference/live-service.md “Card Data endpoints”",
    profile: "catalog",
    title: "Sealed products: search, get and prices",
    rule: "/{game}/sealed, /{game}/sealed/{id}, /{game}/sealed/{id}/prices.",
    ...runs("read-only", ["partnerKey"], 3),
    deviation: "sealed_prices_missing",
    async run({ http, partnerKey }) {
      const list = asList(
        expectSuccess(await http.get("/api/v1/pokemon/sealed", { key: partnerKey, query: { page_size: 1 } }), "sealed")
          .data,
      );
      ensure(list.length === 1, "at least one sealed product");
      const id = encodeURIComponent(String(list[0].id));
      expectSuccess(await http.get(`/api/v1/pokemon/sealed/${id}`, { key: partnerKey }), "get sealed");
      const p = expectSuccess(
        await http.get(`/api/v1/pokemon/sealed/${id}/prices`, { key: partnerKey }),
        "sealed prices",
      );
      const pricing = (p.data as Obj).pricing as Obj | undefined;
      ensure(pricing && "market" in pricing, "sealed prices carry pricing.market (number or null)");
    },
  },
  {
    id: "catalog.printings",
    guards: "docs/reference/live-service.md “Pagination” (/cards/{id}/printings: single terminal page, capped at 50)",
    profile: "catalog",
    title: "Printings: one terminal page of at most 50",
    rule: "/cards/{id}/printings: single page capped at 50 rows; total_count is the family size.",
    ...runs("read-only", ["partnerKey"], 1),
    deviation: "printings_uncapped",
    async run({ http, partnerKey }) {
      const b = expectSuccess(await http.get(`${PROBE}/printings`, { key: partnerKey }), "printings");
      const rows = asList(b.data);
      ensure(rows.length >= 1 && rows.length <= 50, `1..50 printings expected, got ${rows.length}`);
      const total = (b as Obj).total_count;
      ensure(total === undefined || (typeof total === "number" && total >= rows.length), "total_count >= rows");
    },
  },
  {
    id: "catalog.price-history-not-live",
    guards: "docs/reference/api-rules.md “Versioning” (not-live endpoints return 404) and “Credits and billing”",
    profile: "catalog",
    title: "Price history is not live: 404 and free",
    rule: "Endpoints marked not live return 404 and cost nothing.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "price_history_charged",
    async run({ http, partnerKey }) {
      const r = await http.get(`${PROBE}/price-history`, { key: partnerKey });
      expectError(r, 404, "not_found", "price history");
      const cost = r.headers["x-credits-cost"];
      ensure(cost === undefined || cost === "0", `price history must cost nothing, X-Credits-Cost is ${cost}`);
    },
  },
  {
    id: "catalog.grading-batch-cap",
    guards: "docs/reference/api-rules.md “Other limits” (id array 500 entries)",
    profile: "catalog",
    title: "A graded-certificate batch over 500 entries → 400 invalid_pagination",
    rule: "invalid_pagination when an id array exceeds 500 entries.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "id_array_uncapped",
    async run({ http, partnerKey }) {
      const certs = Array.from({ length: 501 }, (_, i) => ({ provider: "PSA", cert_number: String(10_000_000 + i) }));
      expectError(
        await http.post("/api/v1/grading/certs/batch", { key: partnerKey, body: { certs } }),
        400,
        "invalid_pagination",
        "501 certificates",
      );
    },
  },
];
