import { describe, expect, it } from "vitest";
import { encodeFunctionData } from "viem";
import { cardNftAbi, mysteryPoolAbi, sendAndWait } from "../../chain/index.ts";
import { parseUsdc } from "../../contract/money.ts";
import { expectError } from "../../conformance/assert.ts";
import { buyRevealed, sendCalls, types, user, type Ctx, useMystery } from "./helpers.ts";

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const S = "/api/v1/mystery/sellback";
const post = (path: string, body: Record<string, unknown>, key = ctx.revenueShare) =>
  ctx.api.post(`${S}/${path}`).set("X-API-Key", key).send(body);
const ids = (p: Record<string, unknown>) => (p.items as Array<{ token_id: string }>).map((i) => i.token_id);

describe("sell-back (TIER)", () => {
  it("quote → prepare → holder signs → submit decodes CardSellExecuted; sellback.confirmed; list", async () => {
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const q = await post("quote", { wallet_address: u.address, token_ids: ids(p) }).expect(200);
    expect(q.body.data.items.every((i: { eligible: boolean }) => i.eligible)).toBe(true);
    expect(q.body.data).toMatchObject({
      approval_needed: true,
      sufficient_liquidity: true,
      seller: u.address.toLowerCase(),
    });
    const prep = await post("prepare", { wallet_address: u.address, token_ids: ids(p) }).expect(200);
    expect(prep.body.data.calls.map((c: { kind: string }) => c.kind)).toEqual(["set-approval-for-all", "sellback"]);
    const receipt = await sendCalls(ctx, u, prep.body.data.calls);
    const sub = await post("submit", { transaction_hash: receipt.transactionHash }).expect(200);
    expect(sub.body.data).toMatchObject({
      seller: u.address.toLowerCase(),
      token_ids: ids(p),
      total_micros: q.body.data.total_payout_micros,
      transaction_hash: receipt.transactionHash,
    });
    await post("submit", { transaction_hash: receipt.transactionHash }).expect(200); // re-submit is safe
    // ... and checked like the first: another claimed seller is 403 seller_mismatch.
    const claimed = await post("submit", {
      transaction_hash: receipt.transactionHash,
      wallet_address: user(ctx, 3).address,
    });
    expect([claimed.status, claimed.body.error]).toEqual([403, "seller_mismatch"]);
    await post("submit", { transaction_hash: receipt.transactionHash, wallet_address: u.address }).expect(200);
    expect(types(ctx).filter((t) => t === "sellback.confirmed")).toHaveLength(1);
    const list = await ctx.api.get("/api/v1/mystery/sellbacks").set("X-API-Key", ctx.revenueShare).expect(200);
    expect(list.body.data.sellbacks).toHaveLength(1);
    // sold tokens are no longer eligible
    const after = await post("quote", { wallet_address: u.address, token_ids: ids(p) }).expect(200);
    expect(after.body.data.items[0]).toMatchObject({ eligible: false, reason: "no_window" });
  });

  it("batch validation: invalid_token_ids, too_many_tokens; POOL partners get not_tier_partner", async () => {
    const u = user(ctx, 2);
    expect((await post("quote", { wallet_address: u.address, token_ids: [] })).body.error).toBe("invalid_token_ids");
    expect((await post("quote", { wallet_address: u.address, token_ids: ["abc"] })).body.error).toBe(
      "invalid_token_ids",
    );
    expect(
      (
        await post("quote", {
          wallet_address: u.address,
          token_ids: Array.from({ length: 51 }, (_, i) => String(i + 1)),
        })
      ).body.error,
    ).toBe("too_many_tokens");
    // a token named twice (as text or as a number) is refused, not sold once or quoted twice
    for (const route of ["quote", "prepare"])
      expectError(await post(route, { wallet_address: u.address, token_ids: ["7", 7] }), 400, "invalid_token_ids");
    const pool = await post("quote", { wallet_address: u.address, token_ids: ["1"] }, ctx.demo).expect(403);
    expect(pool.body.error).toBe("not_tier_partner");
  });

  it("pre-flight: wrong_holder, window_expired, not_eligible (all-or-nothing, details name the token)", async () => {
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const [a, b] = ids(p) as [string, string];
    expect((await post("prepare", { wallet_address: user(ctx, 3).address, token_ids: [a] })).body.error).toBe(
      "wrong_holder",
    );
    await sendCalls(ctx, u, [
      {
        to: ctx.emu.chain!.addresses.cardNft,
        data: encodeFunctionData({
          abi: cardNftAbi,
          functionName: "transferFrom",
          args: [u.address, user(ctx, 3).address, BigInt(b)],
        }),
      },
    ]);
    const mixed = await post("prepare", { wallet_address: u.address, token_ids: [a, b] }).expect(409);
    expect(mixed.body).toMatchObject({ error: "not_eligible", details: { token_id: b, reason: "wrong_holder" } });
    await ctx.emu.clock.advance(31 * 24 * 3600 * 1000);
    expect((await post("prepare", { wallet_address: u.address, token_ids: [a] })).body.error).toBe("window_expired");
  });

  it("submit: missing_tx_hash, tx_unverified, tx_reverted, seller_mismatch", async () => {
    expect((await post("submit", {})).body.error).toBe("missing_tx_hash");
    expect((await post("submit", { transaction_hash: `0x${"ab".repeat(32)}` })).body.error).toBe("tx_unverified");
    // user 4 bought through the POOL partner, never through nova
    const stranger = user(ctx, 4);
    const p = await buyRevealed(ctx, ctx.demo, stranger, 1);
    const chain = ctx.emu.chain!;
    const wallet = chain.walletClientFor(stranger);
    const sell = encodeFunctionData({
      abi: mysteryPoolAbi,
      functionName: "acceptCardBuyback",
      args: [ids(p).map(BigInt), 0n],
    });
    const revertedHash = await wallet.sendTransaction({
      to: chain.addresses.mysteryPool,
      data: sell,
      account: wallet.account,
      chain: chain.viemChain,
      gas: 800_000n,
    });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash: revertedHash })).status).toBe("reverted");
    expect((await post("submit", { transaction_hash: revertedHash })).body.error).toBe("tx_reverted");
    const ok = await sendCalls(ctx, stranger, [
      {
        to: chain.addresses.cardNft,
        data: encodeFunctionData({
          abi: cardNftAbi,
          functionName: "setApprovalForAll",
          args: [chain.addresses.mysteryPool, true],
        }),
      },
      { to: chain.addresses.mysteryPool, data: sell },
    ]);
    const mismatch = await post("submit", { transaction_hash: ok.transactionHash }).expect(403);
    expect(mismatch.body.error).toBe("seller_mismatch");
  });
});

describe("sell-back terms come from the pool contract", () => {
  it("after the owner sets a 1-day window at 50%, the quote pays half the value and expires a day after minting; the chain pays that", async () => {
    const chain = ctx.emu.chain!;
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const data = encodeFunctionData({ abi: mysteryPoolAbi, functionName: "setBuybackParams", args: [86_400n, 500] });
    expect((await sendAndWait(chain, chain.operator, { to: chain.addresses.mysteryPool, data })).status).toBe(
      "success",
    );
    const q = await post("quote", { wallet_address: u.address, token_ids: ids(p) }).expect(200);
    const items = q.body.data.items as Array<{ oracle_value_usdc: string; payout_micros: string; expires_at: string }>;
    for (const i of items) {
      expect(BigInt(i.payout_micros)).toBe((parseUsdc(i.oracle_value_usdc)! * 500n) / 1000n);
      expect(Date.parse(i.expires_at) - Date.parse(p.fulfilled_at)).toBeLessThanOrEqual(86_400_000);
    }
    const prep = await post("prepare", { wallet_address: u.address, token_ids: ids(p) }).expect(200);
    const receipt = await sendCalls(ctx, u, prep.body.data.calls);
    const sub = await post("submit", { transaction_hash: receipt.transactionHash }).expect(200);
    expect(sub.body.data.total_micros).toBe(q.body.data.total_payout_micros);
    await ctx.emu.clock.advance(86_400_000 + 1_000);
    const late = await post("quote", { wallet_address: u.address, token_ids: ids(p) }).expect(200);
    expect(late.body.data.items.every((i: { eligible: boolean }) => !i.eligible)).toBe(true);
  });
});
