import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  CATALOG,
  DISTINCT_PATTERN,
  INCLUDE_PATTERN,
  PAGE_NUMBER_PATTERN,
  z,
  type IssueParams,
} from "../../contract/index.ts";
import { parseDistinct, parseInclude } from "../../contract/catalog/query-params.ts";
import { catalogRoutes } from "../../emulator/areas/catalog/routes.ts";

// The contract is the only validator of the Card Data requests (docs/decisions.md,
// "Card Data: the contract is the only validator"): the catalog routes serve the
// contract's schemas as they are, and those schemas refuse what the server refuses,
// with the server's codes and details, so the conformance suite and the OpenAPI
// document see the same rules.

/** The first issue's code (the one the pipeline answers), details and path, or "ok". */
function firstIssue(schema: z.ZodType, value: unknown) {
  const res = schema.safeParse(value);
  if (res.success) return "ok";
  const issue = res.error.issues[0]!;
  const params = issue.code === "custom" ? (issue.params as IssueParams | undefined) : undefined;
  return { code: params?.code, details: params?.details, path: issue.path.map(String).join(".") };
}

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );

describe("the catalog routes serve the contract's schemas", () => {
  it("no file under emulator/areas/catalog declares its own parse: override", () => {
    const overriding = sources("emulator/areas/catalog").filter((f) => /\bparse\s*:/.test(readFileSync(f, "utf8")));
    expect(overriding).toEqual([]);
  });

  it("each route's schema is its operation's, unchanged", () => {
    expect(catalogRoutes.length).toBeGreaterThan(0);
    for (const r of catalogRoutes) expect(r.schema, `${r.method} ${r.path}`).toBe(r.operation!.schema);
  });
});

describe("the contract refuses what the server refuses (its code, details and field)", () => {
  const cards = CATALOG.cardsSearch.schema.query;
  it.each<[string, z.ZodType, Record<string, string>, { code: string; details: unknown; path: string }]>([
    ["select", cards, { select: "nope" }, { code: "invalid_select", details: null, path: "select" }],
    [
      "include",
      CATALOG.cardsGet.schema.query,
      { include: "history" },
      { code: "invalid_include", details: null, path: "include" },
    ],
    [
      "include on expansions",
      CATALOG.expansionsGet.schema.query,
      { include: "prices" },
      { code: "invalid_include", details: null, path: "include" },
    ],
    ["q syntax", cards, { q: "name:(charizard" }, { code: "parse_error", details: { position: 5 }, path: "q" }],
    ["q length", cards, { q: "x".repeat(513) }, { code: "query_too_complex", details: null, path: "q" }],
    ["q depth", cards, { q: "((((((a))))))" }, { code: "query_too_complex", details: null, path: "q" }],
    ["language", cards, { language: "klingon" }, { code: "invalid_language", details: null, path: "language" }],
    ["distinct", cards, { distinct: "name" }, { code: "invalid_distinct", details: null, path: "distinct" }],
    [
      "distinct on sealed",
      CATALOG.sealedSearch.schema.query,
      { distinct: "" },
      { code: "invalid_distinct", details: null, path: "distinct" },
    ],
    [
      "product_type",
      CATALOG.sealedSearch.schema.query,
      { product_type: "booster_pack, starter_deck" },
      { code: "invalid_value", details: { position: 14 }, path: "product_type" },
    ],
    ["page_size range", cards, { page_size: "101" }, { code: "invalid_pagination", details: null, path: "page_size" }],
    ["page syntax", cards, { page: "3.5" }, { code: "invalid_pagination", details: null, path: "page" }],
    ["limit without an integer", cards, { limit: "abc" }, { code: "invalid_pagination", details: null, path: "limit" }],
    [
      "page × page_size",
      cards,
      { page: "101", page_size: "100" },
      { code: "invalid_pagination", details: null, path: "page" },
    ],
    [
      "the first wrong field in declared order",
      cards,
      { q: "name:(", select: "nope" },
      { code: "invalid_select", details: null, path: "select" },
    ],
  ])("%s", (_what, schema, query, expected) => {
    expect(firstIssue(schema, query)).toEqual(expected);
  });

  it("page × page_size counts the size in force: printings serve at most 50 rows a page", () => {
    const query = { page: "150", page_size: "100" };
    expect(firstIssue(CATALOG.cardsPrintings.schema.query, query)).toBe("ok");
    expect(firstIssue(CATALOG.cardsSearch.schema.query, query)).toMatchObject({ code: "invalid_pagination" });
    expect(firstIssue(CATALOG.cardsPrintings.schema.query, { page: "201", page_size: "100" })).toMatchObject({
      code: "invalid_pagination",
    });
    // offset wins over page: no product to check.
    expect(firstIssue(CATALOG.cardsSearch.schema.query, { page: "200", page_size: "100", offset: "3" })).toBe("ok");
  });

  it("parses into what the handlers read", () => {
    expect(
      CATALOG.sealedSearch.schema.query.parse({
        product_type: "BOOSTER_BOX",
        include: " prices ",
        select: "name",
        page_size: " 7 ",
        limit: "20abc",
        q: "name:box",
        language: "EN,ja",
      }),
    ).toMatchObject({
      product_type: new Set(["booster_box"]),
      include: { prices: true },
      select: ["id", "name"],
      page_size: 7,
      limit: 20,
      q: { text: "name:box", ast: { kind: "term", field: "name" } },
      language: new Set(["en", "ja"]),
      distinct: null,
    });
  });

  it("certificate batches: malformed, then over 500, empty, a cert number too long (GET and POST)", () => {
    const get = CATALOG.certsBatch.schema.query;
    const many = Array.from({ length: 501 }, (_, i) => `PSA:${i}`).join(",");
    expect(firstIssue(get, { certs: `${many},BGS` })).toMatchObject({ path: "certs" });
    expect(firstIssue(get, { certs: many })).toMatchObject({ code: "invalid_pagination", path: "certs" });
    expect(firstIssue(get, { certs: " , " })).toMatchObject({ code: "invalid_value", path: "certs" });
    expect(firstIssue(get, { certs: `PSA:1,PSA:${"9".repeat(256)}` })).toMatchObject({
      code: "identifier_too_long",
      path: "certs.1.cert_number",
    });
    const post = CATALOG.certsBatchPost.schema.body;
    const big = Array.from({ length: 501 }, () => ({ provider: "PSA", cert_number: "9".repeat(256) }));
    expect(firstIssue(post, { certs: big })).toMatchObject({ code: "invalid_pagination", path: "certs" });
    expect(firstIssue(post, { certs: [] })).toMatchObject({ code: "invalid_value", path: "certs" });
    expect(firstIssue(post, { certs: [{ provider: "PSA", cert_number: "9".repeat(256) }] })).toMatchObject({
      code: "identifier_too_long",
      path: "certs.0.cert_number",
    });
  });
});

describe("the patterns the OpenAPI document shows are the parsers' rules", () => {
  const text = fc.oneof(
    fc.string({ unit: fc.constantFrom("p", "r", "i", "c", "e", "s", "o", "d", ",", " ", "\t", "x", "1") }),
    fc.constantFrom("prices", " prices , prices ", "code", " code ", "", ",", "7", " 42 ", "4 2"),
  );
  const accepts = (f: () => unknown) => {
    try {
      f();
      return true;
    } catch {
      return false;
    }
  };

  it("include, distinct and page/page_size's digits", () => {
    fc.assert(
      fc.property(text, (v) => {
        expect(new RegExp(INCLUDE_PATTERN).test(v), `include=${JSON.stringify(v)}`).toBe(
          accepts(() => parseInclude(v, "cards")),
        );
        expect(new RegExp(DISTINCT_PATTERN).test(v), `distinct=${JSON.stringify(v)}`).toBe(
          accepts(() => parseDistinct(v)),
        );
        const strict = firstIssue(CATALOG.cardsSearch.schema.query, { page_size: v });
        const inRange = /^\s*\d+\s*$/.test(v) && Number(v) >= 1 && Number(v) <= 100;
        expect(strict === "ok", `page_size=${JSON.stringify(v)}`).toBe(
          new RegExp(PAGE_NUMBER_PATTERN).test(v) && inRange,
        );
      }),
      { numRuns: 3000 },
    );
  });
});
