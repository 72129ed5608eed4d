import { describe, expect, it } from "vitest";
import { cardNftAbi } from "../../chain/index.ts";
import { buy, buyRevealed, sendCalls, types, user, type Ctx, useMystery } from "./helpers.ts";
import { waitFor } from "../helpers.ts";
import { expectError } from "../../conformance/assert.ts";

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const B = "/api/v1/mystery/buyback";
const MIN = 60_000;
const oracle = (token_id: string, usdc: string) =>
  ctx.api.post("/_emulator/mystery/oracle").send({ token_id, usdc }).expect(200);
const ownerOf = (id: string) =>
  ctx.emu.chain!.publicClient.readContract({
    address: ctx.emu.chain!.addresses.cardNft,
    abi: cardNftAbi,
    functionName: "ownerOf",
    args: [BigInt(id)],
  });

/** A revealed tier-1 purchase whose card is worth $40 (eligible: $10–$100). */
async function cardWorth40(i = 0) {
  const p = await buyRevealed(ctx, ctx.demo, user(ctx, i), 1);
  const card = p.items.find((x: { item_type: string }) => x.item_type === "CARD");
  await oracle(card.token_id, "40");
  return { p, card };
}

describe("buyback offers", () => {
  it("an acceptance sent from the holder's wallet is noticed from the chain's blocks, with the clock standing still", async () => {
    const { p } = await cardWorth40();
    const o = (await ctx.api.post(`${B}/${p.id}`).set("X-API-Key", ctx.demo).send({}).expect(201)).body.data;
    const before = ctx.emu.clock.now();
    await sendCalls(ctx, user(ctx, 0), o.calls);
    await waitFor(
      () => ctx.events.some((e) => e.type === "buyback.confirmed"),
      "buyback.confirmed after the acceptance block",
    );
    expect(ctx.emu.clock.now()).toBe(before);
    expect(ctx.events.filter((e) => e.type === "buyback.confirmed")).toHaveLength(1);
  });

  it("signs an offer at 85% of value; holder accepts on chain → buyback.confirmed net of the fee", async () => {
    const { p, card } = await cardWorth40();
    const res = await ctx.api.post(`${B}/${p.id}`).set("X-API-Key", ctx.demo).send({}).expect(201);
    const o = res.body.data;
    expect(o).toMatchObject({
      purchase_id: p.id,
      token_id: card.token_id,
      price: "34000000",
      price_usdc: "34.000000",
      marketplace_fee_usdc: "0.850000",
      seller_receives_usdc: "33.150000",
      status: "active",
      requester: ctx.emu.chain!.poolSigner.address,
      target: user(ctx, 0).address,
    });
    expect(o.offer_signature).toMatch(/^0x[0-9a-f]{130}$/);
    // token path and POST /buyback replay the active offer (idempotent per token)
    const replay = await ctx.api.post(B).set("X-API-Key", ctx.demo).send({ token_id: card.token_id }).expect(201);
    expect(replay.body.data).toMatchObject({ offer_id: o.offer_id, idempotent: true });
    expect(
      (await ctx.api.post(`${B}/${card.token_id}`).set("X-API-Key", ctx.demo).send({}).expect(201)).body.data.offer_id,
    ).toBe(o.offer_id);

    await sendCalls(ctx, user(ctx, 0), o.calls);
    expect(await ownerOf(card.token_id)).toBe(ctx.emu.chain!.poolSigner.address);
    await ctx.emu.clock.advance(1);
    const confirmed = ctx.events.find((e) => e.type === "buyback.confirmed")!;
    expect(confirmed.data).toMatchObject({
      offer_id: o.offer_id,
      token_id: card.token_id,
      status: "accepted",
      seller_receives_usdc: "33.150000",
      purchase_id: p.id,
    });
    const offers = await ctx.api.get(`${B}?token_id=${card.token_id}`).set("X-API-Key", ctx.demo).expect(200);
    expect(offers.body.data.offers[0]).toMatchObject({ status: "accepted" });
    const byPurchase = await ctx.api.get(`${B}/${p.id}`).set("X-API-Key", ctx.demo).expect(200);
    expect(byPurchase.body.data.offers).toHaveLength(1);
    const stats = await ctx.api.get("/api/v1/mystery/stats").set("X-API-Key", ctx.demo).expect(200);
    expect(stats.body.data.buyback).toEqual({
      offers: 1,
      accepted: 1,
      offered_volume_usdc: "34.000000",
      accepted_volume_usdc: "34.000000",
    });
  });

  it("forwarding: no pool wallet → exactly one transfer_held, retried every 15 min; wallet set → card_transferred", async () => {
    const { p, card } = await cardWorth40();
    const o = (await ctx.api.post(`${B}/${p.id}`).set("X-API-Key", ctx.demo).send({}).expect(201)).body.data;
    await sendCalls(ctx, user(ctx, 0), o.calls);
    await ctx.emu.clock.advance(1);
    await ctx.emu.clock.advance(45 * MIN);
    expect(types(ctx).filter((t) => t.startsWith("buyback."))).toEqual(["buyback.confirmed", "buyback.transfer_held"]);
    expect(ctx.events.find((e) => e.type === "buyback.transfer_held")!.data).toMatchObject({
      offer_id: o.offer_id,
      token_id: card.token_id,
      reason: "pool_wallet_not_set",
    });
    const pool = ctx.emu.chain!.spareAccounts[0]!.address;
    expect((await ctx.api.get("/api/v1/mystery/pool-wallet").set("X-API-Key", ctx.demo).expect(404)).body.error).toBe(
      "pool_wallet_not_set",
    );
    await ctx.api
      .put("/api/v1/mystery/pool-wallet")
      .set("X-API-Key", ctx.demo)
      .send({ wallet_address: pool })
      .expect(200);
    await ctx.emu.clock.advance(15 * MIN);
    const moved = ctx.events.find((e) => e.type === "buyback.card_transferred")!;
    expect(moved.data).toMatchObject({
      offer_id: o.offer_id,
      token_id: card.token_id,
      to_address: pool,
      contract_address: ctx.emu.chain!.addresses.cardNft,
    });
    expect(await ownerOf(card.token_id)).toBe(pool);
    expect(types(ctx).filter((t) => t === "buyback.transfer_held")).toHaveLength(1);
  });

  it("10 failed attempts → one buyback.transfer_failed", async () => {
    const { p } = await cardWorth40();
    const o = (await ctx.api.post(`${B}/${p.id}`).set("X-API-Key", ctx.demo).send({}).expect(201)).body.data;
    await sendCalls(ctx, user(ctx, 0), o.calls);
    await ctx.emu.clock.advance(1);
    await ctx.emu.clock.advance(8 * 15 * MIN);
    expect(types(ctx)).not.toContain("buyback.transfer_failed");
    await ctx.emu.clock.advance(15 * MIN);
    await ctx.emu.clock.advance(60 * MIN);
    const bb = types(ctx).filter((t) => t.startsWith("buyback."));
    expect(bb).toEqual(["buyback.confirmed", "buyback.transfer_held", "buyback.transfer_failed"]);
  });

  it("value_unknown, not_eligible, insufficient_liquidity, price_too_high, token_required, not_fulfilled", async () => {
    const { p, card } = await cardWorth40();
    const create = (body: Record<string, unknown>) => ctx.api.post(B).set("X-API-Key", ctx.demo).send(body);
    expect((await create({})).body.error).toBe("token_required");
    expect((await create({ token_id: "987654" })).body.error).toBe("token_not_found");
    expect((await create({ token_id: card.token_id, offer_price_usdc: "35" })).body.error).toBe("price_too_high");
    await oracle(card.token_id, "0");
    expect((await create({ token_id: card.token_id })).body).toMatchObject({ error: "value_unknown" });
    await oracle(card.token_id, "500");
    expect((await create({ token_id: card.token_id })).body).toMatchObject({
      error: "not_eligible",
      details: { reason: "value_out_of_range" },
    });
    const packet = p.items.find((x: { item_type: string }) => x.item_type === "PACKET");
    expect((await create({ token_id: packet.token_id })).body.error).toBe("not_eligible");
    await oracle(card.token_id, "40");
    await ctx.api.post("/_emulator/mystery/liquidity").send({ buyback_usdc: "10" }).expect(200);
    expect((await create({ token_id: card.token_id })).status).toBe(409);
    expect((await create({ token_id: card.token_id })).body.error).toBe("insufficient_liquidity");
    await ctx.api.post("/_emulator/mystery/liquidity").send({ buyback_usdc: "1000000" }).expect(200);
    await create({ token_id: card.token_id, offer_price_usdc: "20" }).expect(201);
    const p2 = await buyRevealed(ctx, ctx.demo, user(ctx, 1), 2);
    expect((await ctx.api.post(`${B}/${p2.id}`).set("X-API-Key", ctx.demo).send({})).body.error).toBe("token_required");
    const { purchase } = await buy(ctx, ctx.demo, user(ctx, 1), 1);
    expect((await ctx.api.post(`${B}/${purchase.id}`).set("X-API-Key", ctx.demo).send({})).body.error).toBe(
      "not_fulfilled",
    );
    expectError(await ctx.api.get(`${B}/55555555`).set("X-API-Key", ctx.demo), 404, "not_found");
    expect((await ctx.api.get(B).set("X-API-Key", ctx.demo).expect(400)).body.error).toBe("token_required");
  });

  it("TIER partners get 403 not_pool_partner", async () => {
    const r = await ctx.api.post(B).set("X-API-Key", ctx.revenueShare).send({ token_id: "1" }).expect(403);
    expect(r.body.error).toBe("not_pool_partner");
  });
});

describe("price", () => {
  it("by token: oracle value and 85%; value_unknown; not_found", async () => {
    const { card } = await cardWorth40();
    const r = await ctx.api
      .get(`/api/v1/mystery/price?token_id=${card.token_id}`)
      .set("X-API-Key", ctx.demo)
      .expect(200);
    expect(r.body.data).toMatchObject({
      token_id: card.token_id,
      card_id: card.card_id,
      market_value_usdc: "40.000000",
      buyback_price_usdc: "34.000000",
    });
    await oracle(card.token_id, "0");
    // The price is cached ~60 s: the new oracle value shows with fresh=true.
    expect(
      (await ctx.api.get(`/api/v1/mystery/price?token_id=${card.token_id}`).set("X-API-Key", ctx.demo).expect(200)).body
        .data.market_value_usdc,
    ).toBe("40.000000");
    expect(
      (
        await ctx.api
          .get(`/api/v1/mystery/price?token_id=${card.token_id}&fresh=true`)
          .set("X-API-Key", ctx.demo)
          .expect(404)
      ).body.error,
    ).toBe("value_unknown");
    expect(
      (await ctx.api.get(`/api/v1/mystery/price?token_id=999999`).set("X-API-Key", ctx.demo).expect(404)).body.error,
    ).toBe("not_found");
  });
});
