import { describe, expect, it } from "vitest";
import { decodeFunctionData, encodeFunctionData } from "viem";
import { mysteryPoolAbi, usdStablecoinAbi } from "../../chain/index.ts";
import { buy, sendCalls, types, user, type Ctx, useMystery } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const P = "/api/v1/mystery";

describe("non-custodial purchase", () => {
  it("prepare returns real approve + purchase calldata and creates no rows", async () => {
    const u = user(ctx, 0);
    const res = await ctx.api
      .post(`${P}/purchase/prepare`)
      .set("X-API-Key", ctx.demo)
      .send({ wallet_address: u.address, tier_id: 1 })
      .expect(200);
    const d = res.body.data;
    const chain = ctx.emu.chain!;
    expect(d).toMatchObject({
      chain_id: chain.chainId,
      contract: chain.addresses.mysteryPool,
      payment_token: chain.addresses.stablecoin,
      max_price: "25000000",
      max_price_usdc: "25.000000",
    });
    expect(d.calls.map((c: { kind: string }) => c.kind)).toEqual(["erc20-approve", "purchase"]);
    expect(decodeFunctionData({ abi: usdStablecoinAbi, data: d.calls[0].data })).toMatchObject({
      functionName: "approve",
      args: [chain.addresses.mysteryPool, 25_000_000n],
    });
    expect(decodeFunctionData({ abi: mysteryPoolAbi, data: d.calls[1].data })).toMatchObject({
      functionName: "purchase",
      args: [1, 25_000_000n],
    });
    const list = await ctx.api.get(`${P}/purchases`).set("X-API-Key", ctx.demo).expect(200);
    expect(list.body.data.purchases).toEqual([]);
  });

  it("prepare validates the tier and the wallet", async () => {
    const u = user(ctx, 0);
    const bad = await ctx.api
      .post(`${P}/purchase/prepare`)
      .set("X-API-Key", ctx.demo)
      .send({ wallet_address: u.address, tier_id: 99 })
      .expect(400);
    expect(bad.body.error).toBe("invalid_tier");
    const w = await ctx.api
      .post(`${P}/purchase/prepare`)
      .set("X-API-Key", ctx.demo)
      .send({ wallet_address: "0x123", tier_id: 1 })
      .expect(400);
    expect(w.body.error).toBe("invalid_wallet_address");
    const cap = await ctx.api
      .post(`${P}/purchase/prepare`)
      .set("X-API-Key", ctx.demo)
      .send({ wallet_address: u.address, tier_id: 1, max_price_usdc: "10" })
      .expect(409);
    expect(cap.body.error).toBe("max_price_exceeded");
  });

  it("submit verifies the mined tx, then VRF reveals: SUBMITTED → FULFILLED with items and purchase.* events", async () => {
    const u = user(ctx, 0);
    const { purchase, receipt } = await buy(ctx, ctx.demo, u, 2);
    expect(purchase).toMatchObject({
      status: "SUBMITTED",
      custody: "NON_CUSTODIAL",
      tier_id: 2,
      price: "100000000",
      transaction_hash: receipt.transactionHash,
      purchaser_address: u.address,
      memo: `acme-${purchase.id}`,
    });
    expect(purchase.items).toBeUndefined();
    await ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: purchase.onchain_request_id }).expect(200);
    const got = await ctx.api.get(`${P}/purchase/${purchase.id}`).set("X-API-Key", ctx.demo).expect(200);
    expect(got.body.data.status).toBe("FULFILLED");
    expect(got.body.data.items.map((i: { item_type: string }) => i.item_type)).toEqual([
      "CARD",
      "GRADED_CARD",
      "PACKET",
    ]);
    for (const item of got.body.data.items) {
      expect(item.token_id).toMatch(/^\d+$/);
      expect(item.value_usd).toMatch(/^\d+\.\d\d$/);
      expect(typeof item.name).toBe("string");
    }
    expect(got.body.data.items[0].card_id).toBeTruthy();
    // demo is a POOL partner: each item drawn from its pool is a pool.item_pulled
    expect(types(ctx)).toEqual([
      "purchase.submitted",
      "purchase.fulfilled",
      "pool.item_pulled",
      "pool.item_pulled",
      "pool.item_pulled",
    ]);
    expect(ctx.events[1]!.data.items).toHaveLength(3);
    expect(ctx.events.slice(2).map((e) => e.data.token_id)).toEqual(
      got.body.data.items.map((i: { token_id: string }) => i.token_id),
    );
  });

  it("auto VRF: the clock reveals the purchase and purchase.fulfilled fires without a read", async () => {
    await ctx.api.post("/_emulator/vrf").send({ mode: "auto" }).expect(200);
    try {
      const { purchase } = await buy(ctx, ctx.demo, user(ctx, 1), 1);
      await ctx.emu.clock.advance(5_001);
      expect(types(ctx)).toContain("purchase.fulfilled");
      const row = ctx.emu.services.store.state.areas.mystery as { purchases: Record<string, { status: string }> };
      expect(row.purchases[purchase.id]!.status).toBe("FULFILLED");
    } finally {
      await ctx.api.post("/_emulator/vrf").send({ mode: "manual" }).expect(200);
    }
  });

  it("submit is idempotent on the hash, and checks hash, receipt, buyer, tier and request id", async () => {
    const u = user(ctx, 0);
    const { purchase, receipt } = await buy(ctx, ctx.demo, u, 1);
    const submit = (body: Record<string, unknown>) =>
      ctx.api
        .post(`${P}/purchase/submit`)
        .set("X-API-Key", ctx.demo)
        .send({ wallet_address: u.address, tier_id: 1, ...body });
    const again = await submit({ transaction_hash: receipt.transactionHash }).expect(202);
    expect(again.body.data.id).toBe(purchase.id);
    expect((await submit({})).body.error).toBe("missing_tx_hash");
    expect((await submit({ transaction_hash: "0x1234" })).body.error).toBe("invalid_tx_hash");
    expect((await submit({ transaction_hash: `0x${"ab".repeat(32)}` })).body.error).toBe("tx_unverified");
    // a mined tx that is not a purchase
    const data = encodeFunctionData({
      abi: usdStablecoinAbi,
      functionName: "approve",
      args: [ctx.emu.chain!.addresses.mysteryPool, 0n],
    });
    const approve = await sendCalls(ctx, u, [{ to: ctx.emu.chain!.addresses.stablecoin, data }]);
    expect((await submit({ transaction_hash: approve.transactionHash })).body.error).toBe("tx_unverified");
    // other partner → the hash is recorded elsewhere
    const other = await ctx.api
      .post(`${P}/purchase/submit`)
      .set("X-API-Key", ctx.revenueShare)
      .send({ wallet_address: u.address, tier_id: 1, transaction_hash: receipt.transactionHash })
      .expect(409);
    expect(other.body.error).toBe("tx_already_recorded");
  });

  it("a reverted purchase is tx_reverted; a wrong buyer or tier is refused", async () => {
    const u = user(ctx, 0);
    const chain = ctx.emu.chain!;
    const prep = await ctx.api
      .post(`${P}/purchase/prepare`)
      .set("X-API-Key", ctx.demo)
      .send({ wallet_address: u.address, tier_id: 1 })
      .expect(200);
    // purchase without the approval: reverts (mined with status 0)
    const wallet = chain.walletClientFor(u);
    const hash = await wallet.sendTransaction({
      to: prep.body.data.calls[1].to,
      data: prep.body.data.calls[1].data,
      account: wallet.account,
      chain: chain.viemChain,
      gas: 500_000n,
    });
    const r = await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(r.status).toBe("reverted");
    const rev = await ctx.api
      .post(`${P}/purchase/submit`)
      .set("X-API-Key", ctx.demo)
      .send({ wallet_address: u.address, tier_id: 1, transaction_hash: hash })
      .expect(400);
    expect(rev.body.error).toBe("tx_reverted");
    const { receipt } = await buy(ctx, ctx.demo, u, 1);
    const wrongTier = await ctx.api
      .post(`${P}/purchase/submit`)
      .set("X-API-Key", ctx.revenueShare)
      .send({ wallet_address: u.address, tier_id: 2, transaction_hash: receipt.transactionHash });
    expectError(wrongTier, 409, "tx_already_recorded"); // recorded for acme already
    const { receipt: r2 } = await (async () => {
      const p2 = await ctx.api
        .post(`${P}/purchase/prepare`)
        .set("X-API-Key", ctx.revenueShare)
        .send({ wallet_address: user(ctx, 2).address, tier_id: 1 })
        .expect(200);
      return { receipt: await sendCalls(ctx, user(ctx, 2), p2.body.data.calls) };
    })();
    const sub = (body: Record<string, unknown>) =>
      ctx.api
        .post(`${P}/purchase/submit`)
        .set("X-API-Key", ctx.revenueShare)
        .send({ transaction_hash: r2.transactionHash, ...body });
    expect((await sub({ wallet_address: user(ctx, 3).address, tier_id: 1 })).body.error).toBe("purchaser_mismatch");
    expect((await sub({ wallet_address: user(ctx, 2).address, tier_id: 2 })).body.error).toBe("invalid_tier");
    expect((await sub({ wallet_address: user(ctx, 2).address, tier_id: 1, request_id: "12345" })).body.error).toBe(
      "tx_unverified",
    );
    await sub({ wallet_address: user(ctx, 2).address, tier_id: 1 }).expect(202);
    // A replay is checked like the first submit: the recorded purchase answers only what matches it.
    expectError(await sub({ wallet_address: user(ctx, 3).address, tier_id: 1 }), 400, "purchaser_mismatch");
    expectError(await sub({ wallet_address: user(ctx, 2).address, tier_id: 2 }), 400, "invalid_tier");
    expectError(
      await sub({ wallet_address: user(ctx, 2).address, tier_id: 1, request_id: "12345" }),
      400,
      "tx_unverified",
    );
    const replay = await sub({ wallet_address: user(ctx, 2).address, tier_id: 1 }).expect(202);
    expect(replay.body.data.transaction_hash).toBe(r2.transactionHash);
  });

  it("other partners' purchases are 404; tenant keys are 403; lists filter and page", async () => {
    const { purchase } = await buy(ctx, ctx.demo, user(ctx, 0), 1);
    expectError(await ctx.api.get(`${P}/purchase/${purchase.id}`).set("X-API-Key", ctx.revenueShare), 404, "not_found");
    expectError(await ctx.api.get(`${P}/purchase/abc`).set("X-API-Key", ctx.demo), 404, "not_found");
    const t = await ctx.api.get(`${P}/purchase/${purchase.id}`).set("X-API-Key", ctx.tenant).expect(403);
    expect(t.body.error).toBe("Insufficient permissions");
    await buy(ctx, ctx.demo, user(ctx, 1), 1);
    const all = await ctx.api.get(`${P}/purchases?limit=1`).set("X-API-Key", ctx.demo).expect(200);
    expect(all.body.data.purchases).toHaveLength(1);
    expect(all.body.pagination).toMatchObject({ limit: 1, offset: 0, has_more: true });
    const mine = await ctx.api
      .get(`${P}/purchases?wallet_address=${user(ctx, 1).address}`)
      .set("X-API-Key", ctx.demo)
      .expect(200);
    expect(mine.body.data.purchases).toHaveLength(1);
    const bad = await ctx.api.get(`${P}/purchases?status=NOPE`).set("X-API-Key", ctx.demo).expect(400);
    expect(bad.body.error).toBe("invalid_status");
    const sub = await ctx.api.get(`${P}/purchases?status=SUBMITTED`).set("X-API-Key", ctx.demo).expect(200);
    expect(sub.body.data.purchases).toHaveLength(2);
    expect(
      (await ctx.api.get(`${P}/purchases`).set("X-API-Key", ctx.revenueShare).expect(200)).body.data.purchases,
    ).toEqual([]);
  });
});
