import { describe, it, expect, beforeAll, afterAll } from "vitest";
import fc from "fast-check";
import { startEmulator, type Api } from "../helpers.ts";
import { buildCatalog } from "../../fixtures/catalog/index.ts";
import { ApiError } from "../../emulator/pipeline/errors.ts";
import { MAX_OFFSET } from "../../emulator/pipeline/pagination.ts";
import { parsePart, z } from "../../emulator/pipeline/schema.ts";
import { catalogRoutes } from "../../emulator/areas/catalog/routes.ts";
import {
  catalogCardWire,
  certWire,
  fullCardPricing,
  fullSealedPricing,
  sealedWire,
} from "../../emulator/areas/catalog/format.ts";
import {
  CATALOG,
  catalogPage,
  CardBase,
  Card,
  GradedCert,
  Expansion,
  CardPricing,
  SealedPricing,
  SealedProduct,
} from "../../contract/index.ts";
import { expectError } from "../../conformance/assert.ts";

// The Card Data route schemas: they describe every record the catalog serves
// (all three games), each query field answers its own code in the order the
// routes always checked them, and q's errors keep their position.

let api: Api;
let close: () => Promise<void>;
let key: string;
beforeAll(async () => {
  ({ api, close } = await startEmulator({ ipRateLimitPerMin: 100_000 }));
  key = (
    await api
      .post("/_emulator/keys")
      .send({ kind: "partner", scopes: ["read:catalog"], balance: 100_000, rate_limit_per_min: 100_000 })
      .expect(201)
  ).body.data.key;
});
afterAll(() => close());

const get = (path: string, query: Record<string, string | number> = {}) =>
  api.get(path).query(query).set("X-API-Key", key);

/** The first problem of `value` under `schema`, or null. */
const problem = (schema: z.ZodType, value: unknown) => {
  const res = schema.safeParse(value);
  return res.success ? null : `${res.error.issues[0]!.path.join(".")}: ${res.error.issues[0]!.message}`;
};

describe("the wire schemas describe the real records", () => {
  const catalog = buildCatalog({ seed: 1, size: "default" });

  it("every card of every game, plain, with include=prices and its full pricing", () => {
    const games = new Set<string>();
    for (const rec of catalog.cards) {
      games.add(rec.game);
      expect(problem(CardBase, rec.card), rec.card.id).toBeNull();
      expect(problem(Card, catalogCardWire(rec, true)), rec.card.id).toBeNull();
      expect(problem(CardPricing, fullCardPricing(rec.pricing)), rec.card.id).toBeNull();
    }
    expect(games).toEqual(new Set(["pokemon", "onepiece", "azuki"]));
  });

  it("every expansion, sealed product (with prices) and certificate", () => {
    for (const rec of catalog.expansions) expect(problem(Expansion, rec.expansion), rec.expansion.id).toBeNull();
    for (const rec of catalog.sealed) {
      expect(problem(SealedProduct, sealedWire(rec, true)), rec.product.id).toBeNull();
      expect(problem(SealedPricing, fullSealedPricing(rec.pricing)), rec.product.id).toBeNull();
    }
    const cards = new Map(catalog.cards.map((r) => [r.card.id, r]));
    for (const cert of catalog.certs)
      expect(problem(GradedCert, certWire(cert, cards.get(cert.card_id))), cert.cert_number).toBeNull();
  });

  it("is strict: an unknown field or a wrong type is refused; include=prices leaves out the prices-route-only fields", () => {
    const pokemon = catalog.cards.find(
      (r) => r.game === "pokemon" && r.card.hp !== undefined && r.pricing?.graded.some((g) => g.band),
    )!;
    expect(problem(CardBase, { ...pokemon.card, flavour: "fire" })).toMatch(/flavour/);
    expect(problem(CardBase, { ...pokemon.card, hp: Number(pokemon.card.hp) })).toMatch(/^hp: /);
    expect(problem(CardBase, { ...pokemon.card, expansion: { ...pokemon.card.expansion, logo: 7 } })).toMatch(
      /^expansion\.logo: /,
    );
    expect(problem(CardBase, { ...pokemon.card, tcgplayer_id: 42382 })).toMatch(/^tcgplayer_id: /);
    // One pricing shape (the SDK's): band and last_sold_at are declared optional, and the embedded form drops them.
    expect(fullCardPricing(pokemon.pricing).graded.some((g) => g.band && g.last_sold_at)).toBe(true);
    const embedded = catalogCardWire(pokemon, true).pricing!.graded;
    expect(embedded.length).toBeGreaterThan(0);
    for (const g of embedded) {
      expect(g).not.toHaveProperty("band");
      expect(g).not.toHaveProperty("last_sold_at");
    }
  });
});

describe("query fields answer their own code, first wrong field first", () => {
  it("a q syntax error thrown inside the schema keeps its code and details.position", () => {
    try {
      parsePart("query", CATALOG.cardsSearch.schema.query, { q: "name:(charizard" });
      throw new Error("expected a failure");
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe("parse_error");
      expect((err as ApiError).init.details).toEqual({ position: 5 });
    }
  });

  it("product_type's invalid_value carries its position over HTTP", async () => {
    const body = expectError(
      await get("/api/v1/pokemon/sealed", { product_type: "booster_pack, starter_deck" }),
      400,
      "invalid_value",
    );
    expect(body.details).toEqual({ position: 14 });
  });

  it.each<[string, Record<string, string>, number, string]>([
    ["include before q", { include: "history", q: "name:(" }, 400, "invalid_include"],
    ["select before paging", { select: "nope", page_size: "0" }, 400, "invalid_select"],
    ["paging before q", { page_size: "abc", q: "name:(" }, 400, "invalid_pagination"],
    ["limit before q", { limit: "x", q: "(((" }, 400, "invalid_pagination"],
    ["q syntax before language", { q: "name:(", language: "klingon" }, 400, "parse_error"],
    ["language before distinct", { language: "klingon", distinct: "name" }, 400, "invalid_language"],
    ["q's caps before distinct", { q: "x".repeat(513), distinct: "name" }, 400, "query_too_complex"],
    // q's field names depend on the game, so they are checked after the schema's fields (documented).
    ["language before q's field names", { q: "flavour:fire", language: "klingon" }, 400, "invalid_language"],
    ["page × page_size after the fields", { page: "200", page_size: "100" }, 400, "invalid_pagination"],
    ["q's field names before orderBy", { q: "flavour:fire", orderBy: "flavour" }, 400, "unknown_field"],
  ])("%s", async (_what, query, status, code) => {
    const body = expectError(await get("/api/v1/pokemon/cards", query), status, code);
    if (code === "unknown_field") expect(body.details).toEqual({ position: 0 });
  });

  it("a wrong parameter answers before a missing record (schemas run before the handler)", async () => {
    expectError(await get("/api/v1/pokemon/cards/nope-1", { select: "nope" }), 400, "invalid_select");
    expectError(await get("/api/v1/pokemon/expansions/nope", { select: "nope" }), 400, "invalid_select");
    expectError(await get("/api/v1/pokemon/expansions/nope/cards", { page_size: "0" }), 400, "invalid_pagination");
    // page × page_size is the contract's rule too (it was the handler's, after the record's 404).
    expectError(
      await get("/api/v1/pokemon/expansions/nope/cards", { page: "200", page_size: "100" }),
      400,
      "invalid_pagination",
    );
    expectError(
      await get("/api/v1/pokemon/cards/nope-1/printings", { page: "201", page_size: "50" }),
      400,
      "invalid_pagination",
    );
    expectError(await get("/api/v1/pokemon/cards/nope-1/printings", { language: "klingon" }), 400, "invalid_language");
    expectError(await get("/api/v1/pokemon/sealed/nope", { include: "history" }), 400, "invalid_include");
    expectError(await get("/api/v1/pokemon/cards/nope-1/prices", { select: "anything" }), 404, "not_found");
  });
});

describe("graded certificate batches", () => {
  it("GET names the field and keeps the order: missing, malformed, over 500, empty, too long", async () => {
    expect(expectError(await get("/api/v1/grading/certs/batch"), 400, "invalid_value").message).toMatch(/^certs: /);
    expect(
      expectError(await get("/api/v1/grading/certs/batch", { certs: "PSA:1,BGS" }), 400, "invalid_value").message,
    ).toMatch(/"BGS" is not PROVIDER:CERT_NUMBER/);
    const many = Array.from({ length: 501 }, (_, i) => `PSA:${i}`).join(",");
    expectError(await get("/api/v1/grading/certs/batch", { certs: `${many},BGS` }), 400, "invalid_value");
    expectError(await get("/api/v1/grading/certs/batch", { certs: many }), 400, "invalid_pagination");
    expectError(await get("/api/v1/grading/certs/batch", { certs: " , " }), 400, "invalid_value");
    expectError(
      await get("/api/v1/grading/certs/batch", { certs: `PSA:${"9".repeat(256)}` }),
      400,
      "identifier_too_long",
    );
  });

  it("POST checks each entry by the schema; a body that is not an object is invalid_json", async () => {
    const post = (body: unknown) =>
      api
        .post("/api/v1/grading/certs/batch")
        .set("X-API-Key", key)
        .send(body as object);
    expect(expectError(await post({ certs: [{ provider: "PSA" }] }), 400, "invalid_value").message).toMatch(
      /^certs\.0\.cert_number: /,
    );
    expectError(await post({}), 400, "invalid_value");
    expectError(await post({ certs: [] }), 400, "invalid_value");
    expectError(await post([{ provider: "PSA", cert_number: "1" }]), 400, "invalid_json");
    const ok = await post({ certs: [{ provider: "psa", cert_number: "68734521", extra: true }] }).expect(200);
    expect(ok.body.data).toMatchObject({ found: 1, not_found: 0, results: [{ provider: "PSA", found: true }] });
  });
});

describe("paging", () => {
  const field = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom("", "0", "1", "7", "50", "100", "101", "10000", "-3", " 20 ", "20abc", "abc", "3.5"),
    fc.nat(20_000).map(String),
  );
  // The contract's own queries: a list's (cap 100) and printings' (cap 50).
  const queryOf = (cap: number) => (cap === 50 ? CATALOG.cardsPrintings : CATALOG.cardsSearch).schema.query;
  const outcome = (f: () => unknown) => {
    try {
      return f();
    } catch (err) {
      return (err as ApiError).code;
    }
  };

  it("any mix of page, page_size, limit and offset is invalid_pagination or a consistent page within the route's cap", () => {
    fc.assert(
      fc.property(
        fc.record({ page_size: field, page: field, limit: field, offset: field }),
        fc.constantFrom(100, 50),
        (raw, cap) => {
          const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)) as Record<
            string,
            string
          >;
          const got = outcome(() => catalogPage(parsePart("query", queryOf(cap), given), cap));
          if (typeof got === "string") {
            expect(got).toBe("invalid_pagination");
            return;
          }
          const p = got as { limit: number; offset: number; page: number; page_size: number };
          expect(p.page_size).toBe(p.limit);
          expect(p.limit).toBeGreaterThanOrEqual(1);
          expect(p.limit).toBeLessThanOrEqual(cap);
          expect(p.offset).toBeGreaterThanOrEqual(0);
          expect(p.offset).toBeLessThanOrEqual(MAX_OFFSET);
          expect(p.page).toBe(Math.floor(p.offset / p.limit) + 1);
          // `offset` wins over `page`; `limit` over `page_size`.
          if (given.offset === undefined && given.page !== undefined)
            expect(p.offset).toBe((Number(given.page) - 1) * p.limit);
          if (given.limit === undefined && given.page_size !== undefined)
            expect(p.limit).toBe(Math.min(cap, Number(given.page_size)));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("every catalog route declares its schema", () => {
  it("with a 200 (or, for the announced price history, its 404) and its codes", () => {
    for (const r of catalogRoutes) {
      expect(r.schema, `${r.method} ${r.path}`).toBeDefined();
      const statuses = Object.keys(r.schema!.responses);
      expect(statuses.includes("200") || r.path.endsWith("/price-history"), `${r.method} ${r.path}`).toBe(true);
    }
  });
});
