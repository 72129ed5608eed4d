import { describe, expect, it } from "vitest";
import { user, type Ctx, useMystery } from "./helpers.ts";

// Route schemas keep each field's own code when the field is MISSING (a schema
// field left required would answer the generic invalid_value), and keep the
// order the routes always checked fields in.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const M = "/api/v1/mystery";
const post = (path: string, body: unknown, key = ctx.demo) =>
  ctx.api
    .post(path)
    .set("X-API-Key", key)
    .send(body as object);
const get = (path: string, key = ctx.demo) => ctx.api.get(path).set("X-API-Key", key);
const code = (r: { status: number; body: { error?: string } }) => [r.status, r.body.error];

describe("missing fields answer their own code, in the old order", () => {
  it("sell-back", async () => {
    const wallet_address = user(ctx, 2).address;
    expect(code(await post(`${M}/sellback/quote`, {}, ctx.revenueShare))).toEqual([400, "invalid_token_ids"]);
    expect(code(await post(`${M}/sellback/quote`, { token_ids: ["1"] }, ctx.revenueShare))).toEqual([
      400,
      "invalid_wallet_address",
    ]);
    expect(code(await post(`${M}/sellback/prepare`, { wallet_address }, ctx.revenueShare))).toEqual([
      400,
      "invalid_token_ids",
    ]);
    expect(code(await post(`${M}/sellback/submit`, { wallet_address: "nope" }, ctx.revenueShare))).toEqual([
      400,
      "missing_tx_hash",
    ]);
  });

  it("purchases", async () => {
    expect(code(await post(`${M}/purchase/prepare`, {}))).toEqual([400, "invalid_tier"]);
    expect(code(await post(`${M}/purchase/prepare`, { tier_id: 1 }))).toEqual([400, "invalid_wallet_address"]);
    expect(code(await post(`${M}/purchase/submit`, { tier_id: 1 }))).toEqual([400, "missing_tx_hash"]);
    // The Idempotency-Key header is checked before the body.
    expect(code(await post(`${M}/purchase`, { tier_id: "x" }))).toEqual([400, "missing_idempotency_key"]);
    expect(code(await get(`${M}/purchases?status=nope&limit=x`))).toEqual([400, "invalid_status"]);
  });

  it("catalog, feeds, collection", async () => {
    expect(code(await get(`${M}/price`))).toEqual([400, "invalid_price_query"]);
    expect(code(await get(`${M}/feed/recent?scope=x&limit=x`))).toEqual([400, "invalid_value"]);
    expect(code(await get(`${M}/collection?limit=x`))).toEqual([400, "missing_user_identifier"]);
    expect(code(await get(`${M}/catalog/x/odds`))).toEqual([400, "invalid_tier"]);
  });
});
