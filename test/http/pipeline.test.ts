import { describe, it, expect } from "vitest";
import { startEmulator, newKey, balance, waitFor, type Api, type Emulator, useEmulator } from "../helpers.ts";
import { expectError } from "../../conformance/assert.ts";

const CARD = "/api/v1/pokemon/cards/base1-4";

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

describe("route match and envelopes", () => {
  it("GET /api/v1/health needs no key", async () => {
    const res = await api.get("/api/v1/health").expect(200);
    expect(res.body).toMatchObject({ success: true, data: { status: "ok" } });
  });

  it("GET /api/v1/health is not counted, yet carries X-RateLimit-* like every answer: where the caller's window stands", async () => {
    const key = emu.key("demo");
    const card = await api.get(CARD).set("X-API-Key", key).expect(200);
    const rate = (r: { headers: Record<string, string> }) =>
      ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"].map((h) => r.headers[h]);
    // With the key: its Card Data window, as the read just left it, twice (health counts nothing).
    for (let i = 0; i < 2; i++)
      expect(rate(await api.get("/api/v1/health").set("X-API-Key", key).expect(200))).toEqual(rate(card));
    // Without a key: the IP's window.
    const [limit, remaining, reset] = rate(await api.get("/api/v1/health").expect(200));
    // The default per-IP ceiling (3,000 a minute; emulator/config.ts).
    expect([limit, Number(remaining) <= 3000, /^\d{10}$/.test(reset!)]).toEqual(["3000", true, true]);
    expect(rate(await api.get("/api/v1/health").expect(200))[1]).toBe(remaining);
  });

  it("an unknown path under /api/v1 is 404 not_found, before any key check, never charged", async () => {
    const res = await api.get("/api/v1/nope/nothing").expect(404);
    expect(res.body).toEqual({ success: false, message: expect.any(String), error: "not_found" });
    const key = emu.key("demo");
    const before = await balance(api, key);
    expectError(await api.get("/api/v1/yugioh/cards").set("X-API-Key", key), 404, "not_found");
    const post = await api.post("/api/v1/pokemon/cards").set("X-API-Key", key).expect(404);
    expectError(post, 404, "not_found");
    expect(await balance(api, key)).toBe(before);
    // not counted against the key, but its window is reported
    expect(post.headers["x-ratelimit-limit"]).toBe("300");
    const again = await api.post("/api/v1/pokemon/cards").set("X-API-Key", key).expect(404);
    expectError(again, 404, "not_found");
    expect(again.headers["x-ratelimit-remaining"]).toBe(post.headers["x-ratelimit-remaining"]);
  });

  it("one router: an escaped param is decoded; a trailing slash, empty segment or wrong method is 404", async () => {
    const key = emu.key("demo");
    const plain = await api.get(CARD).set("X-API-Key", key).expect(200);
    const escaped = await api.get("/api/v1/pokemon/cards/base1%2D4").set("X-API-Key", key).expect(200);
    expect(escaped.body.data.id).toBe("base1-4");
    expect(escaped.body.data).toEqual(plain.body.data);
    for (const path of [`${CARD}/`, "/api/v1/pokemon//cards", "/api/v1/mystery/catalog/"]) {
      const res = expectError(await api.get(path).set("X-API-Key", key), 404, "not_found", path);
      expect(res, path).toEqual({ success: false, message: `No endpoint GET ${path}`, error: "not_found" });
    }
    const wrong = await api.delete("/api/v1/health").expect(404);
    expect(wrong.body).toEqual({ success: false, message: "No endpoint DELETE /api/v1/health", error: "not_found" });
    // The control plane routes through the same table (a `{.+}` parameter spans segments).
    expectError(await api.get("/_emulator/nope"), 404, "not_found");
  });

  it("every response carries a distinct X-Request-Id, errors and the control plane included", async () => {
    const ids = [];
    for (const path of ["/api/v1/health", "/api/v1/nope", "/api/v1/pokemon/cards/base1-4", "/_emulator/clock"]) {
      const res = await api.get(path);
      expect(res.headers["x-request-id"], path).toMatch(/^req_/);
      ids.push(res.headers["x-request-id"]);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("authentication and authorization (never charged)", () => {
  it("401 without a key or with an unknown key", async () => {
    const missing = await api.get(CARD).expect(401);
    expectError(missing, 401, "API key required");
    expect(missing.body.success).toBe(false);
    const bad = await api
      .get(CARD)
      .set("X-API-Key", "rip_v1_" + "x".repeat(43))
      .expect(401);
    expect(bad.body).toMatchObject({
      success: false,
      message: "Invalid API key",
      error: "API key not found or inactive",
    });
    expect(bad.headers["x-credits-cost"]).toBeUndefined();
  });

  it("403 for a tenant key on the catalog, and for a key without read:catalog; balance untouched", async () => {
    const tenant = emu.key("tenant");
    const res = await api.get(CARD).set("X-API-Key", tenant).expect(403);
    expect(res.body.error).toBe("Insufficient permissions");
    const noScope = await newKey(api, { kind: "partner", scopes: ["packs:read"] });
    const before = await balance(api, noScope);
    const r2 = await api.get(CARD).set("X-API-Key", noScope).expect(403);
    expect(r2.body.error).toBe("Insufficient permissions");
    expect(r2.headers["x-credits-cost"]).toBeUndefined();
    expect(await balance(api, noScope)).toBe(before);
  });
});

describe("metering", () => {
  it("charges 1 per catalog read with X-Credits-Cost / X-Credits-Remaining", async () => {
    const key = await newKey(api, { kind: "partner", scopes: ["read:catalog"] });
    const a = await api.get(CARD).set("X-API-Key", key).expect(200);
    expect(a.headers["x-credits-cost"]).toBe("1");
    expect(a.headers["x-credits-remaining"]).toBe("499");
    const b = await api.get("/api/v1/pokemon/cards?include=prices").set("X-API-Key", key).expect(200);
    expect(b.headers["x-credits-cost"]).toBe("1");
    expect(b.headers["x-credits-remaining"]).toBe("498");
  });

  it("refunds every 4xx (404, 400) and reports cost 0", async () => {
    const key = await newKey(api, { kind: "partner", scopes: ["read:catalog"] });
    const nf = await api.get("/api/v1/pokemon/cards/nope-1").set("X-API-Key", key).expect(404);
    expect(nf.body.error).toBe("not_found");
    expect(nf.headers["x-credits-cost"]).toBe("0");
    expect(nf.headers["x-credits-remaining"]).toBe("500");
    const bad = await api.get("/api/v1/pokemon/cards?limit=abc").set("X-API-Key", key).expect(400);
    expect(bad.body.error).toBe("invalid_pagination");
    expect(bad.headers["x-credits-remaining"]).toBe("500");
    expect(await balance(api, key)).toBe(500);
  });

  it("402 insufficient_credits when the balance cannot cover the call; free credits come back at the month start", async () => {
    const { emu: e2, api: a2, close: c2 } = await startEmulator({ startTime: "2026-01-31T23:59:00Z" });
    try {
      const key = await newKey(a2, { kind: "partner", scopes: ["read:catalog"], balance: 0 });
      const res = await a2.get(CARD).set("X-API-Key", key).expect(402);
      expect(res.body).toMatchObject({ success: false, error: "insufficient_credits" });
      expect(res.headers["x-credits-remaining"]).toBe("0");
      await e2.clock.advance(60_000);
      const ok = await a2.get(CARD).set("X-API-Key", key).expect(200);
      expect(ok.headers["x-credits-remaining"]).toBe("499");
    } finally {
      await c2();
    }
  });

  it("free credits reset to 500 (not stacking) while purchased credits carry over", async () => {
    const { emu: e2, api: a2, close: c2 } = await startEmulator({ startTime: "2026-03-31T12:00:00Z" });
    try {
      const key = await newKey(a2, { kind: "partner", scopes: ["read:catalog"], balance: 502 });
      await a2.get(CARD).set("X-API-Key", key).expect(200);
      expect((await a2.get(`/_emulator/credits/${key}`)).body.data).toMatchObject({
        free_credits: 499,
        purchased_credits: 2,
      });
      await e2.clock.advance(24 * 3600_000);
      expect((await a2.get(`/_emulator/credits/${key}`)).body.data).toMatchObject({
        free_credits: 500,
        purchased_credits: 2,
        balance: 502,
      });
    } finally {
      await c2();
    }
  });

  it("legacy keys are unmetered", async () => {
    const res = await api.get(CARD).set("X-API-Key", emu.key("legacy")).expect(200);
    expect(res.headers["x-credits-metering"]).toBe("unmetered");
    expect(res.headers["x-credits-cost"]).toBeUndefined();
    expect(res.headers["x-credits-remaining"]).toBeUndefined();
  });

  it("a legacy key's every answer says X-Credits-Metering: unmetered, its 403s and unmetered routes' answers included", async () => {
    const legacy = emu.key("legacy");
    const stats = await api.get("/api/v1/mystery/stats").set("X-API-Key", legacy);
    expectError(stats, 403, "Insufficient permissions");
    const info = await api.get("/api/v1/info").set("X-API-Key", legacy);
    expect(info.status).toBe(403);
    const missing = await api.get("/api/v1/pokemon/cards/no-such-card").set("X-API-Key", legacy);
    expectError(missing, 404, "not_found");
    const unknownPath = await api.get("/api/v1/nope/nothing").set("X-API-Key", legacy);
    expectError(unknownPath, 404, "not_found");
    const health = await api.get("/api/v1/health").set("X-API-Key", legacy).expect(200);
    for (const r of [stats, info, missing, unknownPath, health])
      expect(r.headers["x-credits-metering"]).toBe("unmetered");
    // Only legacy keys say so.
    const demo = await api.get("/api/v1/mystery/stats").set("X-API-Key", emu.key("tenant"));
    expect(demo.headers["x-credits-metering"]).toBeUndefined();
  });

  it("an unexpected exception is 500 internal_error without internals, and refunded", async () => {
    const key = await newKey(api, { kind: "partner", scopes: ["read:catalog"] });
    const original = emu.services.catalog.card;
    const quiet = console.error;
    console.error = () => {};
    emu.services.catalog.card = () => {
      throw new Error("SECRET database password");
    };
    try {
      const res = await api.get(CARD).set("X-API-Key", key).expect(500);
      expect(res.body).toEqual({ success: false, message: expect.any(String), error: "internal_error" });
      expect(JSON.stringify(res.body)).not.toContain("SECRET");
      expect(res.headers["x-credits-cost"]).toBe("0");
      expect(res.headers["x-credits-remaining"]).toBe("500");
    } finally {
      emu.services.catalog.card = original;
      console.error = quiet;
    }
  });
});

describe("rate limits", () => {
  it("X-RateLimit-* on every response; 429 rate_limited with Retry-After past the per-key ceiling; never charged; window rolls on the clock", async () => {
    const { emu: e2, api: a2, close: c2 } = await startEmulator();
    try {
      const key = await newKey(a2, { kind: "partner", scopes: ["read:catalog"], rate_limit_per_min: 3 });
      for (let i = 0; i < 3; i++) {
        const r = await a2.get(CARD).set("X-API-Key", key).expect(200);
        expect(r.headers["x-ratelimit-limit"]).toBe("3");
        expect(r.headers["x-ratelimit-remaining"]).toBe(String(2 - i));
        expect(Number(r.headers["x-ratelimit-reset"])).toBeGreaterThan(0);
      }
      const limited = await a2.get(CARD).set("X-API-Key", key).expect(429);
      expect(limited.body).toMatchObject({ success: false, error: "rate_limited" });
      expect(limited.headers["retry-after"]).toBe("60");
      expect(limited.headers["x-ratelimit-remaining"]).toBe("0");
      expect(limited.headers["x-credits-cost"]).toBeUndefined();
      expect(await balance(a2, key)).toBe(497);
      // errors count against the limit too, and are also decorated
      await e2.clock.advance(60_000);
      const again = await a2.get("/api/v1/pokemon/cards/none-0").set("X-API-Key", key).expect(404);
      expectError(again, 404, "not_found");
      expect(again.headers["x-ratelimit-remaining"]).toBe("2");
    } finally {
      await c2();
    }
  });

  it("the per-IP budget applies across keys, before authentication; health is exempt", async () => {
    const { emu: e2, api: a2, close: c2 } = await startEmulator({ ipRateLimitPerMin: 3 });
    try {
      await a2.get(CARD).set("X-API-Key", e2.key("demo")).expect(200);
      await a2.get(CARD).set("X-API-Key", e2.key("revenue-share")).expect(200);
      expectError(await a2.get(CARD), 401, "API key required");
      const res = await a2.get(CARD).set("X-API-Key", e2.key("legacy")).expect(429);
      expect(res.body.error).toBe("rate_limited");
      expect(res.headers["retry-after"]).toBeDefined();
      expect(res.headers["x-ratelimit-reset"]).toBeDefined();
      await a2.get("/api/v1/health").expect(200);
    } finally {
      await c2();
    }
  });
});

describe("concurrency gate", () => {
  it("sheds with 503 overloaded, Retry-After: 1, retryable: true, never charged", async () => {
    const { emu: e2, api: a2, close: c2 } = await startEmulator({ gates: { catalog: 1 } });
    try {
      const key = e2.key("demo");
      // hold one request inside the gate with an injected latency on the virtual clock
      expectError(
        await a2
          .post("/_emulator/faults")
          .send({ match: { path: "/api/v1/pokemon/cards/base1-2" }, status: 200, error: "x" }),
        400,
        "invalid_value",
      );
      await a2
        .post("/_emulator/faults")
        .send({
          match: { path: "/api/v1/pokemon/cards/base1-2" },
          status: 500,
          error: "slow_then_fail",
          latency_ms: 1000,
          times: 1,
        })
        .expect(201);
      const held = a2
        .get("/api/v1/pokemon/cards/base1-2")
        .set("X-API-Key", key)
        .then((r) => r);
      await waitFor(() => e2.services.gates.inUse("catalog") === 1, "the held request to enter the gate");
      const shed = await a2.get(CARD).set("X-API-Key", key).expect(503);
      expect(shed.body).toMatchObject({ success: false, error: "overloaded", retryable: true });
      expect(shed.headers["retry-after"]).toBe("1");
      expect(shed.headers["x-credits-cost"]).toBeUndefined();
      await e2.clock.advance(1000);
      const first = await held;
      expect(first.status).toBe(500);
      expect(first.body.error).toBe("slow_then_fail");
      expect(first.headers["x-credits-cost"]).toBe("0");
      await a2.get(CARD).set("X-API-Key", key).expect(200);
      expect(await balance(a2, key)).toBe(499);
    } finally {
      await c2();
    }
  });
});

describe("identifiers", () => {
  it("a path identifier over 255 characters is 400 identifier_too_long (refunded)", async () => {
    const key = await newKey(api, { kind: "partner", scopes: ["read:catalog"] });
    const res = await api
      .get(`/api/v1/pokemon/cards/${"a".repeat(256)}`)
      .set("X-API-Key", key)
      .expect(400);
    expect(res.body.error).toBe("identifier_too_long");
    expect(res.headers["x-credits-remaining"]).toBe("500");
    expectError(await api.get(`/api/v1/pokemon/cards/${"a".repeat(255)}`).set("X-API-Key", key), 404, "not_found");
  });
});
