import { describe, expect, it } from "vitest";
import { encodeFunctionData } from "viem";
import { cardNftAbi } from "../../chain/index.ts";
import { buy, buyRevealed, sendCalls, user, type Ctx, useMystery } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";

// Pre-flights and replays read the token as it is now: a token frozen by a pending burn, burned,
// or delivered by a PARTIALLY_FULFILLED purchase is judged like the contract would judge it.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };
const B = "/api/v1/mystery/buyback";
const cardOf = (p: Record<string, any>) =>
  p.items.find((i: { item_type: string }) => i.item_type === "CARD") as { token_id: string };
const oracle = (token_id: string, usdc: string) =>
  ctx.api.post("/_emulator/mystery/oracle").send({ token_id, usdc }).expect(200);
const burnState = (id: string) =>
  ctx.emu.chain!.publicClient.readContract({
    address: ctx.emu.chain!.addresses.cardNft,
    abi: cardNftAbi,
    functionName: "burnState",
    args: [BigInt(id)],
  });

/** Opens a redemption of the purchase's card and sends only its burn flag (the token is then frozen). */
async function freeze(key: string, p: Record<string, any>, token: string, idem: string) {
  const prep = await ctx.api
    .post("/api/v1/mystery/redemption/prepare")
    .set("X-API-Key", key)
    .send({ purchase_id: p.id, token_id: token, shipping_address: US, idempotency_key: idem })
    .expect(201);
  const calls = prep.body.data.unsigned.calls as Array<{ kind: string; to: `0x${string}`; data: `0x${string}` }>;
  await sendCalls(
    ctx,
    user(ctx, Number(idem.split("-")[1])),
    calls.filter((c) => c.kind === "burn"),
  );
  expect((await burnState(token))[1]).toBe(true);
  return { id: prep.body.data.redemption_id as number, calls };
}

describe("sell-back pre-flight reads the burn state", () => {
  it("a token frozen by a pending redemption burn is not eligible: quote says so, prepare is 409 not_eligible", async () => {
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const card = cardOf(p);
    await freeze(ctx.revenueShare, p, card.token_id, "u-2");
    const q = await ctx.api
      .post("/api/v1/mystery/sellback/quote")
      .set("X-API-Key", ctx.revenueShare)
      .send({ wallet_address: u.address, token_ids: [card.token_id] })
      .expect(200);
    expect(q.body.data.items[0]).toMatchObject({
      token_id: card.token_id,
      eligible: false,
      reason: "no_window",
      payout_micros: "0",
    });
    expect(q.body.data.eligible_token_ids).toEqual([]);
    expect(q.body.data.total_payout_micros).toBe("0");
    const prep = await ctx.api
      .post("/api/v1/mystery/sellback/prepare")
      .set("X-API-Key", ctx.revenueShare)
      .send({ wallet_address: u.address, token_ids: [card.token_id] });
    const body = expectError(prep, 409, "not_eligible");
    expect(body.details).toMatchObject({ token_id: card.token_id, reason: "no_window" });
  });

  it("a burned token (redemption completed) is no_window, not wrong_holder", async () => {
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const card = cardOf(p);
    const { id, calls } = await freeze(ctx.revenueShare, p, card.token_id, "u-2");
    await sendCalls(
      ctx,
      u,
      calls.filter((c) => c.kind !== "burn"),
    );
    await redeemToCompletion(ctx.revenueShare, id, calls);
    const q = await ctx.api
      .post("/api/v1/mystery/sellback/quote")
      .set("X-API-Key", ctx.revenueShare)
      .send({ wallet_address: u.address, token_ids: [card.token_id] })
      .expect(200);
    expect(q.body.data.items[0]).toMatchObject({ eligible: false, reason: "no_window" });
  });
});

/** Submits the burn and ships at once (manual warehouse: no clock moves, so offers stay within their deadline). */
async function redeemToCompletion(key: string, id: number, calls: Array<{ kind: string }>) {
  expect(calls.map((c) => c.kind)).toContain("burn");
  await ctx.api.post("/_emulator/mystery/warehouse").send({ mode: "manual" }).expect(200);
  const burnTx = await ctx.emu.chain!.publicClient.getContractEvents({
    address: ctx.emu.chain!.addresses.cardNft,
    abi: cardNftAbi,
    eventName: "BurnInitiated",
    fromBlock: 0n,
  });
  await ctx.api
    .post("/api/v1/mystery/redemption/submit")
    .set("X-API-Key", key)
    .send({ redemption_id: id, tx_hash: burnTx.at(-1)!.transactionHash })
    .expect(202);
  expect(
    (await ctx.api.post(`/_emulator/mystery/redemptions/${id}/start-fulfillment`).expect(200)).body.data.status,
  ).toBe("IN_FULFILLMENT");
  expect((await ctx.api.post(`/_emulator/mystery/redemptions/${id}/dispatch`).expect(200)).body.data).toMatchObject({
    status: "COMPLETED",
    burn: { is_burned: true },
  });
}

describe("items of a PARTIALLY_FULFILLED purchase", () => {
  /** A POOL purchase revealed with a one-item shortfall; its delivered card. */
  async function partial(i: number) {
    const u = user(ctx, i);
    const { purchase } = await buy(ctx, ctx.demo, u, 1);
    await ctx.api.post(`/_emulator/mystery/purchases/${purchase.id}/shortfall`).send({ items: 1 }).expect(200);
    await ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: purchase.onchain_request_id }).expect(200);
    const got = (await ctx.api.get(`/api/v1/mystery/purchase/${purchase.id}`).set("X-API-Key", ctx.demo).expect(200))
      .body.data;
    expect(got.status).toBe("PARTIALLY_FULFILLED");
    const card = cardOf(got);
    expect(card).toBeDefined();
    return { p: got as Record<string, any>, card, u };
  }

  it("can be quoted and prepared for redemption through the purchase", async () => {
    const { p, card } = await partial(0);
    const q = await ctx.api
      .post("/api/v1/mystery/redemption/quote")
      .set("X-API-Key", ctx.demo)
      .send({ purchase_id: p.id, shipping_address: US })
      .expect(200);
    expect(q.body.data).toMatchObject({ purchase_id: p.id, token_id: card.token_id });
    const r = await ctx.api
      .post("/api/v1/mystery/redemption/prepare")
      .set("X-API-Key", ctx.demo)
      .send({ purchase_id: p.id, token_id: card.token_id, shipping_address: US, idempotency_key: "pf-1" })
      .expect(201);
    expect(r.body.data).toMatchObject({ purchase_id: p.id, token_id: card.token_id, status: "PREPARED" });
    const byToken = await ctx.api
      .post("/api/v1/mystery/redemption/quote")
      .set("X-API-Key", ctx.demo)
      .send({ token_id: card.token_id, shipping_address: US })
      .expect(200);
    expect(byToken.body.data.purchase_id).toBe(p.id);
  });

  it("can be offered through POST /mystery/buyback/:purchase_id, like through the token path", async () => {
    const { p, card } = await partial(1);
    await oracle(card.token_id, "40");
    const o = await ctx.api
      .post(`${B}/${p.id}`)
      .set("X-API-Key", ctx.demo)
      .send({ token_id: card.token_id })
      .expect(201);
    expect(o.body.data).toMatchObject({
      token_id: card.token_id,
      purchase_id: p.id,
      status: "active",
      idempotent: false,
    });
    const again = await ctx.api.post(B).set("X-API-Key", ctx.demo).send({ token_id: card.token_id }).expect(201);
    expect(again.body.data).toMatchObject({ offer_id: o.body.data.offer_id, idempotent: true });
  });

  it("a purchase not yet revealed is still 409 not_fulfilled", async () => {
    const { purchase } = await buy(ctx, ctx.demo, user(ctx, 1), 1);
    expectError(
      await ctx.api
        .post("/api/v1/mystery/redemption/quote")
        .set("X-API-Key", ctx.demo)
        .send({ purchase_id: purchase.id, shipping_address: US }),
      409,
      "not_fulfilled",
    );
    expectError(await ctx.api.post(`${B}/${purchase.id}`).set("X-API-Key", ctx.demo).send({}), 409, "not_fulfilled");
  });
});

describe("buyback offers on frozen and burned tokens", () => {
  async function offered(i: number) {
    const u = user(ctx, i);
    const p = await buyRevealed(ctx, ctx.demo, u, 1);
    const card = cardOf(p);
    await oracle(card.token_id, "40");
    const o = (await ctx.api.post(B).set("X-API-Key", ctx.demo).send({ token_id: card.token_id }).expect(201)).body
      .data;
    expect(o.status).toBe("active");
    return { p, card, u, o };
  }
  const list = async (token: string) =>
    (await ctx.api.get(B).query({ token_id: token }).set("X-API-Key", ctx.demo).expect(200)).body.data.offers as Array<{
      offer_id: number;
      status: string;
    }>;

  it("a burned token's offer is no longer active: replay is 409 not_eligible (burned), list says cancelled, accept/prepare 404", async () => {
    const { p, card, o } = await offered(0);
    const { id, calls } = await freeze(ctx.demo, p, card.token_id, "u-0");
    await sendCalls(
      ctx,
      user(ctx, 0),
      calls.filter((c) => c.kind !== "burn"),
    );
    await redeemToCompletion(ctx.demo, id, calls);
    expect((await burnState(card.token_id))[2]).toBe(true);
    const replay = await ctx.api.post(B).set("X-API-Key", ctx.demo).send({ token_id: card.token_id });
    expect(expectError(replay, 409, "not_eligible").details).toMatchObject({
      token_id: card.token_id,
      reason: "burned",
    });
    expectError(
      await ctx.api.post(`${B}/${p.id}`).set("X-API-Key", ctx.demo).send({ token_id: card.token_id }),
      409,
      "not_eligible",
    );
    expect(await list(card.token_id)).toEqual([expect.objectContaining({ offer_id: o.offer_id, status: "cancelled" })]);
    expectError(
      await ctx.api.post(`${B}/${card.token_id}/accept/prepare`).set("X-API-Key", ctx.demo).send({}),
      404,
      "no_active_offer",
    );
  });

  it("a frozen token: a replay is 409 not_eligible (frozen) as creation is; the offer stays active for accept/prepare (transfer_frozen) and replays again once the burn is lifted", async () => {
    const { p, card, o } = await offered(1);
    const { id } = await freeze(ctx.demo, p, card.token_id, "u-1");
    const replay = await ctx.api.post(B).set("X-API-Key", ctx.demo).send({ token_id: card.token_id });
    expect(expectError(replay, 409, "not_eligible").details).toMatchObject({
      token_id: card.token_id,
      reason: "frozen",
    });
    expectError(
      await ctx.api.post(`${B}/${p.id}`).set("X-API-Key", ctx.demo).send({ token_id: card.token_id }),
      409,
      "not_eligible",
    );
    expect(await list(card.token_id)).toEqual([expect.objectContaining({ offer_id: o.offer_id, status: "active" })]);
    const prep = await ctx.api
      .post(`${B}/${card.token_id}/accept/prepare`)
      .set("X-API-Key", ctx.demo)
      .send({})
      .expect(200);
    expect(prep.body.data).toMatchObject({ offer_id: o.offer_id, transfer_frozen: { frozen: true } });
    await ctx.api.post(`/_emulator/mystery/redemptions/${id}/cancel`).send({}).expect(200);
    expect((await burnState(card.token_id))[1]).toBe(false);
    const again = await ctx.api.post(B).set("X-API-Key", ctx.demo).send({ token_id: card.token_id }).expect(201);
    expect(again.body.data).toMatchObject({ offer_id: o.offer_id, status: "active", idempotent: true });
  });
});

describe("redemption prepare replayed with its key", () => {
  it("answers the calls only while the holder still holds the token: moved away → 409 not_owner, as a first prepare", async () => {
    const u = user(ctx, 4);
    const p = await buyRevealed(ctx, ctx.demo, u, 1);
    const card = cardOf(p);
    const prepare = () =>
      ctx.api
        .post("/api/v1/mystery/redemption/prepare")
        .set("X-API-Key", ctx.demo)
        .send({ purchase_id: p.id, token_id: card.token_id, shipping_address: US, idempotency_key: "mv-1" });
    const first = (await prepare().expect(201)).body.data;
    expect((await prepare().expect(201)).body.data).toMatchObject({
      redemption_id: first.redemption_id,
      status: "PREPARED",
    });
    const chain = ctx.emu.chain!;
    await sendCalls(ctx, u, [
      {
        to: chain.addresses.cardNft,
        data: encodeFunctionData({
          abi: cardNftAbi,
          functionName: "transferFrom",
          args: [u.address, user(ctx, 5).address, BigInt(card.token_id)],
        }),
      },
    ]);
    expect(expectError(await prepare(), 409, "not_owner").details).toMatchObject({
      redemption_id: first.redemption_id,
    });
    // A first prepare with a new key says the same.
    const fresh = await ctx.api
      .post("/api/v1/mystery/redemption/prepare")
      .set("X-API-Key", ctx.demo)
      .send({ purchase_id: p.id, token_id: card.token_id, shipping_address: US, idempotency_key: "mv-2" });
    expect([fresh.status, fresh.body.error]).toEqual([409, "redemption_exists"]);
  });

  it("the holder's own burn flag for it does not block the replay", async () => {
    const p = await buyRevealed(ctx, ctx.demo, user(ctx, 6), 1);
    const card = cardOf(p);
    const { id } = await freeze(ctx.demo, p, card.token_id, "u-6");
    const again = await ctx.api
      .post("/api/v1/mystery/redemption/prepare")
      .set("X-API-Key", ctx.demo)
      .send({ purchase_id: p.id, token_id: card.token_id, shipping_address: US, idempotency_key: "u-6" })
      .expect(201);
    expect(again.body.data).toMatchObject({ redemption_id: id, status: "PREPARED" });
  });
});
