import { describe, expect, it, vi } from "vitest";
import type { Hex } from "viem";
import { usdStablecoinAbi, type FixtureAccount } from "../../chain/index.ts";
import { newKey, waitFor } from "../helpers.ts";
import { type Ctx, sendUsdc, useMystery, user } from "./helpers.ts";

// The custodial books follow the chain they were scanned from (issue 37, items 1–4): a scan in flight across a
// restore writes nothing into the restored books, a reverted block undoes its credits, an address made after the
// scan moved on still sees what was sent to it before, and two accounts' users never share an address.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const W = "/api/v1/wallet";
const q = (id: string) => `external_user_id=${encodeURIComponent(id)}`;

async function addressOf(id: string, key = ctx.demo): Promise<`0x${string}`> {
  const r = await ctx.api.post(`${W}/deposit-address`).set("X-API-Key", key).send({ external_user_id: id }).expect(200);
  return r.body.data.address;
}

const send = (from: FixtureAccount, to: `0x${string}`, micros: bigint): Promise<Hex> => sendUsdc(ctx, from, to, micros);

const wallet = async (id: string, key = ctx.demo) =>
  (
    await ctx.api
      .get(`${W}/balance?${q(id)}`)
      .set("X-API-Key", key)
      .expect(200)
  ).body.data;

const onChain = (address: `0x${string}`) =>
  ctx.emu.chain!.publicClient.readContract({
    address: ctx.emu.chain!.addresses.stablecoin,
    abi: usdStablecoinAbi,
    functionName: "balanceOf",
    args: [address],
  });

describe("the custodial books follow the chain", () => {
  it("a deposit scan in flight during a restore credits nothing into the restored books", async () => {
    const to = await addressOf("inflight-1");
    await wallet("inflight-1"); // the scan is past every block so far
    const snap = await ctx.emu.snapshot();
    const client = ctx.emu.chain!.publicClient;
    const real = client.getContractEvents.bind(client);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let reads = 0;
    // Every scan that read the logs (the transfer among them) waits at the gate before it writes: the read's
    // own and the worker's that the block woke.
    const held = vi.spyOn(client, "getContractEvents").mockImplementation(async (args) => {
      const logs = await real(args);
      reads++;
      await gate;
      return logs;
    });
    try {
      await send(user(ctx, 2), to, 4_000_000n);
      const read = ctx.api
        .get(`${W}/balance?${q("inflight-1")}`)
        .set("X-API-Key", ctx.demo)
        .then((r) => r);
      await waitFor(() => reads > 0, "a scan to read the transfer");
      let restored = false;
      const restoring = ctx.emu.restore(snap).then(() => (restored = true));
      // The restore may finish first, or wait for the worker's pass in flight: the gate opens then (event-loop
      // turns, not wall time).
      for (let turn = 0; turn < 2000 && !restored; turn++) await new Promise((r) => setImmediate(r));
      open();
      await restoring;
      await read;
    } finally {
      held.mockRestore();
    }
    expect(await onChain(to)).toBe(0n);
    expect((await wallet("inflight-1")).wallet.balance).toBe("0");
    const deposits = await ctx.api
      .get(`${W}/deposits?${q("inflight-1")}`)
      .set("X-API-Key", ctx.demo)
      .expect(200);
    expect(deposits.body.data.deposits).toEqual([]);
  });

  it("a block reverted behind the books undoes its credit; a later transfer is credited alone", async () => {
    const to = await addressOf("revert-1");
    await send(user(ctx, 2), to, 2_000_000n);
    expect((await wallet("revert-1")).wallet.balance).toBe("2000000");
    const chain = ctx.emu.chain!;
    const snap = await chain.snapshot(); // the chain only (evm_snapshot): the books keep what they scanned
    const gone = await send(user(ctx, 2), to, 3_000_000n);
    expect((await wallet("revert-1")).wallet.balance).toBe("5000000");
    await chain.revert(snap); // evm_revert: the 3 USDC transfer is no longer on chain
    expect(await onChain(to)).toBe(2_000_000n);
    expect((await wallet("revert-1")).wallet.balance).toBe("2000000");
    const later = await send(user(ctx, 3), to, 1_000_000n);
    expect((await wallet("revert-1")).wallet.balance).toBe("3000000");
    expect(await onChain(to)).toBe(3_000_000n);
    const deposits = (
      await ctx.api
        .get(`${W}/deposits?${q("revert-1")}`)
        .set("X-API-Key", ctx.demo)
        .expect(200)
    ).body.data.deposits as Array<{ tx_hash: string; status: string; amount: string }>;
    expect(deposits.map((d) => [d.amount, d.status])).toEqual([
      ["1.000000", "CONFIRMED"],
      ["3.000000", "CANCELLED"],
      ["2.000000", "CONFIRMED"],
    ]);
    expect(deposits[0]!.tx_hash).toBe(later);
    expect(deposits[1]!.tx_hash).toBe(gone);
    const ledger = (
      await ctx.api
        .get(`${W}/ledger?${q("revert-1")}`)
        .set("X-API-Key", ctx.demo)
        .expect(200)
    ).body.data.entries as Array<{ entry_type: string; amount: string; balance_after: string }>;
    expect(ledger.map((e) => [e.entry_type, e.amount, e.balance_after])).toEqual([
      ["DEPOSIT_CREDIT", "1000000", "3000000"],
      ["ADJUSTMENT", "-3000000", "2000000"],
      ["DEPOSIT_CREDIT", "3000000", "5000000"],
      ["DEPOSIT_CREDIT", "2000000", "2000000"],
    ]);
  });

  it("USDC sent to a deposit address before its row exists is credited once the row is made", async () => {
    await addressOf("early-other"); // the scan runs for someone else meanwhile
    const snap = await ctx.emu.snapshot();
    const to = await addressOf("early-1"); // learn the address, then go back to before the row existed
    await ctx.emu.restore(snap);
    await send(user(ctx, 2), to, 6_000_000n);
    await wallet("early-other"); // the shared scan moves past the transfer's block
    await ctx.emu.clock.advance(1);
    expect(await addressOf("early-1")).toBe(to);
    expect((await wallet("early-1")).wallet.balance).toBe("6000000");
    expect(await onChain(to)).toBe(6_000_000n);
  });

  it("account co + user x:bob and account co:x + user bob have their own deposit address and custodial wallet", async () => {
    const co = await newKey(ctx.api, { kind: "partner", account_id: "co" });
    const coX = await newKey(ctx.api, { kind: "partner", account_id: "co:x" });
    const a = await addressOf("x:bob", co);
    const b = await addressOf("bob", coX);
    expect(a).not.toBe(b);
    expect((await wallet("x:bob", co)).end_user.wallet_address).not.toBe(
      (await wallet("bob", coX)).end_user.wallet_address,
    );
    await send(user(ctx, 2), b, 1_500_000n);
    expect((await wallet("bob", coX)).wallet.balance).toBe("1500000");
    expect((await wallet("x:bob", co)).wallet.balance).toBe("0");
  });
});
