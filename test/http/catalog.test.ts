import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { startEmulator, type Api, type Emulator } from "../helpers.ts";
import { CATALOG_EDGE_CASES } from "../../fixtures/catalog/index.ts";

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
let key: string;
beforeAll(async () => {
  ({ emu, api, close } = await startEmulator({ ipRateLimitPerMin: 100_000 }));
  key = (await api.post("/_emulator/keys").send({ kind: "partner", scopes: ["read:catalog"], balance: 100_000, rate_limit_per_min: 100_000 }).expect(201)).body.data.key;
});
afterAll(() => close());

const get = (path: string, query: Record<string, string | number> = {}) => api.get(path).query(query).set("X-API-Key", key);
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
    expect(res.body).toMatchObject({ success: true, page: 2, page_size: 5, language: "en", pagination: { limit: 5, offset: 5, has_more: true } });
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
    const exact = await get("/api/v1/pokemon/cards", { q: '!name:"Charizard" expansion.id:base1 is_variant:false' }).expect(200);
    expect(exact.body.data.map((c: { id: string }) => c.id)).toEqual(["base1-4"]);
    const ored = await get("/api/v1/pokemon/cards", { q: "!id:base1-4 OR !id:base1-2", orderBy: "-number" }).expect(200);
    expect(ored.body.data.map((c: { id: string }) => c.id)).toEqual(["base1-4", "base1-2"]);
    const excl = await get("/api/v1/pokemon/cards", { q: "expansion.id:base1 -types:fire", page_size: 100 }).expect(200);
    for (const c of excl.body.data) expect(c.types ?? []).not.toContain("Fire");
    const range = await get("/api/v1/pokemon/cards", { q: "hp:[100 TO 120] expansion.id:base1", page_size: 100 }).expect(200);
    for (const c of range.body.data) expect(Number(c.hp)).toBeGreaterThanOrEqual(100);
  });

  it("language=all and pinned ids reach other languages; distinct=code keeps one row per card", async () => {
    const all = await get("/api/v1/pokemon/cards", { q: "code:sv3pt5-6", language: "all" }).expect(200);
    expect(new Set(all.body.data.map((c: { language_code: string }) => c.language_code))).toEqual(new Set(["en", "ja", "zh"]));
    const pinned = await get("/api/v1/pokemon/cards", { q: "id:sv2a-6" }).expect(200);
    expect(pinned.body.data.map((c: { id: string }) => c.id)).toContain("sv2a-6");
    const distinct = await get("/api/v1/pokemon/cards", { q: "!code:base1-4", distinct: "code", language: "all" }).expect(200);
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
    const res = await get(`/api/v1/pokemon/cards/${CATALOG_EDGE_CASES.pricing.noPriceData.cardId}`, { include: "prices" }).expect(200);
    expect(res.body.data.pricing).toMatchObject({ market: null, graded: [] });
    const plain = await get(`/api/v1/pokemon/cards/${CATALOG_EDGE_CASES.pricing.noPriceData.cardId}`).expect(200);
    expect(plain.body.data).not.toHaveProperty("pricing");
    const stale = await get(`/api/v1/pokemon/cards/${CATALOG_EDGE_CASES.pricing.stale.cardId}`, { include: "prices" }).expect(200);
    expect(stale.body.data.pricing.is_stale).toBe(true);
    const nullMarket = await get(`/api/v1/pokemon/cards/${CATALOG_EDGE_CASES.pricing.nullMarket.cardId}`, { include: "prices" }).expect(200);
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
    for (const c of op.body.data) expect(c.power).toBeGreaterThanOrEqual(5000);
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
    expect(res.body.data).toMatchObject({ provider: "PSA", cert_number: "68734521", card_id: "base1-4", card: { id: "base1-4" } });
    expect(res.headers["x-credits-cost"]).toBe("1");
    await err("/api/v1/grading/certs/PSA/1", {}, 404, "not_found");
  });

  it("batch by GET or POST: 1 credit, found and missing entries, ≤ 500", async () => {
    const g = await get("/api/v1/grading/certs/batch", { certs: "PSA:68734521,BGS:0012849361,PSA:1" }).expect(200);
    expect(g.body.data).toMatchObject({ found: 2, not_found: 1 });
    expect(g.headers["x-credits-cost"]).toBe("1");
    const p = await api.post("/api/v1/grading/certs/batch").set("X-API-Key", key).send({ certs: [{ provider: "PSA", cert_number: "68734521" }] }).expect(200);
    expect(p.body.data.results[0]).toMatchObject({ found: true, cert: { card_id: "base1-4" } });
    const big = Array.from({ length: 501 }, (_, i) => ({ provider: "PSA", cert_number: String(i) }));
    const over = await api.post("/api/v1/grading/certs/batch").set("X-API-Key", key).send({ certs: big }).expect(400);
    expect(over.body.error).toBe("invalid_pagination");
    expect(over.headers["x-credits-cost"]).toBe("0");
    await api.post("/api/v1/grading/certs/batch").set("X-API-Key", key).send({ certs: "PSA:1" }).expect(400);
    await err("/api/v1/grading/certs/batch", {}, 400, "invalid_value");
    await err("/api/v1/grading/certs/batch", { certs: "PSA" }, 400, "invalid_value");
  });
});

describe("determinism", () => {
  it("the same seed gives the same catalog page; another seed differs in generated rows", async () => {
    const a = await emu.fetch("/api/v1/pokemon/cards?page_size=20&page=5", { headers: { "X-API-Key": key } });
    const other = await startEmulator({ seed: 1 });
    const b = await other.emu.fetch("/api/v1/pokemon/cards?page_size=20&page=5", { headers: { "X-API-Key": other.emu.key("demo") } });
    expect((await b.json()).data).toEqual((await a.json()).data);
    await other.close();
  });
});
