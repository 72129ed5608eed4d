import { describe, it, expect } from "vitest";
import { useCatalogKey, type Api } from "../helpers.ts";
import { responseProblem, z } from "../../emulator/pipeline/schema.ts";
import { CATALOG } from "../../contract/index.ts";

// The Card Data wire in the official SDK's shapes (docs/decisions.md "Catalog"):
// TCGplayer ids and One Piece stats are strings, a `select=` answer is a
// documented variant beside the full shape (not merged into it), and the page
// fields beside `data` are part of the documented envelope.

type Obj = Record<string, unknown>;
let api: Api;
let key: string;
useCatalogKey((c) => ({ api, key } = c));

const get = (path: string, query: Record<string, string | number> = {}) =>
  api.get(path).query(query).set("X-API-Key", key);

describe("catalog wire types", () => {
  it("a card's tcgplayer_id is a string of digits or null, on every game", async () => {
    let strings = 0;
    for (const game of ["pokemon", "onepiece", "azuki"]) {
      const res = await get(`/api/v1/${game}/cards`, { page_size: 100 }).expect(200);
      for (const c of res.body.data as Obj[]) {
        expect("tcgplayer_id" in c).toBe(true);
        if (c.tcgplayer_id !== null) {
          expect(c.tcgplayer_id).toMatch(/^\d+$/);
          strings++;
        }
      }
    }
    expect(strings).toBeGreaterThan(50);
    const ja = await get("/api/v1/pokemon/cards", { page_size: 100, language: "ja" }).expect(200);
    for (const c of ja.body.data as Obj[])
      expect(c.tcgplayer_id === null || /^\d+$/.test(String(c.tcgplayer_id))).toBe(true);
  });

  it("a sealed product's tcgplayer_id, when present, is a string of digits", async () => {
    const res = await get("/api/v1/pokemon/sealed", { page_size: 100, language: "all" }).expect(200);
    const ids = (res.body.data as Obj[]).filter((p) => p.tcgplayer_id !== undefined).map((p) => p.tcgplayer_id);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/^\d+$/);
  });

  it("One Piece cost, power, counter and life are strings; q ranges and orderBy still treat them as numbers", async () => {
    const res = await get("/api/v1/onepiece/cards", { q: "cost:[3 TO 5]", orderBy: "-power", page_size: 100 }).expect(
      200,
    );
    const rows = res.body.data as Obj[];
    expect(rows.length).toBeGreaterThan(5);
    for (const c of rows) {
      expect(c.cost).toMatch(/^\d+$/);
      expect(Number(c.cost)).toBeGreaterThanOrEqual(3);
      expect(Number(c.cost)).toBeLessThanOrEqual(5);
    }
    const powers = rows.filter((c) => c.power !== undefined).map((c) => Number(c.power));
    expect(powers).toEqual([...powers].sort((a, b) => b - a));
    for (const c of rows) expect(["string", "undefined"]).toContain(typeof c.power);
    expect(powers.length).toBeGreaterThan(5);
    const leaders = await get("/api/v1/onepiece/cards", { q: "type:Leader", page_size: 20 }).expect(200);
    const lives = (leaders.body.data as Obj[]).filter((c) => c.life !== undefined);
    expect(lives.length).toBeGreaterThan(0);
    for (const c of lives) expect(c.life).toMatch(/^\d+$/);
    const countered = await get("/api/v1/onepiece/cards", { q: "counter:[1000 TO *]", page_size: 20 }).expect(200);
    expect(countered.body.data.length).toBeGreaterThan(0);
    for (const c of countered.body.data as Obj[]) expect(Number(c.counter)).toBeGreaterThanOrEqual(1000);
  });

  it("select still answers only the selected fields (and id)", async () => {
    const res = await get("/api/v1/pokemon/cards", { select: "name", page_size: 3 }).expect(200);
    for (const c of res.body.data as Obj[]) expect(Object.keys(c).sort()).toEqual(["id", "name"]);
    const one = await get("/api/v1/pokemon/sealed", { select: "name", page_size: 1 }).expect(200);
    expect(Object.keys(one.body.data[0]).sort()).toEqual(["id", "name"]);
  });
});

describe("catalog response schemas", () => {
  const partial = { id: "base1-4", name: "Charizard" };

  it("without select a partial card is outside the schema; with select it is the documented variant", () => {
    expect(responseProblem(CATALOG.cardsGet.schema, 200, partial, { query: new URLSearchParams() })).toMatch(/^data\./);
    expect(
      responseProblem(CATALOG.cardsGet.schema, 200, partial, { query: new URLSearchParams("select=name") }),
    ).toBeNull();
    expect(
      responseProblem(CATALOG.cardsSearch.schema, 200, [partial], {
        query: new URLSearchParams("select=name"),
        top: { page: 1, page_size: 100, total_count: 1, language: "en" },
      }),
    ).toBeNull();
  });

  it("a page's fields beside data are checked", () => {
    expect(
      responseProblem(CATALOG.expansionsSearch.schema, 200, [], {
        query: new URLSearchParams(),
        top: { page: 1, page_size: 100, total_count: "0", language: "en" },
      }),
    ).toMatch(/total_count/);
  });

  it("the OpenAPI document declares the full shape, the page fields and the select variant", async () => {
    const doc = (await api.get("/_emulator/openapi.json")).body as {
      paths: Record<string, Record<string, { responses: Record<string, Obj> }>>;
      components: { schemas: Record<string, Obj> };
    };
    // Named shapes are components, referenced from each answer.
    const deref = (schema: Obj): Obj =>
      typeof schema.$ref === "string"
        ? doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")]!
        : schema;
    const ok = doc.paths["/api/v1/{game}/cards"]!.get!.responses["200"]!;
    const body = (ok.content as { "application/json": { schema: { allOf: Obj[] } } })["application/json"].schema
      .allOf[1]!;
    expect(body.required).toEqual(expect.arrayContaining(["page", "page_size", "total_count"]));
    expect(Object.keys(body.properties as Obj)).toEqual(
      expect.arrayContaining(["data", "page", "page_size", "total_count", "language"]),
    );
    const ref = ((body.properties as Obj).data as { items: Obj }).items;
    expect(ref).toEqual({ $ref: "#/components/schemas/Card" });
    const item = deref(ref);
    expect(item.required).toEqual(
      expect.arrayContaining(["id", "name", "number", "images", "expansion", "tcgplayer_id", "variants"]),
    );
    expect((item.properties as Obj).tcgplayer_id).toMatchObject({ type: ["string", "null"] });
    expect((item.properties as Obj).cost).toMatchObject({ type: "string" });
    const variants = ok["x-data-variants"] as { query: string; schema: { items: Obj } }[];
    expect(variants).toHaveLength(1);
    expect(variants[0]!.query).toBe("select");
    expect(variants[0]!.schema.items.required).toEqual(["id"]);
  });
});

describe("the select variant is declared with zod", () => {
  it("is the partial shape with id required", () => {
    const v = CATALOG.cardsGet.schema.responses[200].variant!;
    expect(v.query).toBe("select");
    expect((v.data as z.ZodType).safeParse({ id: "x" }).success).toBe(true);
    expect((v.data as z.ZodType).safeParse({ name: "x" }).success).toBe(false);
  });
});
