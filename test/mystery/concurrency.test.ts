import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { encodeFunctionData, keccak256, toHex } from "viem";
import { cardNftAbi } from "../../chain/index.ts";
import { buy, buyRevealed, sendCalls, user } from "./helpers.ts";
import { burst, outbox, requested, slowReceipts, sold, startRace, type RaceCtx } from "./race-helpers.ts";
import { usdcOf } from "../chain-reads.ts";

// Parallel requests for one key (a transaction hash, a (partner, token) pair,
// an idempotency key) with the chain in the loop: every handler awaits the
// chain between its check and its write, so without per-key exclusion all of a
// burst passes the check. Invariants: one record per key, every caller answered
// that record (or the documented conflict), one webhook per record in the
// outbox, and totals equal to what the chain says.

let ctx: RaceCtx;
let base: string;
let undo: () => void;
beforeAll(async () => {
  ctx = await startRace();
  base = await ctx.emu.snapshot();
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await ctx.emu.restore(base);
  ctx.events.length = 0;
  ctx.rx.received.length = 0;
  undo = slowReceipts(ctx);
});
afterEach(() => undo());

const M = "/api/v1/mystery";
const N = 10;
const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };

describe("purchase submit: one transaction hash in parallel", () => {
  it("records one purchase; every caller of its partner gets it, the other partner 409 tx_already_recorded; stats match the chain", async () => {
    const u = user(ctx, 0);
    const prep = await ctx.api
      .post(`${M}/purchase/prepare`)
      .set("X-API-Key", ctx.demo)
      .send({ wallet_address: u.address, tier_id: 1 })
      .expect(200);
    const receipt = await sendCalls(ctx, u, prep.body.data.calls);
    const body = { wallet_address: u.address, tier_id: 1, transaction_hash: receipt.transactionHash };
    // acme and a rival POOL partner submit the same hash at once: one of them owns it.
    const answers = await burst(N, (i) =>
      ctx.api
        .post(`${M}/purchase/submit`)
        .set("X-API-Key", i % 3 === 2 ? ctx.rival : ctx.demo)
        .send(body),
    );
    const won = answers.filter((a) => a.status === 202);
    const lost = answers.filter((a) => a.status !== 202);
    expect(new Set(won.map((a) => a.body.data.id)).size).toBe(1);
    for (const a of lost) expect([a.status, a.body.error]).toEqual([409, "tx_already_recorded"]);
    // Whoever took the hash first owns it: all of that partner's calls won, all of the other's lost.
    const rivalWon = answers.map((a, i) => ({ a, rival: i % 3 === 2 })).filter((x) => x.a.status === 202);
    const ownerIsRival = rivalWon[0]!.rival;
    answers.forEach((a, i) => expect(a.status).toBe((i % 3 === 2) === ownerIsRival ? 202 : 409));
    const ownerKey = ownerIsRival ? ctx.rival : ctx.demo;

    const list = await ctx.api.get(`${M}/purchases?limit=100`).set("X-API-Key", ownerKey).expect(200);
    const rows = list.body.data.purchases.filter(
      (p: { transaction_hash: string }) => p.transaction_hash === receipt.transactionHash,
    );
    expect(rows).toHaveLength(1);
    const { price } = requested(ctx, receipt);
    const stats = await ctx.api.get(`${M}/stats`).set("X-API-Key", ownerKey).expect(200);
    expect(stats.body.data).toMatchObject({
      total_purchases: 1,
      total_volume: price.toString(),
      by_tier: [{ tier_id: 1, pulls: 1, volume: price.toString() }],
    });
    const box = await outbox(ctx);
    expect(box.get("purchase.submitted")).toHaveLength(1);
    expect(box.get("purchase.submitted")![0]).toMatchObject({
      purchase_id: won[0]!.body.data.id,
      transaction_hash: receipt.transactionHash,
    });
  });
});

describe("sell-back submit: one transaction hash in parallel", () => {
  it("records one sell-back; revenue and the seller's USDC equal the CardSellExecuted total; one sellback.confirmed", async () => {
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const ids = p.items.map((i: { token_id: string }) => i.token_id);
    const prep = await ctx.api
      .post(`${M}/sellback/prepare`)
      .set("X-API-Key", ctx.revenueShare)
      .send({ wallet_address: u.address, token_ids: ids })
      .expect(200);
    const before = await usdcOf(ctx.emu, u.address);
    const receipt = await sendCalls(ctx, u, prep.body.data.calls);
    const { total } = sold(ctx, receipt);
    expect(await usdcOf(ctx.emu, u.address)).toBe(before + total);
    const answers = await burst(N, () =>
      ctx.api
        .post(`${M}/sellback/submit`)
        .set("X-API-Key", ctx.revenueShare)
        .send({ transaction_hash: receipt.transactionHash }),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(new Set(answers.map((a) => a.body.data.sellback_id)).size).toBe(1);
    expect(answers[0]!.body.data.total_micros).toBe(total.toString());
    const list = await ctx.api.get(`${M}/sellbacks`).set("X-API-Key", ctx.revenueShare).expect(200);
    expect(list.body.data.sellbacks).toHaveLength(1);
    const revenue = await ctx.api.get(`${M}/revenue`).set("X-API-Key", ctx.revenueShare).expect(200);
    expect(revenue.body.data).toMatchObject({ sellback_count: 1, sellback_micros: total.toString() });
    const box = await outbox(ctx);
    expect(box.get("sellback.confirmed")).toHaveLength(1);
    expect(box.get("sellback.confirmed")![0]).toMatchObject({ transaction_hash: receipt.transactionHash });
  });
});

describe("redemption prepare in parallel", () => {
  const prepare = (key: string, body: Record<string, unknown>) =>
    ctx.api
      .post(`${M}/redemption/prepare`)
      .set("X-API-Key", key)
      .send({ shipping_address: US, ...body });

  it("one idempotency key: one redemption, every caller answered it (201)", async () => {
    const p = await buyRevealed(ctx, ctx.revenueShare, user(ctx, 2), 1);
    const card = p.items.find((i: { item_type: string }) => i.item_type === "CARD");
    const answers = await burst(N, () =>
      prepare(ctx.revenueShare, { purchase_id: p.id, token_id: card.token_id, idempotency_key: "one-key" }),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(new Set(answers.map((a) => a.body.data.redemption_id)).size).toBe(1);
    const list = await ctx.api.get(`${M}/redemptions`).set("X-API-Key", ctx.revenueShare).expect(200);
    expect(list.body.data.redemptions).toHaveLength(1);
    expect((await outbox(ctx)).get("redemption.prepared")).toHaveLength(1);
  });

  it("different keys for one token: one 201, the others 409 redemption_exists naming it", async () => {
    const p = await buyRevealed(ctx, ctx.demo, user(ctx, 0), 1);
    const card = p.items.find((i: { item_type: string }) => i.item_type === "CARD");
    const answers = await burst(N, (i) => prepare(ctx.demo, { token_id: card.token_id, idempotency_key: `k-${i}` }));
    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(1);
    const id = won[0]!.body.data.redemption_id;
    for (const a of answers.filter((x) => x.status !== 201))
      expect(a.body).toMatchObject({ error: "redemption_exists", details: { redemption_id: id } });
    const list = await ctx.api.get(`${M}/redemptions`).set("X-API-Key", ctx.demo).expect(200);
    expect(list.body.data.redemptions.map((r: { redemption_id: number }) => r.redemption_id)).toEqual([id]);
    expect((await outbox(ctx)).get("redemption.prepared")).toHaveLength(1);
  });

  it("submit of one burn in parallel: one BURN_SUBMITTED; the same hash cannot satisfy a second redemption", async () => {
    await ctx.api.post("/_emulator/mystery/warehouse").send({ mode: "manual" }).expect(200);
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const card = p.items.find((i: { item_type: string }) => i.item_type === "CARD");
    const prep = await prepare(ctx.revenueShare, {
      purchase_id: p.id,
      token_id: card.token_id,
      idempotency_key: "b-1",
    }).expect(201);
    const id = prep.body.data.redemption_id;
    const burn = await sendCalls(ctx, u, prep.body.data.unsigned.calls);
    const answers = await burst(N, () =>
      ctx.api
        .post(`${M}/redemption/submit`)
        .set("X-API-Key", ctx.revenueShare)
        .send({ redemption_id: id, tx_hash: burn.transactionHash }),
    );
    for (const a of answers) expect([a.status, a.body.data?.status]).toEqual([202, "BURN_SUBMITTED"]);
    const box = await outbox(ctx);
    expect((box.get("redemption.updated") ?? []).filter((d) => d.status === "BURN_SUBMITTED")).toHaveLength(1);

    // The operator cancels the burn on chain; dispatch then fails cleanly (no 500, not stuck IN_FULFILLMENT).
    const chain = ctx.emu.chain!;
    await chain.walletClientFor(chain.operator).sendTransaction({
      to: chain.addresses.cardNft,
      data: encodeFunctionData({ abi: cardNftAbi, functionName: "cancelBurn", args: [BigInt(card.token_id)] }),
      account: chain.walletClientFor(chain.operator).account,
      chain: chain.viemChain,
    });
    await ctx.api.post(`/_emulator/mystery/redemptions/${id}/start-fulfillment`).expect(200);
    const dispatched = await ctx.api.post(`/_emulator/mystery/redemptions/${id}/dispatch`).expect(200);
    expect(dispatched.body.data).toMatchObject({ status: "FAILED", burn: { is_burned: false } });
    expect(dispatched.body.data.failure_reason).toMatch(/no longer pending/);
    // A new redemption of the token cannot reuse the recorded burn hash.
    const again = await prepare(ctx.revenueShare, {
      purchase_id: p.id,
      token_id: card.token_id,
      idempotency_key: "b-2",
    }).expect(201);
    const reuse = await ctx.api
      .post(`${M}/redemption/submit`)
      .set("X-API-Key", ctx.revenueShare)
      .send({ redemption_id: again.body.data.redemption_id, tx_hash: burn.transactionHash })
      .expect(409);
    expect(reuse.body.error).toBe("tx_already_recorded");
  });
});

describe("buyback offers in parallel", () => {
  /** A revealed purchase of the demo partner by user 0, and its card valued at $40 (eligible for an offer). */
  async function cardAt40() {
    const u = user(ctx, 0);
    const p = await buyRevealed(ctx, ctx.demo, u, 1);
    const card = p.items.find((i: { item_type: string }) => i.item_type === "CARD");
    await ctx.api.post("/_emulator/mystery/oracle").send({ token_id: card.token_id, usdc: "40" }).expect(200);
    return { u, p, card };
  }

  it("one (partner, token): one active offer, every caller gets it; one acceptance → one buyback.confirmed", async () => {
    const { u, p, card } = await cardAt40();
    const answers = await burst(N, (i) =>
      i % 2 === 0
        ? ctx.api.post(`${M}/buyback`).set("X-API-Key", ctx.demo).send({ token_id: card.token_id })
        : ctx.api.post(`${M}/buyback/${p.id}`).set("X-API-Key", ctx.demo).send({}),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(new Set(answers.map((a) => a.body.data.offer_id)).size).toBe(1);
    expect(answers.filter((a) => a.body.data.idempotent === false)).toHaveLength(1);
    const offers = await ctx.api.get(`${M}/buyback?token_id=${card.token_id}`).set("X-API-Key", ctx.demo).expect(200);
    expect(offers.body.data.offers).toHaveLength(1);

    await sendCalls(ctx, u, answers[0]!.body.data.calls);
    await ctx.emu.clock.advance(1);
    const box = await outbox(ctx);
    expect(box.get("buyback.confirmed")).toHaveLength(1);
    const stats = await ctx.api.get(`${M}/stats`).set("X-API-Key", ctx.demo).expect(200);
    expect(stats.body.data.buyback).toEqual({
      offers: 1,
      accepted: 1,
      offered_volume_usdc: "34.000000",
      accepted_volume_usdc: "34.000000",
    });
  });

  it("another POOL partner cannot make an offer on acme's token (404 token_not_found) and gets no buyback events", async () => {
    const { u, p, card } = await cardAt40();
    const tries = await burst(N, (i) =>
      i % 2 === 0
        ? ctx.api.post(`${M}/buyback`).set("X-API-Key", ctx.rival).send({ token_id: card.token_id })
        : ctx.api
            .post(`${M}/buyback/${i % 4 === 1 ? card.token_id : p.id}`)
            .set("X-API-Key", ctx.rival)
            .send({}),
    );
    for (const a of tries) expect([a.status, a.body.error]).toEqual([404, "token_not_found"]);
    // the owner's offer is accepted: only the owner hears of it
    const mine = await ctx.api
      .post(`${M}/buyback`)
      .set("X-API-Key", ctx.demo)
      .send({ token_id: card.token_id })
      .expect(201);
    await sendCalls(ctx, u, mine.body.data.calls);
    await ctx.emu.clock.advance(1);
    await outbox(ctx);
    const rival = ctx.events.filter((e) => e.account_id === "orbit");
    expect(rival).toEqual([]);
    expect(ctx.events.filter((e) => e.type === "buyback.confirmed").map((e) => e.account_id)).toEqual(["acme"]);
  });
});

describe("operator actions in parallel", () => {
  it("paying one payout statement twice at once mints the payout once", async () => {
    await buy(ctx, ctx.revenueShare, user(ctx, 2), 1);
    await ctx.api
      .put(`${M}/payout-wallet`)
      .set("X-API-Key", ctx.revenueShare)
      .send({ address: user(ctx, 7).address })
      .expect(200);
    await ctx.emu.clock.advance(1000);
    const closed = await ctx.api.post("/_emulator/mystery/payouts/close").send({ account_id: "nova" }).expect(200);
    const payout = closed.body.data.payouts[0];
    const before = await usdcOf(ctx.emu, user(ctx, 7).address);
    const answers = await burst(N, () => ctx.api.post(`/_emulator/mystery/payouts/${payout.payout_id}/pay`).send({}));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200))
      expect([a.status, a.body.error]).toEqual([409, "invalid_status"]);
    expect(await usdcOf(ctx.emu, user(ctx, 7).address)).toBe(before + BigInt(payout.payout_micros));
    expect((await outbox(ctx)).get("payout.paid")).toHaveLength(1);
  });

  it("fail-reveal twice at once: one 200, the other 409 invalid_status; one refund on chain and one purchase.refunded", async () => {
    const u = user(ctx, 0);
    const before = await usdcOf(ctx.emu, u.address);
    const { purchase } = await buy(ctx, ctx.demo, u, 1);
    const answers = await burst(4, () =>
      ctx.api.post(`/_emulator/mystery/purchases/${purchase.id}/fail-reveal`).send({}),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body.error).toBe("invalid_status");
    expect(await usdcOf(ctx.emu, u.address)).toBe(before);
    expect((await outbox(ctx)).get("purchase.refunded")).toHaveLength(1);
  });

  it("reads racing the worker to refund a failed reveal: no 500, one refund, one purchase.refunded", async () => {
    const u = user(ctx, 0);
    const before = await usdcOf(ctx.emu, u.address);
    const { purchase } = await buy(ctx, ctx.demo, u, 1);
    // The VRF callback reverts (the pool may not mint for this one fulfilment); nothing has read it yet.
    const chain = ctx.emu.chain!;
    const op = chain.walletClientFor(chain.operator);
    const role = (fn: "revokeRole" | "grantRole") =>
      op.sendTransaction({
        to: chain.addresses.cardNft,
        data: encodeFunctionData({
          abi: cardNftAbi,
          functionName: fn,
          args: [keccak256(toHex("MINTER_ROLE")), chain.addresses.mysteryPool],
        }),
        account: op.account,
        chain: chain.viemChain,
      });
    await role("revokeRole");
    expect((await chain.fulfillVrf(BigInt(purchase.onchain_request_id))).success).toBe(false);
    await role("grantRole");
    const answers = await burst(N, (i) =>
      i === 0
        ? ctx.api.post("/_emulator/mystery/worker/run").send({})
        : ctx.api.get(`${M}/purchase/${purchase.id}`).set("X-API-Key", ctx.demo),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(
      (await ctx.api.get(`${M}/purchase/${purchase.id}`).set("X-API-Key", ctx.demo).expect(200)).body.data.status,
    ).toBe("REFUNDED");
    expect(await usdcOf(ctx.emu, u.address)).toBe(before);
    expect((await outbox(ctx)).get("purchase.refunded")).toHaveLength(1);
  });

  it("setting the buyback float twice at once lands on the target, not twice the gap", async () => {
    const answers = await burst(N, () => ctx.api.post("/_emulator/mystery/liquidity").send({ buyback_usdc: "123.45" }));
    for (const a of answers) expect(a.status).toBe(200);
    expect(await usdcOf(ctx.emu, ctx.emu.chain!.poolSigner.address)).toBe(123_450_000n);
  });
});
