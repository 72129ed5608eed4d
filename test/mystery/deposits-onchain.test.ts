import { describe, expect, it } from "vitest";
import type { Hex } from "viem";
import type { FixtureAccount } from "../../chain/index.ts";
import { type Ctx, sendUsdc, useMystery, user } from "./helpers.ts";

// USDC sent on chain to an end user's dedicated deposit address is credited to the custodial balance once
// mined (docs/mystery.md "Deposits"): once per transfer, whoever reads first, and never for another address.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const W = "/api/v1/wallet";
const get = (path: string, q: string, key = ctx.demo) => ctx.api.get(`${W}/${path}?${q}`).set("X-API-Key", key);

async function addressOf(externalUserId: string, key = ctx.demo): Promise<`0x${string}`> {
  const r = await ctx.api
    .post(`${W}/deposit-address`)
    .set("X-API-Key", key)
    .send({ external_user_id: externalUserId })
    .expect(200);
  expect(r.body.data).toMatchObject({ chain: "base", currency: "USDC", dedicated: true });
  return r.body.data.address;
}

const send = (from: FixtureAccount, to: `0x${string}`, micros: bigint): Promise<Hex> => sendUsdc(ctx, from, to, micros);

const balance = async (q: string, key = ctx.demo) => (await get("balance", q, key).expect(200)).body.data.wallet;

describe("deposits seen on chain", () => {
  it("a transfer to the deposit address credits the balance once: a CONFIRMED deposit with its tx hash, a DEPOSIT_CREDIT entry, deposit.credited", async () => {
    const to = await addressOf("dep-1");
    expect((await balance("external_user_id=dep-1")).balance).toBe("0");
    const tx = await send(user(ctx, 2), to, 12_500_000n);
    // Eight readers at once after the block: one credit.
    const reads = await Promise.all(Array.from({ length: 8 }, () => balance("external_user_id=dep-1")));
    expect(reads.map((w) => w.balance)).toEqual(Array(8).fill("12500000"));
    const deposits = (await get("deposits", "external_user_id=dep-1").expect(200)).body.data.deposits;
    expect(deposits).toEqual([
      expect.objectContaining({
        chain_in: "base",
        token_in: "USDC",
        amount: "12.500000",
        tx_hash: tx,
        status: "CONFIRMED",
      }),
    ]);
    const entries = (await get("ledger", "external_user_id=dep-1").expect(200)).body.data.entries;
    expect(entries.map((e: { entry_type: string; amount: string }) => [e.entry_type, e.amount])).toEqual([
      ["DEPOSIT_CREDIT", "12500000"],
    ]);
    const events = ctx.events.filter((e) => e.type === "deposit.credited");
    expect(events.map((e) => [e.account_id, e.data.amount, e.data.tx_hash])).toEqual([["acme", "12500000", tx]]);
  });

  it("two transfers add up; a transfer elsewhere, or to another partner's user, credits no one else", async () => {
    const mine = await addressOf("dep-2");
    const theirs = await addressOf("dep-2", ctx.revenueShare); // the same external id under another account
    expect(theirs).not.toBe(mine);
    await send(user(ctx, 2), mine, 1_000_000n);
    await send(user(ctx, 3), mine, 2_000_001n);
    await send(user(ctx, 3), user(ctx, 4).address, 5_000_000n); // not a deposit address
    await send(user(ctx, 2), theirs, 7_000_000n);
    expect((await balance("external_user_id=dep-2")).balance).toBe("3000001");
    expect((await balance("external_user_id=dep-2", ctx.revenueShare)).balance).toBe("7000000");
  });

  it("the worker credits a deposit mined while no one reads (the block wakes it), and a restored snapshot re-scans without a double credit", async () => {
    const to = await addressOf("dep-3");
    const snap = await ctx.emu.snapshot();
    await send(user(ctx, 2), to, 4_000_000n);
    await ctx.emu.clock.advance(1); // the clock's change runs the worker, as a block does in real time
    expect(ctx.events.filter((e) => e.type === "deposit.credited")).toHaveLength(1);
    expect((await balance("external_user_id=dep-3")).balance).toBe("4000000");
    await ctx.emu.restore(snap); // before the transfer: the chain and the books go back together
    expect((await balance("external_user_id=dep-3")).balance).toBe("0");
    await send(user(ctx, 2), to, 4_000_000n);
    expect((await balance("external_user_id=dep-3")).balance).toBe("4000000");
    expect((await get("deposits", "external_user_id=dep-3").expect(200)).body.data.deposits).toHaveLength(1);
  });

  it("ids that look like keys: a user id holding the books' separator, __proto__ and constructor are each credited as themselves", async () => {
    const ids = ["dep", "dep\u0000x", "__proto__", "constructor"];
    const q = (id: string) => `external_user_id=${encodeURIComponent(id)}`;
    for (const [i, id] of ids.entries()) await send(user(ctx, 2), await addressOf(id), BigInt(i + 1) * 1_000_000n);
    for (const [i, id] of ids.entries()) expect((await balance(q(id))).balance).toBe(String((i + 1) * 1_000_000));
    expect(ctx.events.filter((e) => e.type === "deposit.credited")).toHaveLength(4);
  });

  it("a chain reverted behind the books over JSON-RPC: the reverted credits are undone, a transfer mined at a height already scanned is still credited", async () => {
    const to = await addressOf("dep-4");
    const chain = ctx.emu.chain!;
    const snap = await chain.snapshot(); // the chain only: the books keep what they scanned
    await send(user(ctx, 2), to, 1_000_000n);
    await send(user(ctx, 2), to, 1_000_000n);
    expect((await balance("external_user_id=dep-4")).balance).toBe("2000000");
    await chain.revert(snap);
    // Mined at heights the books already scanned, and past them.
    const txs = [];
    for (let i = 0; i < 3; i++) txs.push(await send(user(ctx, 3), to, 5_000_000n));
    // The two credits of blocks the chain no longer holds are undone (issue 37 item 2): only the three remain.
    expect((await balance("external_user_id=dep-4")).balance).toBe("15000000");
    const deposits = (await get("deposits", "external_user_id=dep-4").expect(200)).body.data.deposits;
    expect(deposits.map((d: { tx_hash: string }) => d.tx_hash).slice(0, 3)).toEqual(txs.reverse());
    expect(deposits.map((d: { status: string }) => d.status)).toEqual([
      "CONFIRMED",
      "CONFIRMED",
      "CONFIRMED",
      "CANCELLED",
      "CANCELLED",
    ]);
  });
});
