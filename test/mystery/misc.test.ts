import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newKey } from "../helpers.ts";
import { buyRevealed, startMystery, user, type Ctx } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startMystery("manual");
});
afterAll(() => ctx.close());

const M = "/api/v1/mystery";

describe("catalog, odds, price by card", () => {
  it("catalog lists the chain's tiers under data.tiers and data.games", async () => {
    const r = await ctx.api.get(`${M}/catalog`).set("X-API-Key", ctx.demo).expect(200);
    expect(r.body.data.tiers.map((t: { tier_id: number }) => t.tier_id)).toEqual([1, 2, 3]);
    expect(r.body.data.tiers[0]).toMatchObject({
      name: "Starter",
      price_usdc: "25.000000",
      price_micros: "25000000",
      price_display: "$25.00",
      slot_count: 2,
      active: true,
    });
    expect(r.body.data.games).toEqual([{ id: "pokemon", label: "Pokémon" }]);
  });

  it("odds per tier; unknown tier → invalid_tier", async () => {
    const r = await ctx.api.get(`${M}/catalog/2/odds`).set("X-API-Key", ctx.demo).expect(200);
    expect(r.body.data).toMatchObject({ scope: "onchain", tier_id: 2, slot_count: 3 });
    const sum = r.body.data.slots[0].groups.reduce((n: number, g: { probability: number }) => n + g.probability, 0);
    expect(sum).toBeCloseTo(1);
    expect((await ctx.api.get(`${M}/catalog/9/odds`).set("X-API-Key", ctx.demo).expect(400)).body.error).toBe(
      "invalid_tier",
    );
  });

  it("price: exactly one of card_id/token_id; 85% of the card's market price; not_found; value_unknown", async () => {
    for (const q of ["", "?card_id=base1-4&token_id=1"])
      expect((await ctx.api.get(`${M}/price${q}`).set("X-API-Key", ctx.demo).expect(400)).body.error).toBe(
        "invalid_price_query",
      );
    const r = await ctx.api.get(`${M}/price?card_id=BASE1-4`).set("X-API-Key", ctx.demo).expect(200);
    expect(r.body.data).toMatchObject({
      card_id: "base1-4",
      token_id: null,
      market_value_usdc: "350.000000",
      buyback_price_usdc: "297.500000",
    });
    expect((await ctx.api.get(`${M}/price?card_id=nope-1`).set("X-API-Key", ctx.demo).expect(404)).body.error).toBe(
      "not_found",
    );
    expect((await ctx.api.get(`${M}/price?card_id=PMCG1-5`).set("X-API-Key", ctx.demo).expect(404)).body.error).toBe(
      "value_unknown",
    );
  });
});

describe("wallets and stats", () => {
  it("pool wallet: invalid_address, pool_wallet_not_set, set replaces the previous", async () => {
    const key = await newKey(ctx.api, { kind: "partner", billing_model: "POOL" });
    expect((await ctx.api.get(`${M}/pool-wallet`).set("X-API-Key", key).expect(404)).body.error).toBe(
      "pool_wallet_not_set",
    );
    expect(
      (await ctx.api.put(`${M}/pool-wallet`).set("X-API-Key", key).send({ wallet_address: "0xnope" }).expect(400)).body
        .error,
    ).toBe("invalid_address");
    expect((await ctx.api.put(`${M}/pool-wallet`).set("X-API-Key", key).send({}).expect(400)).body.error).toBe(
      "invalid_address",
    );
    const a = user(ctx, 5).address;
    await ctx.api
      .put(`${M}/pool-wallet`)
      .set("X-API-Key", key)
      .send({ wallet_address: user(ctx, 6).address })
      .expect(200);
    const set = await ctx.api
      .put(`${M}/pool-wallet`)
      .set("X-API-Key", key)
      .send({ address: a.toLowerCase() })
      .expect(200);
    expect(set.body.data).toMatchObject({ chain: "base", address: a, is_active: true });
    expect((await ctx.api.get(`${M}/pool-wallet`).set("X-API-Key", key).expect(200)).body.data.address).toBe(a);
    // pool:manage is exclusive
    const noScope = await newKey(ctx.api, { kind: "partner", billing_model: "POOL", scopes: ["packs:read"] });
    expectError(await ctx.api.get(`${M}/pool-wallet`).set("X-API-Key", noScope), 403, "Insufficient permissions");
  });

  it("payout wallet: payout:manage only; payout_wallet_not_set before set; PUT /payout-wallet and /mystery/payout-wallet", async () => {
    expectError(await ctx.api.get(`${M}/payout-wallet`).set("X-API-Key", ctx.demo), 403, "Insufficient permissions"); // demo lacks payout:manage
    expect((await ctx.api.get(`${M}/payout-wallet`).set("X-API-Key", ctx.revenueShare).expect(404)).body.error).toBe(
      "payout_wallet_not_set",
    );
    expect(
      (
        await ctx.api
          .put("/api/v1/payout-wallet")
          .set("X-API-Key", ctx.revenueShare)
          .send({ address: "42" })
          .expect(400)
      ).body.error,
    ).toBe("invalid_address");
    await ctx.api
      .put("/api/v1/payout-wallet")
      .set("X-API-Key", ctx.revenueShare)
      .send({ address: user(ctx, 7).address })
      .expect(200);
    expect(
      (await ctx.api.get(`${M}/payout-wallet`).set("X-API-Key", ctx.revenueShare).expect(200)).body.data.address,
    ).toBe(user(ctx, 7).address);
    await ctx.api
      .put(`${M}/payout-wallet`)
      .set("X-API-Key", ctx.revenueShare)
      .send({ address: user(ctx, 8).address })
      .expect(200);
    expect(
      (await ctx.api.get("/api/v1/payout-wallet").set("X-API-Key", ctx.revenueShare).expect(200)).body.data.address,
    ).toBe(user(ctx, 8).address);
  });

  it("stats count purchases and volume per tier", async () => {
    const key = await newKey(ctx.api, { kind: "partner", billing_model: "POOL" });
    await buyRevealed(ctx, key, user(ctx, 9), 1);
    const r = await ctx.api.get(`${M}/stats`).set("X-API-Key", key).expect(200);
    expect(r.body.data).toMatchObject({
      total_purchases: 1,
      fulfilled: 1,
      total_volume: "25000000",
      total_volume_usdc: "25.000000",
      by_tier: [{ tier_id: 1, pulls: 1, volume: "25000000" }],
      buyback: { offers: 0 },
    });
    expectError(await ctx.api.get(`${M}/stats`).set("X-API-Key", ctx.tenant), 403, "Insufficient permissions");
  });

  it("control plane lists the area's events", async () => {
    const r = await ctx.api.get("/_emulator/mystery/events?type=purchase.fulfilled").expect(200);
    expect(r.body.data.events.length).toBeGreaterThan(0);
  });
});

describe("without a chain", () => {
  it("chain routes answer 503 chain_unavailable after input validation; catalog still works", async () => {
    const { startEmulator } = await import("../helpers.ts");
    const { emu, api, close } = await startEmulator();
    try {
      const demo = emu.key("demo");
      expect(
        (
          await api
            .post(`${M}/purchase/prepare`)
            .set("X-API-Key", demo)
            .send({ wallet_address: user(ctx, 0).address, tier_id: 9 })
            .expect(400)
        ).body.error,
      ).toBe("invalid_tier");
      expect(
        (
          await api
            .post(`${M}/purchase/prepare`)
            .set("X-API-Key", demo)
            .send({ wallet_address: user(ctx, 0).address, tier_id: 1 })
            .expect(503)
        ).body.error,
      ).toBe("chain_unavailable");
      const cust = await api
        .post(`${M}/purchase`)
        .set("X-API-Key", demo)
        .set("Idempotency-Key", "a")
        .send({ tier_id: 1, external_user_id: "acme-user-1" })
        .expect(503);
      expect(cust.body.error).toBe("chain_unavailable");
      await api.get(`${M}/catalog`).set("X-API-Key", demo).expect(200);
    } finally {
      await close();
    }
  });
});
