import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balance, newKey, startEmulator, waitFor, type Api, type Emulator } from "../helpers.ts";
import { expectError, expectWarehouseError } from "../../conformance/assert.ts";

// Rules of the pipeline found broken by an adversarial run (issue 18, items
// 14, 15, 17, 19, 22): headers in force on every answer, credits that never
// stack, documented headers on injected faults, warehouse 500s opening issues.

const CARD = "/api/v1/pokemon/cards/base1-4";

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
beforeAll(async () => ({ emu, api, close } = await startEmulator({ ipRateLimitPerMin: 40 })));
afterAll(() => close());

const rate = (r: { headers: Record<string, string> }) => ({
  limit: r.headers["x-ratelimit-limit"],
  remaining: r.headers["x-ratelimit-remaining"],
  retryAfter: r.headers["retry-after"],
});

describe("X-RateLimit-* show the ceiling in force", () => {
  it("a 401 carries the IP window's headers (no key is known)", async () => {
    await emu.reset();
    const missing = await api.get(CARD).expect(401);
    expectError(missing, 401, "API key required");
    expect(rate(missing)).toEqual({ limit: "40", remaining: "39", retryAfter: undefined });
    const bad = await api.get(CARD).set("X-API-Key", "nope").expect(401);
    expectError(bad, 401, "API key not found or inactive");
    expect(rate(bad)).toEqual({ limit: "40", remaining: "38", retryAfter: undefined });
    expect(Number(bad.headers["x-ratelimit-reset"])).toBe(Math.ceil((emu.clock.now() + 60_000) / 1000));
  });

  it("when the IP budget is the lower, Limit/Remaining are the IP's; when the key's is, the key's", async () => {
    await emu.reset();
    const key = emu.key("demo"); // 300/min
    const first = await api.get(CARD).set("X-API-Key", key).expect(200);
    expect(rate(first)).toEqual({ limit: "40", remaining: "39", retryAfter: undefined });
    const tight = await newKey(api, { kind: "partner", scopes: ["read:catalog"], rate_limit_per_min: 3 });
    const t1 = await api.get(CARD).set("X-API-Key", tight).expect(200);
    expect(rate(t1)).toEqual({ limit: "3", remaining: "2", retryAfter: undefined });
    await api.get(CARD).set("X-API-Key", tight).expect(200);
    await api.get(CARD).set("X-API-Key", tight).expect(200);
    const refused = await api.get(CARD).set("X-API-Key", tight).expect(429);
    expect(refused.body.error).toBe("rate_limited");
    expect(rate(refused)).toMatchObject({ limit: "3", remaining: "0" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // The rate-limited key on an unknown path: the window is reported, but a 404 says nothing of retrying.
    const lost = await api.get("/api/v1/nowhere").set("X-API-Key", tight).expect(404);
    expect(lost.body.error).toBe("not_found");
    expect(rate(lost)).toEqual({ limit: "3", remaining: "0", retryAfter: undefined });
  });

  it("the IP window refusing: 429 with the IP's ceiling and a positive Retry-After", async () => {
    await emu.reset();
    const key = emu.key("demo");
    for (let i = 0; i < 40; i++) await api.get(CARD).set("X-API-Key", key).expect(200);
    const refused = await api.get(CARD).set("X-API-Key", key).expect(429);
    expect(refused.body.error).toBe("rate_limited");
    expect(rate(refused).limit).toBe("40");
    expect(rate(refused).remaining).toBe("0");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    await emu.clock.advance(60_000);
  });
});

describe("free credits never stack", () => {
  it("a charge taken in January and refunded after the February reset leaves exactly 500", async () => {
    await emu.reset();
    const key = await newKey(api, { kind: "partner", scopes: ["read:catalog"] });
    await api.get(CARD).set("X-API-Key", key).expect(200);
    expect(await balance(api, key)).toBe(499);
    // To one minute before February, then a request held past midnight by a latency fault that ends in a 500.
    const feb = Date.parse("2026-02-01T00:00:00Z");
    await emu.clock.advance(feb - 60_000 - emu.clock.now());
    await api
      .post("/_emulator/faults")
      .send({ match: { path: CARD }, status: 500, error: "internal_error", latency_ms: 120_000, times: 1 })
      .expect(201);
    const held = api
      .get(CARD)
      .set("X-API-Key", key)
      .then((r) => r);
    await waitFor(
      () => emu.clock.pending().some((t) => t.at === feb + 60_000),
      "the held request to sleep on the clock",
    );
    await emu.clock.advance(120_000);
    const res = await held;
    expectError(res, 500, "internal_error");
    expect(res.headers["x-credits-cost"]).toBe("0");
    expect(res.headers["x-credits-remaining"]).toBe("500");
    expect(await balance(api, key)).toBe(500);
  });
});

describe("injected faults carry their code's documented headers", () => {
  it.each([
    ["timeout", 503, "2"],
    ["overloaded", 503, "1"],
  ])("%s → %i with Retry-After: %s and retryable: true", async (code, status, retryAfter) => {
    await emu.reset();
    await api
      .post("/_emulator/faults")
      .send({ match: { path: CARD }, status, error: code, times: 1 })
      .expect(201);
    const res = await api.get(CARD).set("X-API-Key", emu.key("demo")).expect(status);
    expect(res.body).toMatchObject({ success: false, error: code, retryable: true });
    expect(res.headers["retry-after"]).toBe(retryAfter);
    expect(res.headers["x-credits-cost"]).toBe("0");
  });
});

describe("legacy keys: X-Credits-Metering: unmetered on every answer of a metered route", () => {
  it("on 200, 403, 429 and 503", async () => {
    await emu.reset();
    const legacy = emu.key("legacy");
    const ok = await api.get(CARD).set("X-API-Key", legacy).expect(200);
    expect(ok.headers["x-credits-metering"]).toBe("unmetered");
    const noScope = await newKey(api, { kind: "legacy", scopes: ["packs:read"] });
    const denied = await api.get(CARD).set("X-API-Key", noScope).expect(403);
    expectError(denied, 403, "Insufficient permissions");
    expect(denied.headers["x-credits-metering"]).toBe("unmetered");
    await api
      .post("/_emulator/faults")
      .send({ match: { path: CARD }, status: 503, error: "overloaded", times: 1 })
      .expect(201);
    const shed = await api.get(CARD).set("X-API-Key", legacy).expect(503);
    expectError(shed, 503, "overloaded");
    expect(shed.headers["x-credits-metering"]).toBe("unmetered");
    const slow = await newKey(api, { kind: "legacy", scopes: ["read:catalog"], rate_limit_per_min: 1 });
    await api.get(CARD).set("X-API-Key", slow).expect(200);
    const limited = await api.get(CARD).set("X-API-Key", slow).expect(429);
    expect(limited.body.error).toBe("rate_limited");
    expect(limited.headers["x-credits-metering"]).toBe("unmetered");
    expect(limited.headers["x-credits-cost"]).toBeUndefined();
    // A metered key never says unmetered.
    expect(
      (await api.get(CARD).set("X-API-Key", emu.key("demo")).expect(200)).headers["x-credits-metering"],
    ).toBeUndefined();
  });
});

describe("warehouse 500s open an integration issue, injected ones included", () => {
  it("a fault answering 500 on a warehouse route opens one issue naming the route", async () => {
    await emu.reset();
    const tenant = emu.key("tenant");
    await api
      .post("/_emulator/faults")
      .send({ match: { method: "GET", path: "/api/v1/inventory" }, status: 500, error: "internal_error", times: 1 })
      .expect(201);
    const res = await api.get("/api/v1/inventory").set("X-API-Key", tenant).expect(500);
    expect(res.body).toMatchObject({ success: false, error: "internal_error", code: "internal_error" });
    const status = (await api.get("/api/v1/integration-status").set("X-API-Key", tenant).expect(200)).body.data;
    expect(status.open_issues).toBe(1);
    expect(status.issues[0]).toMatchObject({
      kind: "internal_error",
      method: "GET",
      path: "/api/v1/inventory",
      status: "OPEN",
    });
    // A 503 fault is not a 500: no issue.
    await api
      .post("/_emulator/faults")
      .send({ match: { method: "GET", path: "/api/v1/inventory" }, status: 503, error: "timeout", times: 1 })
      .expect(201);
    expectWarehouseError(await api.get("/api/v1/inventory").set("X-API-Key", tenant), 503, "timeout");
    expect(
      (await api.get("/api/v1/integration-status").set("X-API-Key", tenant).expect(200)).body.data.open_issues,
    ).toBe(1);
  });
});
