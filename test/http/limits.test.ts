import { beforeEach, describe, expect, it } from "vitest";
import { newKey, useEmulator, type Api, type Emulator } from "../helpers.ts";
import { expectError } from "../../conformance/assert.ts";

// Partner limits as the live service documents them (docs/reference/live-service.md “Rate limits and caching”):
// a window per surface (partner commerce 240/min per key, Card Data 300/min per key), the
// fresh=true budget (10 calls per minute per key, then 429 rate_limited with Retry-After),
// and the short response cache on catalog, odds, price and the feeds that fresh=true bypasses.

let emu: Emulator;
let api: Api;
useEmulator((c) => ({ emu, api } = c));
beforeEach(() => emu.reset());

const CARD = "/api/v1/pokemon/cards/base1-4";
const CATALOG = "/api/v1/mystery/catalog";
const rate = (r: { headers: Record<string, string> }) => ({
  limit: r.headers["x-ratelimit-limit"],
  remaining: r.headers["x-ratelimit-remaining"],
  retryAfter: r.headers["retry-after"],
});
const partnerKey = (extra: Record<string, unknown> = {}) =>
  newKey(api, { kind: "partner", scopes: ["read:catalog", "packs:read"], ...extra });

describe("a rate-limit window per surface", () => {
  it("partner commerce counts on its 240/min window, Card Data on its 300/min window, apart", async () => {
    const key = await partnerKey();
    expect(rate(await api.get(CARD).set("X-API-Key", key).expect(200))).toEqual({
      limit: "300",
      remaining: "299",
      retryAfter: undefined,
    });
    expect(rate(await api.get(CATALOG).set("X-API-Key", key).expect(200))).toEqual({
      limit: "240",
      remaining: "239",
      retryAfter: undefined,
    });
    expect(rate(await api.get("/api/v1/mystery/stats").set("X-API-Key", key).expect(200))).toEqual({
      limit: "240",
      remaining: "238",
      retryAfter: undefined,
    });
    expect(rate(await api.get(CARD).set("X-API-Key", key).expect(200))).toEqual({
      limit: "300",
      remaining: "298",
      retryAfter: undefined,
    });
    // An unknown path under a surface reports that surface's window (not counted).
    const unknown = await api.get("/api/v1/mystery/nowhere").set("X-API-Key", key).expect(404);
    expect(unknown.body.error).toBe("not_found");
    expect(rate(unknown)).toEqual({ limit: "240", remaining: "238", retryAfter: undefined });
  });

  it("the partner ceiling refuses partner commerce only: 429 rate_limited, Retry-After, Card Data still answers", async () => {
    const key = await partnerKey({ partner_rate_limit_per_min: 2 });
    await api.get(CATALOG).set("X-API-Key", key).expect(200);
    await emu.clock.advance(15_000);
    await api.get("/api/v1/mystery/feed/recent").set("X-API-Key", key).expect(200);
    const refused = await api.get(CATALOG).set("X-API-Key", key);
    expectError(refused, 429, "rate_limited");
    expect(rate(refused)).toEqual({ limit: "2", remaining: "0", retryAfter: "45" });
    expect(rate(await api.get(CARD).set("X-API-Key", key).expect(200))).toEqual({
      limit: "300",
      remaining: "299",
      retryAfter: undefined,
    });
    await emu.clock.advance(45_000);
    expect(rate(await api.get(CATALOG).set("X-API-Key", key).expect(200))).toEqual({
      limit: "2",
      remaining: "0",
      retryAfter: undefined,
    });
  });

  it("the control plane shows and sets each ceiling; a tenant key on webhooks stays on its plan's window", async () => {
    const keys = (await api.get("/_emulator/keys").expect(200)).body.data.keys as Array<Record<string, unknown>>;
    expect(keys.find((k) => k.name === "demo")).toMatchObject({
      rate_limit_per_min: 300,
      partner_rate_limit_per_min: 240,
      fresh_per_min: 10,
    });
    const made = (
      await api
        .post("/_emulator/keys")
        .send({ kind: "partner", rate_limit_per_min: 500, partner_rate_limit_per_min: 480, fresh_per_min: 20 })
        .expect(201)
    ).body.data;
    expect(made).toMatchObject({ rate_limit_per_min: 500, partner_rate_limit_per_min: 480, fresh_per_min: 20 });
    expectError(
      await api.post("/_emulator/keys").send({ kind: "partner", partner_rate_limit_per_min: 0 }),
      400,
      "invalid_value",
    );
    const tenant = emu.key("tenant");
    expect(rate(await api.get("/api/v1/webhooks").set("X-API-Key", tenant).expect(200))).toEqual({
      limit: "300",
      remaining: "299",
      retryAfter: undefined,
    });
    expect(rate(await api.get("/api/v1/inventory").set("X-API-Key", tenant).expect(200))).toMatchObject({
      limit: "300",
      remaining: "298",
    });
  });
});

describe("the fresh=true budget", () => {
  it("10 per minute per key; the 11th is 429 rate_limited with Retry-After; cached reads go on", async () => {
    const key = await partnerKey();
    for (let i = 0; i < 10; i++) {
      const r = await api.get(`${CATALOG}?fresh=true`).set("X-API-Key", key).expect(200);
      // The budget is the window in force on a fresh call (fewest left).
      expect(rate(r)).toEqual({ limit: "10", remaining: String(9 - i), retryAfter: undefined });
      if (i === 4) await emu.clock.advance(20_000);
    }
    const refused = await api.get("/api/v1/mystery/price?card_id=base1-4&fresh=true").set("X-API-Key", key);
    expectError(refused, 429, "rate_limited");
    expect(refused.body.retryable).toBe(true);
    // The first five leave the window 60 s after they were made: 40 s from now.
    expect(rate(refused)).toEqual({ limit: "10", remaining: "0", retryAfter: "40" });
    // Without fresh, the same reads answer (from the cache or not) on the partner window.
    expect(rate(await api.get(CATALOG).set("X-API-Key", key).expect(200))).toEqual({
      limit: "240",
      remaining: "228",
      retryAfter: undefined,
    });
    // fresh on a read that is not cached costs nothing from the budget.
    await api.get("/api/v1/mystery/stats?fresh=true").set("X-API-Key", key).expect(200);
    await emu.clock.advance(40_000);
    expect(rate(await api.get(`${CATALOG}?fresh=true`).set("X-API-Key", key).expect(200))).toEqual({
      limit: "10",
      remaining: "4",
      retryAfter: undefined,
    });
  });

  it("per key (another key of the same account has its own); fresh_per_min sets it; fresh must be true or false", async () => {
    const a = await partnerKey({ fresh_per_min: 1, account_id: "shared" });
    const b = await partnerKey({ account_id: "shared" });
    await api.get(`${CATALOG}?fresh=1`).set("X-API-Key", a).expect(200);
    const refused = await api.get(`${CATALOG}/1/odds?fresh=true`).set("X-API-Key", a);
    expectError(refused, 429, "rate_limited");
    expect(rate(refused)).toEqual({ limit: "1", remaining: "0", retryAfter: "60" });
    await api.get(`${CATALOG}?fresh=true`).set("X-API-Key", b).expect(200);
    // fresh=false is an ordinary read
    await api.get(`${CATALOG}?fresh=false`).set("X-API-Key", a).expect(200);
    expectError(await api.get(`${CATALOG}?fresh=yes`).set("X-API-Key", b), 400, "invalid_value");
    expectError(await api.get(`/api/v1/mystery/feed/recent?fresh=maybe`).set("X-API-Key", b), 400, "invalid_value");
  });
});

describe("the response cache", () => {
  // The card's market price moves under the service (as market data does on the live one).
  const setMarket = (usd: number) => {
    const rec = emu.services.catalog.cardAnyGame("base1-4")!;
    rec.pricing!.market = usd;
  };
  const PRICE = "/api/v1/mystery/price?card_id=base1-4";
  const value = async (key: string, path = PRICE) =>
    (await api.get(path).set("X-API-Key", key).expect(200)).body.data.market_value_usdc as string;

  it("price: the 60 s cache answers until fresh=true recomputes (and refills it); then it expires on the clock", async () => {
    const original = emu.services.catalog.cardAnyGame("base1-4")!.pricing!.market;
    try {
      const key = await partnerKey();
      setMarket(10);
      expect(await value(key)).toBe("10.000000");
      setMarket(12);
      await emu.clock.advance(59_000);
      expect(await value(key)).toBe("10.000000"); // cached
      expect(await value(key, `/api/v1/mystery/price?fresh=false&card_id=base1-4`)).toBe("10.000000"); // same entry, parameter order aside
      expect(await value(key, `${PRICE}&fresh=true`)).toBe("12.000000"); // recomputed
      setMarket(14);
      expect(await value(key)).toBe("12.000000"); // the refilled entry
      await emu.clock.advance(60_000);
      expect(await value(key)).toBe("14.000000"); // expired
      // Errors are never cached: a card without a market price answers value_unknown at once.
      setMarket(null as unknown as number);
      expectError(await api.get(`${PRICE}&fresh=true`).set("X-API-Key", key), 404, "value_unknown");
      setMarket(16);
      expect(await value(key, `${PRICE}&fresh=true`)).toBe("16.000000");
    } finally {
      setMarket(original as number);
    }
  });

  it("kept per account, for 30 s on the catalog, dropped by a reset", async () => {
    const original = emu.services.catalog.cardAnyGame("base1-4")!.pricing!.market;
    try {
      const a = await partnerKey({ account_id: "acct-a" });
      const b = await partnerKey({ account_id: "acct-b" });
      setMarket(10);
      expect(await value(a)).toBe("10.000000");
      setMarket(11);
      expect(await value(b)).toBe("11.000000"); // another account: its own entry
      expect(await value(a)).toBe("10.000000");
      await emu.reset();
      const c = await partnerKey({ account_id: "acct-a" });
      expect(await value(c)).toBe("11.000000");

      // The catalog: 30 s. A change to a tier shows once the entry expires.
      const tiers = async () =>
        (await api.get(CATALOG).set("X-API-Key", c).expect(200)).body.data.tiers as Array<{
          tier_id: number;
          name: string;
        }>;
      const before = await tiers();
      const tier = emu.services.chainHost?.gateway.tiers ?? (await import("../../chain/tiers.ts")).DEFAULT_TIERS;
      const renamed = tier[0]!;
      const name = renamed.name;
      try {
        (renamed as { name: string }).name = "Renamed";
        await emu.clock.advance(29_000);
        expect((await tiers())[0]!.name).toBe(before[0]!.name);
        await emu.clock.advance(1_000);
        expect((await tiers())[0]!.name).toBe("Renamed");
      } finally {
        (renamed as { name: string }).name = name;
      }
    } finally {
      setMarket(original as number);
    }
  });
});
