import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, newKey, type Api, type Emulator } from "../helpers.ts";
import { expectError } from "../../conformance/assert.ts";

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ emu, api, close } = await startEmulator());
});
beforeEach(() => emu.reset());
afterAll(() => close());

const usage = (key: string) => api.get("/api/v1/account/usage").set("X-API-Key", key);
const read = (key: string, path = "/api/v1/pokemon/cards/base1-4") => api.get(path).set("X-API-Key", key);

describe("GET /api/v1/account/usage", () => {
  it("shows balance (free and purchased), the plan, month-to-date usage, the reset date and the rate limit", async () => {
    const key = await newKey(api, { kind: "partner", scopes: ["read:catalog"], balance: 800 });
    await read(key).expect(200);
    await read(key).expect(200);
    const res = await usage(key).expect(200);
    expect(res.body.data).toMatchObject({
      balance: 798,
      free_credits: 498,
      purchased_credits: 300,
      plan: "Pay as you go",
      month_to_date_usage: 2,
      month_to_date_requests: 3,
      period: { month: "2026-01", start: "2026-01-01T00:00:00.000Z", end: "2026-02-01T00:00:00.000Z" },
      free_credits_monthly: 500,
      free_credits_reset_at: "2026-02-01T00:00:00.000Z",
      rate_limit: { limit_per_min: 300, window_seconds: 60 },
    });
    expect(
      res.body.data.plans.map((p: { name: string; available: boolean; status: string }) => [
        p.name,
        p.available,
        p.status,
      ]),
    ).toEqual([
      ["Pay as you go", true, "available"],
      ["Starter", false, "coming_soon"],
      ["Growth", false, "coming_soon"],
      ["Professional", false, "coming_soon"],
    ]);
  });

  it("costs 0 and agrees with every X-Credits-Remaining the key has seen", async () => {
    const key = emu.key("demo");
    const a = await read(key).expect(200);
    const miss = await read(key, "/api/v1/pokemon/cards/nope-0").expect(404);
    expectError(miss, 404, "not_found");
    expect(miss.headers["x-credits-remaining"]).toBe(a.headers["x-credits-remaining"]);
    const res = await usage(key).expect(200);
    expect(res.headers["x-credits-cost"]).toBe("0");
    expect(res.headers["x-credits-remaining"]).toBe(a.headers["x-credits-remaining"]);
    expect(String(res.body.data.balance)).toBe(res.headers["x-credits-remaining"]);
    const after = await usage(key).expect(200);
    expect(after.body.data.balance).toBe(res.body.data.balance);
  });

  it("works at a zero balance (the call is free)", async () => {
    const key = await newKey(api, { kind: "partner", balance: 0 });
    const res = await usage(key).expect(200);
    expect(res.body.data.balance).toBe(0);
    expect(res.headers["x-credits-remaining"]).toBe("0");
  });

  it("follows the monthly reset: free credits back to 500 (not stacking), usage starts again", async () => {
    const key = await newKey(api, { kind: "partner", scopes: ["read:catalog"], balance: 1000 });
    await read(key).expect(200);
    await emu.clock.advance(20 * 24 * 3600_000);
    const res = await usage(key).expect(200);
    expect(res.body.data).toMatchObject({
      balance: 1000,
      free_credits: 500,
      purchased_credits: 500,
      month_to_date_usage: 0,
      month_to_date_requests: 1,
      period: { month: "2026-02" },
      free_credits_reset_at: "2026-03-01T00:00:00.000Z",
    });
  });

  it("shows a per-key ceiling when one was granted", async () => {
    const key = await newKey(api, { kind: "partner", rate_limit_per_min: 1200 });
    const res = await usage(key).expect(200);
    expect(res.body.data.rate_limit.limit_per_min).toBe(1200);
    expect(res.headers["x-ratelimit-limit"]).toBe("1200");
  });

  it("is for metered partner keys: tenant and legacy keys get 403, a missing key 401", async () => {
    expectError(await usage(emu.key("tenant")), 403, "Insufficient permissions");
    expectError(await usage(emu.key("legacy")), 403, "Insufficient permissions");
    expectError(await api.get("/api/v1/account/usage"), 401, "API key required");
  });
});

describe("the OpenAPI document (from the route schemas)", () => {
  it("documents the top-up's usd query, its result and its 402 details, and the usage view", async () => {
    const doc = (await api.get("/_emulator/openapi.json").expect(200)).body;
    const topup = doc.paths["/api/v1/credits/topup"].post;
    expect(topup.parameters).toEqual([
      expect.objectContaining({
        name: "usd",
        in: "query",
        required: true,
        schema: expect.objectContaining({ type: "string", pattern: "^\\d{1,7}(\\.\\d{1,2})?$" }),
      }),
    ]);
    const r402 = topup.responses["402"].content["application/json"].schema.allOf[1].properties;
    expect(r402.error.enum).toEqual(["insufficient_credits"]);
    expect(
      r402.details.anyOf.map((d: { properties: { x402_error: { const: string } } }) => d.properties.x402_error.const),
    ).toEqual(["payment_required", "payment_invalid", "payment_invalid"]);
    expect(topup.responses["400"].content["application/json"].schema.allOf[1].properties.error.enum).toEqual([
      "invalid_amount",
    ]);
    expect(topup.responses["503"].content["application/json"].schema.allOf[1].properties.error.enum).toEqual([
      "chain_unavailable",
    ]);
    expect(
      Object.keys(topup.responses["200"].content["application/json"].schema.allOf[1].properties.data.properties),
    ).toEqual(["credits_granted", "balance_credits", "usd", "tx_hash"]);
    const usageOp = doc.paths["/api/v1/account/usage"].get;
    expect(usageOp.responses["200"].content["application/json"].schema.allOf[1].properties.data.required).toEqual(
      expect.arrayContaining(["balance", "plan", "month_to_date_usage"]),
    );
  });
});
