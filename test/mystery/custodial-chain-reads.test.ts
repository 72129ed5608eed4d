import { describe, expect, it, vi } from "vitest";
import { RELAY_CONFIRM_MS, RELAY_PICKUP_MS } from "../../contract/lifecycles/purchases.ts";
import { type Ctx, sendUsdc, useMystery, user } from "./helpers.ts";

// What the custodial purchase and the deposit scan need not read again (docs/decisions.md "The custodial purchase's
// reads it already holds"): each skip holds only while the chain was not taken back, and a chain taken back is read.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

/** The JSON-RPC methods that reach the node while `fn` runs (its provider, under the viem clients and the journal). */
async function callsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const node = (ctx.emu.chain! as unknown as { provider: { request(args: unknown): Promise<unknown> } }).provider;
  const spy = vi.spyOn(node, "request");
  try {
    await fn();
    // A block asked for by number is named with it (the wallets' fee look-ups ask for "latest").
    return spy.mock.calls.map(([args]) => {
      const { method, params } = args as { method: string; params?: unknown[] };
      if (method === "eth_getBlockByNumber" && params?.[0] !== "latest") return `${method} ${String(params?.[0])}`;
      // A log search is named with the contract it searches.
      if (method === "eth_getLogs")
        return `${method} ${String((params?.[0] as { address?: string }).address).toLowerCase()}`;
      return method;
    });
  } finally {
    spy.mockRestore();
  }
}

const purchase = async (id: number) =>
  (await ctx.api.get(`/api/v1/mystery/purchase/${id}`).set("X-API-Key", ctx.demo).expect(200)).body.data;

const reserve = async (idem: string) =>
  (
    await ctx.api
      .post("/api/v1/mystery/purchase")
      .set("X-API-Key", ctx.demo)
      .set("Idempotency-Key", idem)
      .send({ tier_id: 1, external_user_id: "acme-user-1" })
      .expect(202)
  ).body.data as { id: number };

describe("custodial purchase: the broadcast's receipt", () => {
  it("confirms from the receipt it holds and does not read the waiting request while nothing changed; the reveal is read", async () => {
    const { id } = await reserve("reads-1");
    await ctx.emu.clock.advance(RELAY_PICKUP_MS);
    expect((await purchase(id)).status).toBe("SUBMITTING");
    const reads = await callsDuring(() => ctx.emu.clock.advance(RELAY_CONFIRM_MS));
    const got = await purchase(id);
    expect(got.status).toBe("SUBMITTED");
    expect(got.onchain_request_id).toMatch(/^\d+$/);
    expect(reads.filter((m) => m === "eth_getTransactionReceipt" || m === "eth_call")).toEqual([]);
    let fulfilment = "";
    const calls = await callsDuring(async () => {
      const res = await ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: got.onchain_request_id }).expect(200);
      fulfilment = res.body.data.tx_hash;
      expect((await purchase(id)).status).toBe("FULFILLED");
    });
    // The reveal's transaction is the fulfilment the VRF scan saw: the pool's logs are not searched for it.
    expect(calls).toContain(`eth_getLogs ${ctx.emu.chain!.addresses.vrfCoordinator.toLowerCase()}`);
    expect(calls).not.toContain(`eth_getLogs ${ctx.emu.chain!.addresses.mysteryPool.toLowerCase()}`);
    const pulled = ctx.events.filter((e) => e.type === "pool.item_pulled").map((e) => e.data.transaction_hash);
    expect(pulled.length).toBeGreaterThan(0);
    expect(new Set(pulled)).toEqual(new Set([fulfilment]));
  });

  it("a chain taken back between the broadcast and the confirm is read: the purchase fails and the hold returns", async () => {
    const chain = ctx.emu.chain!;
    const wallet = async () =>
      (await ctx.api.get("/api/v1/wallet/balance?external_user_id=acme-user-1").set("X-API-Key", ctx.demo).expect(200))
        .body.data.wallet;
    const before = await wallet();
    const snap = await chain.snapshot(); // the chain only: the books keep the broadcast
    const { id } = await reserve("reads-2");
    await ctx.emu.clock.advance(RELAY_PICKUP_MS);
    expect((await purchase(id)).transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    await chain.revert(snap);
    const reads = await callsDuring(() => ctx.emu.clock.advance(RELAY_CONFIRM_MS));
    expect(reads).toContain("eth_getTransactionReceipt");
    expect(await purchase(id)).toMatchObject({
      status: "FAILED",
      failure_reason: "the relayer transaction is not on the chain",
    });
    expect(await wallet()).toMatchObject({ balance: before.balance, reserved: "0" });
  });
});

describe("deposit scan: the block it scanned last", () => {
  it("is not asked for again while nothing was taken back; the transfer in the new block is credited", async () => {
    const to = (
      await ctx.api
        .post("/api/v1/wallet/deposit-address")
        .set("X-API-Key", ctx.demo)
        .send({ external_user_id: "reads-dep" })
        .expect(200)
    ).body.data.address as `0x${string}`;
    const balance = async () =>
      (await ctx.api.get("/api/v1/wallet/balance?external_user_id=reads-dep").set("X-API-Key", ctx.demo).expect(200))
        .body.data.wallet.balance;
    await sendUsdc(ctx, user(ctx, 2), to, 1_000_000n);
    expect(await balance()).toBe("1000000");
    const reads = await callsDuring(async () => {
      await sendUsdc(ctx, user(ctx, 3), to, 2_000_000n);
      expect(await balance()).toBe("3000000");
    });
    expect(reads).toContain(`eth_getLogs ${ctx.emu.chain!.addresses.stablecoin.toLowerCase()}`);
    expect(reads).toContain("eth_getBlockByNumber"); // the wallet's own fee look-up, named "latest"
    expect(reads.filter((m) => m.startsWith("eth_getBlockByNumber "))).toEqual([]);
  });
});
