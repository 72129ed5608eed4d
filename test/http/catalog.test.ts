import { describe, it, expect } from "vitest";
import { startEmulator, useCatalogKey, type Api } from "../helpers.ts";
import { CATALOG_EDGE_CASES } from "../../fixtures/catalog/index.ts";
import { expectError } from "../../conformance/assert.ts";

let api: Api;
let key: string;
useCatalogKey((c) => ({ api, key } = c));

const get = (path: string, query: Record<string, string | number> = {}) =>
  api.get(path).query(query).set("X-API-Key", key);
const err = async (path: string, query: Record<string, string | number>, status: number, code: string) => {
  const res = await get(path, query).expect(status);
  expect(res.body).toMatchObject({ success: false, error: code });
  expect(res.headers["x-credits-cost"]).toBe("0");
  return res.body;
};

describe("cards", () => {
  it("search returns a page with both paging conventions, English by default, 1 credit", async () => {
    const res = await get("/api/v1/pokemon/cards", { page_size: 5, page: 2 }).expect(200);
    expect(res.body.data).toHaveLength(5);
    expect(res.body).toMatchObject({
      success: true,
      page: 2,
      page_size: 5,
      language: "en",
      pagination: { limit: 5, offset: 5, has_more: true },
    });
    expect(res.body.total_count).toBeGreaterThan(100);
    for (const c of res.body.data) expect(c.language_code).toBe("en");
    expect(res.headers["x-credits-cost"]).toBe("1");
  });

  it("limit/offset page the same rows as page/page_size", async () => {
    const a = await get("/api/v1/pokemon/cards", { page: 3, page_size: 7 }).expect(200);
    const b = await get("/api/v1/pokemon/cards", { limit: 7, offset: 14 }).expect(200);
    expect(b.body.data.map((c: { id: string }) => c.id)).toEqual(a.body.data.map((c: { id: string }) => c.id));
  });

  it("q search: field match, OR, exclusion, exact, ranges, orderBy", async () => {
    const byName = await get("/api/v1/pokemon/cards", { q: "name:charizard", page_size: 100 }).expect(200);
    expect(byName.body.data.length).toBeGreaterThan(0);
    for (const c of byName.body.data) expect(c.name.toLowerCase()).toContain("charizard");
    const exact = await get("/api/v1/pokemon/cards", {
      q: '!name:"Charizard" expansion.id:base1 is_variant:false',
    }).expect(200);
    expect(exact.body.data.map((c: { id: string }) => c.id)).toEqual(["base1-4"]);
    const ored = await get("/api/v1/pokemon/cards", { q: "!id:base1-4 OR !id:base1-2", orderBy: "-number" }).expect(
      200,
    );
    expect(ored.body.data.map((c: { id: string }) => c.id)).toEqual(["base1-4", "base1-2"]);
    const excl = await get("/api/v1/pokemon/cards", { q: "expansion.id:base1 -types:fire", page_size: 100 }).expect(
      200,
    );
    for (const c of excl.body.data) expect(c.types ?? []).not.toContain("Fire");
    const range = await get("/api/v1/pokemon/cards", {
      q: "hp:[100 TO 120] expansion.id:base1",
      page_size: 100,
    }).expect(200);
    for (const c of range.body.data) expect(Number(c.hp)).toBeGreaterThanOrEqual(100);
  });

  it("language=all and pinned ids reach other languages; distinct=code keeps one row per card", async () => {
    const all = await get("/api/v1/pokemon/cards", { q: "code:sv3pt5-6", language: "all" }).expect(200);
    expect(new Set(all.body.data.map((c: { language_code: string }) => c.language_code))).toEqual(
      new Set(["en", "ja", "zh"]),
    );
    const pinned = await get("/api/v1/pokemon/cards", { q: "id:sv2a-6" }).expect(200);
    expect(pinned.body.data.map((c: { id: string }) => c.id)).toContain("sv2a-6");
    const distinct = await get("/api/v1/pokemon/cards", {
      q: "!code:base1-4",
      distinct: "code",
      language: "all",
    }).expect(200);
    expect(distinct.body.data).toHaveLength(1);
    expect(distinct.body.total_count).toBe(1);
  });

  it("get a card (case-insensitive id) with include=prices and select", async () => {
    const res = await get("/api/v1/pokemon/cards/BASE1-4", { include: "prices" }).expect(200);
    expect(res.body.data).toMatchObject({ id: "base1-4", name: "Charizard", language_code: "en" });
    expect(res.body.data.pricing).toMatchObject({ currency: "USD", market: 350, is_stale: false });
    expect(res.body.data.pricing.market_updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    for (const g of res.body.data.pricing.graded) expect(g).not.toHaveProperty("band");
    const sel = await get("/api/v1/pokemon/cards/base1-4", { select: "name,number" }).expect(200);
    expect(Object.keys(sel.body.data).sort()).toEqual(["id", "name", "number"]);
  });

  it("include=prices is present even when the card has no price data", async () => {
    const res = await get(`/api/v1/pokemon/cards/${CATALOG_EDGE_CASES.pricing.noPriceData.cardId}`, {
      include: "prices",
    }).expect(200);
    expect(res.body.data.pricing).toMatchObject({ market: null, graded: [] });
    const plain = await get(`/api/v1/pokemon/cards/${CATALOG_EDGE_CASES.pricing.noPriceData.cardId}`).expect(200);
    expect(plain.body.data).not.toHaveProperty("pricing");
    const stale = await get(`/api/v1/pokemon/cards/${CATALOG_EDGE_CASES.pricing.stale.cardId}`, {
      include: "prices",
    }).expect(200);
    expect(stale.body.data.pricing.is_stale).toBe(true);
    const nullMarket = await get(`/api/v1/pokemon/cards/${CATALOG_EDGE_CASES.pricing.nullMarket.cardId}`, {
      include: "prices",
    }).expect(200);
    expect(nullMarket.body.data.pricing.market).toBeNull();
    expect(nullMarket.body.data.pricing.graded.length).toBeGreaterThan(0);
  });

  it("prices returns the full pricing (graded bands, last_sold_at)", async () => {
    const res = await get("/api/v1/pokemon/cards/base1-4/prices").expect(200);
    expect(res.body.data.card_id).toBe("base1-4");
    expect(res.body.data.pricing.graded.some((g: { band?: unknown }) => g.band)).toBe(true);
  });

  it("printings: the family, anchor first, one terminal page", async () => {
    const res = await get("/api/v1/pokemon/cards/base1-4/printings").expect(200);
    const ids = res.body.data.map((c: { id: string }) => c.id);
    expect(ids[0]).toBe("base1-4");
    expect(ids).toEqual(expect.arrayContaining(["base1-4vfe", "PMCG1-4"]));
    expect(res.body.total_count).toBe(ids.length);
    const ja = await get("/api/v1/pokemon/cards/base1-4/printings", { language: "ja" }).expect(200);
    for (const c of ja.body.data) expect(c.language_code).toBe("ja");
  });

  it("a Pokémon id on /onepiece is not found; price history is not live and free", async () => {
    await err("/api/v1/onepiece/cards/base1-4", {}, 404, "not_found");
    const history = await get("/api/v1/pokemon/cards/base1-4/price-history").expect(404);
    expect(history.body.error).toBe("not_found");
    expect(history.headers["x-credits-cost"]).toBeUndefined();
  });
});

describe("catalog error codes (all refunded)", () => {
  it.each([
    [{ q: "name:(charizard" }, "parse_error"],
    [{ q: "flavour:fire" }, "unknown_field"],
    [{ q: "hp:[abc TO 3]" }, "invalid_value"],
    [{ q: Array.from({ length: 21 }, (_, i) => `a${i}`).join(" ") }, "query_too_complex"],
    [{ orderBy: "name,number,rarity,id" }, "query_too_complex"],
    [{ select: "name,favourite_colour" }, "invalid_select"],
    [{ include: "history" }, "invalid_include"],
    [{ language: "klingon" }, "invalid_language"],
    [{ distinct: "name" }, "invalid_distinct"],
    [{ page_size: 101 }, "invalid_pagination"],
    [{ limit: "abc" }, "invalid_pagination"],
  ])("%o → %s", async (query, code) => {
    await err("/api/v1/pokemon/cards", query as Record<string, string>, 400, code);
  });

  it("parse errors carry details.position", async () => {
    const body = await err("/api/v1/pokemon/cards", { q: "name:pikachu flavour:fire" }, 400, "unknown_field");
    expect(body.details).toEqual({ position: 13 });
    expect(body.message).toMatch(/flavour/);
  });

  it("One Piece fields are unknown on Pokémon and the other way round", async () => {
    await err("/api/v1/pokemon/cards", { q: "power:5000" }, 400, "unknown_field");
    await err("/api/v1/onepiece/cards", { q: "hp:100" }, 400, "unknown_field");
    const op = await get("/api/v1/onepiece/cards", { q: "power:[5000 TO *]" }).expect(200);
    expect(op.body.data.length).toBeGreaterThan(0);
    for (const c of op.body.data) expect(Number(c.power)).toBeGreaterThanOrEqual(5000);
  });
});

describe("expansions", () => {
  it("search, get and its cards; unlisted sets 404 but stay inline on cards; no include", async () => {
    const list = await get("/api/v1/pokemon/expansions", { orderBy: "release_date" }).expect(200);
    expect(list.body.data[0]).toMatchObject({ id: "base1", name: "Base", release_date: "1999/01/09" });
    await get("/api/v1/pokemon/expansions/base1").expect(200);
    const cards = await get("/api/v1/pokemon/expansions/base1/cards", { page_size: 100 }).expect(200);
    for (const c of cards.body.data) expect(c.expansion.id).toBe("base1");
    await err("/api/v1/pokemon/expansions/svp", {}, 404, "not_found");
    const promo = await get("/api/v1/pokemon/cards/svp-1").expect(200);
    expect(promo.body.data.expansion).toMatchObject({ id: "svp" });
    await err("/api/v1/pokemon/expansions", { include: "prices" }, 400, "invalid_include");
    await err("/api/v1/pokemon/expansions/nope", {}, 404, "not_found");
    await err("/api/v1/pokemon/expansions/nope/cards", {}, 404, "not_found");
  });
});

describe("sealed", () => {
  it("search with the product_type shorthand, get, prices with history; Azuki is MSRP-only", async () => {
    const boxes = await get("/api/v1/pokemon/sealed", { product_type: "elite_trainer_box" }).expect(200);
    expect(boxes.body.data.length).toBeGreaterThan(0);
    for (const p of boxes.body.data) expect(p.product_type).toBe("elite_trainer_box");
    await err("/api/v1/pokemon/sealed", { product_type: "starter_deck" }, 400, "invalid_value");
    const one = await get("/api/v1/pokemon/sealed/sv3pt5-elite-trainer-box", { include: "prices" }).expect(200);
    expect(one.body.data.pricing).not.toHaveProperty("history");
    const prices = await get("/api/v1/pokemon/sealed/sv3pt5-elite-trainer-box/prices").expect(200);
    expect(prices.body.data.pricing.history.length).toBeGreaterThan(0);
    const azuki = await get("/api/v1/azuki/sealed/azk1-booster-box", { include: "prices" }).expect(200);
    expect(azuki.body.data.msrp).toBeTypeOf("number");
    expect(azuki.body.data.pricing.market).toBeNull();
    await err("/api/v1/pokemon/sealed", { distinct: "code" }, 400, "invalid_distinct");
    await err("/api/v1/pokemon/sealed/nope", {}, 404, "not_found");
  });
});

describe("graded certificates", () => {
  it("single lookup (provider case-insensitive), with the card", async () => {
    const res = await get("/api/v1/grading/certs/psa/68734521").expect(200);
    expect(res.body.data).toMatchObject({
      provider: "PSA",
      cert_number: "68734521",
      card_id: "base1-4",
      card: { id: "base1-4" },
    });
    expect(res.headers["x-credits-cost"]).toBe("1");
    await err("/api/v1/grading/certs/PSA/1", {}, 404, "not_found");
  });

  it("batch by GET or POST: 1 credit, found and missing entries, ≤ 500", async () => {
    const g = await get("/api/v1/grading/certs/batch", { certs: "PSA:68734521,BGS:0012849361,PSA:1" }).expect(200);
    expect(g.body.data).toMatchObject({ found: 2, not_found: 1 });
    expect(g.headers["x-credits-cost"]).toBe("1");
    const p = await api
      .post("/api/v1/grading/certs/batch")
      .set("X-API-Key", key)
      .send({ certs: [{ provider: "PSA", cert_number: "68734521" }] })
      .expect(200);
    expect(p.body.data.results[0]).toMatchObject({ found: true, cert: { card_id: "base1-4" } });
    const big = Array.from({ length: 501 }, (_, i) => ({ provider: "PSA", cert_number: String(i) }));
    const over = await api.post("/api/v1/grading/certs/batch").set("X-API-Key", key).send({ certs: big }).expect(400);
    expect(over.body.error).toBe("invalid_pagination");
    expect(over.headers["x-credits-cost"]).toBe("0");
    expectError(
      await api.post("/api/v1/grading/certs/batch").set("X-API-Key", key).send({ certs: "PSA:1" }),
      400,
      "invalid_value",
    );
    await err("/api/v1/grading/certs/batch", {}, 400, "invalid_value");
    await err("/api/v1/grading/certs/batch", { certs: "PSA" }, 400, "invalid_value");
  });
});

describe("determinism", () => {
  it("the same seed gives the same catalog page; another seed differs in generated rows", async () => {
    const a = await api.get("/api/v1/pokemon/cards?page_size=20&page=5").set("X-API-Key", key).expect(200);
    const other = await startEmulator({ seed: 1 });
    const b = await other.api.get("/api/v1/pokemon/cards?page_size=20&page=5").set("X-API-Key", other.emu.key("demo"));
    expect(b.body.data).toEqual(a.body.data);
    await other.close();
  });
});

type Row = {
  id: string;
  code: string;
  number: string;
  language_code: string;
  market_updated_at: string;
  pricing?: { market_updated_at?: string };
};
/** Every row of a catalog search, page by page. */
async function allRows(path: string, query: Record<string, string | number>): Promise<{ rows: Row[]; total: number }> {
  const rows: Row[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const res = await get(path, { ...query, page, page_size: 100 }).expect(200);
    rows.push(...res.body.data);
    total = res.body.total_count;
    if (res.body.data.length < 100) break;
  }
  expect(rows).toHaveLength(total);
  return { rows, total };
}

describe("distinct=code is applied after the filter", () => {
  it("a language pinned in q gives the same cards as the language parameter", async () => {
    const viaParam = await allRows("/api/v1/pokemon/cards", { language: "zh", distinct: "code" });
    const viaQ = await allRows("/api/v1/pokemon/cards", { q: "language:zh", distinct: "code" });
    expect(viaParam.total).toBeGreaterThan(0);
    expect(viaQ.total).toBe(viaParam.total);
    expect(viaQ.rows.map((r) => r.id)).toEqual(viaParam.rows.map((r) => r.id));
    for (const r of viaQ.rows) expect(r.language_code).toBe("zh");
  });

  it("a pinned Chinese expansion keeps its cards, one per code", async () => {
    const plain = await allRows("/api/v1/pokemon/cards", { q: "expansion.id:cs151c" });
    const distinct = await allRows("/api/v1/pokemon/cards", { q: "expansion.id:cs151c", distinct: "code" });
    expect(distinct.total).toBe(new Set(plain.rows.map((r) => r.code)).size);
    expect(distinct.total).toBeGreaterThan(0);
    for (const r of distinct.rows) expect(r.id.startsWith("cs151c-")).toBe(true);
  });

  it.each<Record<string, string>>([
    { q: "language:ja" },
    { q: "language:ja", language: "all" },
    { q: "is_variant:true", language: "all" },
    { q: "expansion.id:PMCG1" },
    { q: "name:charizard", language: "all" },
  ])("%o: total_count counts the distinct codes of the filtered rows", async (query) => {
    const plain = await allRows("/api/v1/pokemon/cards", query);
    const distinct = await allRows("/api/v1/pokemon/cards", { ...query, distinct: "code" });
    expect(plain.total).toBeGreaterThan(0);
    expect(distinct.total).toBe(new Set(plain.rows.map((r) => r.code)).size);
    const matching = new Set(plain.rows.map((r) => r.id));
    for (const r of distinct.rows) expect(matching.has(r.id)).toBe(true);
  });

  it("the family's own printing is chosen when it matches", async () => {
    const res = await get("/api/v1/pokemon/cards", { q: "!code:sv3pt5-6", distinct: "code", language: "all" }).expect(
      200,
    );
    expect(res.body.data.map((c: Row) => c.id)).toEqual(["sv3pt5-6"]);
  });

  it("on expansion cards too", async () => {
    const res = await get("/api/v1/pokemon/expansions/cs151c/cards", {
      q: "language:zh",
      distinct: "code",
      page_size: 1,
    }).expect(200);
    expect(res.body.total_count).toBeGreaterThan(0);
  });
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
function checkStamp(c: Row) {
  expect(c.market_updated_at, c.id).toMatch(ISO);
  if (c.pricing?.market_updated_at !== undefined) expect(c.market_updated_at, c.id).toBe(c.pricing.market_updated_at);
}

describe("market_updated_at on every catalog card", () => {
  it("list (every page, with and without prices), get, printings, expansion cards, certs", async () => {
    for (const query of [{ language: "all" }, { language: "all", include: "prices" }] as Record<string, string>[]) {
      const { rows } = await allRows("/api/v1/pokemon/cards", query);
      for (const c of rows) checkStamp(c);
    }
    for (const game of ["onepiece", "azuki"])
      for (const c of (await allRows(`/api/v1/${game}/cards`, { language: "all" })).rows) checkStamp(c);
    const one = await get("/api/v1/pokemon/cards/base1-4", { include: "prices" }).expect(200);
    checkStamp(one.body.data);
    expect(one.body.data.market_updated_at).toBe(one.body.data.pricing.market_updated_at);
    for (const c of (await get("/api/v1/pokemon/cards/base1-4/printings").expect(200)).body.data) checkStamp(c);
    for (const c of (await get("/api/v1/pokemon/expansions/base1/cards", { page_size: 5 }).expect(200)).body.data)
      checkStamp(c);
    checkStamp((await get("/api/v1/grading/certs/psa/68734521").expect(200)).body.data.card);
  });

  it("cards without a priced timestamp still carry one (stale ones keep their old stamp)", async () => {
    const { noPriceData, nullMarket, stale } = CATALOG_EDGE_CASES.pricing;
    for (const id of [noPriceData.cardId, nullMarket.cardId, "azk1-001"]) {
      const game = id.startsWith("azk") ? "azuki" : "pokemon";
      const res = await get(`/api/v1/${game}/cards/${id}`).expect(200);
      expect(res.body.data.market_updated_at).toMatch(ISO);
    }
    const s = await get(`/api/v1/pokemon/cards/${stale.cardId}`, { include: "prices" }).expect(200);
    expect(s.body.data.market_updated_at).toBe(s.body.data.pricing.market_updated_at);
    expect(Date.parse("2026-01-15T12:00:00Z") - Date.parse(s.body.data.market_updated_at)).toBeGreaterThan(
      30 * 86_400_000,
    );
  });

  it("is selectable, and the same for the same seed", async () => {
    const sel = await get("/api/v1/pokemon/cards/base1-2", { select: "market_updated_at" }).expect(200);
    expect(Object.keys(sel.body.data).sort()).toEqual(["id", "market_updated_at"]);
    const other = await startEmulator({ seed: 1 });
    const b = await other.api.get("/api/v1/pokemon/cards/svp-100").set("X-API-Key", other.emu.key("demo"));
    const a = await get("/api/v1/pokemon/cards/svp-100").expect(200);
    expect(b.body.data.market_updated_at).toBe(a.body.data.market_updated_at);
    await other.close();
  });
});

describe("printings are paged like every catalog list", () => {
  const path = "/api/v1/pokemon/cards/base1-4/printings";
  it("pagination beside page/page_size/total_count, default and largest page 50", async () => {
    const res = await get(path).expect(200);
    expect(res.body).toMatchObject({
      page: 1,
      page_size: 50,
      total_count: 3,
      language: "all",
      pagination: { limit: 50, offset: 0, has_more: false },
    });
    const capped = await get(path, { page_size: 100 }).expect(200);
    expect(capped.body).toMatchObject({ page_size: 50, pagination: { limit: 50 } });
  });

  it("page/page_size and limit/offset page the same rows", async () => {
    const all = (await get(path).expect(200)).body.data.map((c: Row) => c.id);
    const p2 = await get(path, { page: 2, page_size: 1 }).expect(200);
    expect(p2.body).toMatchObject({
      page: 2,
      page_size: 1,
      total_count: 3,
      pagination: { limit: 1, offset: 1, has_more: true },
    });
    expect(p2.body.data.map((c: Row) => c.id)).toEqual([all[1]]);
    const lo = await get(path, { limit: 2, offset: 1 }).expect(200);
    expect(lo.body.data.map((c: Row) => c.id)).toEqual(all.slice(1, 3));
    expect(lo.body.pagination).toEqual({ limit: 2, offset: 1, has_more: false });
    const past = await get(path, { page: 9, page_size: 1 }).expect(200);
    expect(past.body).toMatchObject({ data: [], total_count: 3, pagination: { has_more: false } });
  });

  it("bad paging is 400 invalid_pagination", async () => {
    await err(path, { page_size: 101 }, 400, "invalid_pagination");
    await err(path, { page: 0 }, 400, "invalid_pagination");
    await err(path, { limit: "abc" }, 400, "invalid_pagination");
  });
});

describe("ranges on every comparable field over HTTP", () => {
  it("number, raw_price, hp, release date", async () => {
    const nums = await allRows("/api/v1/pokemon/cards", { q: "expansion.id:base1 number:[1 TO 10]" });
    expect(new Set(nums.rows.map((c) => Number(c.number)))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    const excl = await allRows("/api/v1/pokemon/cards", { q: "expansion.id:base1 number:{1 TO 10}" });
    expect(new Set(excl.rows.map((c) => Number(c.number)))).toEqual(new Set([2, 3, 4, 5, 6, 7, 8, 9]));
    const priced = await get("/api/v1/pokemon/cards", { q: "raw_price:[300 TO 400]", include: "prices" }).expect(200);
    expect(priced.body.data.map((c: Row) => c.id)).toContain("base1-4");
    for (const c of priced.body.data) expect(c.pricing.market).toBeGreaterThanOrEqual(300);
    await get("/api/v1/pokemon/cards", { q: "hp:[* TO 50} expansion.release_date:[1999 TO 2000]" }).expect(200);
    const names = await get("/api/v1/pokemon/cards", { q: "expansion.id:base1 name:[charizard TO charizard]" }).expect(
      200,
    );
    expect(names.body.data.map((c: Row) => c.id)).toContain("base1-4");
    await err("/api/v1/pokemon/cards", { q: "types:[a TO b]" }, 400, "invalid_value");
  });
});

describe("hostile ids and names (Object.prototype keys)", () => {
  const HOSTILE = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();

  it.each(HOSTILE)("%s as an id is 404 not_found on every catalog route", async (h) => {
    for (const game of ["pokemon", "onepiece", "azuki"]) {
      for (const p of [
        `cards/${h}`,
        `cards/${h}/prices`,
        `cards/${h}/printings`,
        `expansions/${h}`,
        `expansions/${h}/cards`,
        `sealed/${h}`,
        `sealed/${h}/prices`,
      ]) {
        await err(`/api/v1/${game}/${p}`, {}, 404, "not_found");
      }
    }
    await err(`/api/v1/grading/certs/${h}/68734521`, {}, 404, "not_found");
    await err(`/api/v1/grading/certs/PSA/${h}`, {}, 404, "not_found");
    await err(`/api/v1/grading/certs/${h}/${h}`, {}, 404, "not_found");
    const res = await api.get(`/api/v1/${h}/cards`).set("X-API-Key", key).expect(404);
    expect(res.body.error).toBe("not_found");
    const batch = await get("/api/v1/grading/certs/batch", { certs: `${h}:${h},PSA:${h}` }).expect(200);
    expect(batch.body.data).toMatchObject({ found: 0, not_found: 2 });
    const post = await api
      .post("/api/v1/grading/certs/batch")
      .set("X-API-Key", key)
      .send({ certs: [{ provider: h, cert_number: h }] })
      .expect(200);
    expect(post.body.data.results[0]).toEqual({ provider: h.toUpperCase(), cert_number: h, found: false });
  });

  it.each(HOSTILE)("%s as a query field, key or value gets the documented 400 code (or no rows)", async (h) => {
    for (const path of [
      "/api/v1/pokemon/cards",
      "/api/v1/pokemon/expansions",
      "/api/v1/pokemon/sealed",
      "/api/v1/pokemon/expansions/base1/cards",
    ]) {
      await err(path, { q: `${h}:x` }, 400, "unknown_field");
      await err(path, { q: `-${h}:1` }, 400, "unknown_field");
      await err(path, { orderBy: h }, 400, "unknown_field");
      await err(path, { orderBy: `-${h}` }, 400, "unknown_field");
      await err(path, { language: h }, 400, "invalid_language");
      await err(path, { select: h }, 400, "invalid_select");
      await err(path, { include: h }, 400, "invalid_include");
      await err(path, { distinct: h }, 400, "invalid_distinct");
      for (const field of ["id", "name", "language"]) {
        const res = await get(path, { q: `${field}:${h}` }).expect(200);
        expect(res.body).toMatchObject({ data: [], total_count: 0 });
      }
    }
    await err("/api/v1/pokemon/sealed", { product_type: h }, 400, "invalid_value");
    await err("/api/v1/pokemon/sealed", { q: `product_type:${h}` }, 400, "invalid_value");
    await err("/api/v1/pokemon/cards/base1-4", { select: h }, 400, "invalid_select");
    await err("/api/v1/pokemon/cards/base1-4/printings", { language: h }, 400, "invalid_language");
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
