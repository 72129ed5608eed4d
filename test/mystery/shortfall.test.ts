import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cardNftAbi } from "../../chain/index.ts";
import { buy, relay, user } from "./helpers.ts";
import { burst, slowReceipts, startRace, type RaceCtx } from "./race-helpers.ts";
import { nftsOf, usdcOf } from "../chain-reads.ts";

// An operator shortfall with the chain in the loop: the undelivered items never
// reach the buyer's wallet, their share of the price comes back once (to the
// payer: the buyer's wallet, or the relayer whose end user's balance is
// credited), however many reads race the reveal.

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
const chain = () => ctx.emu.chain!;
const ownerOf = (id: string) =>
  chain().publicClient.readContract({
    address: chain().addresses.cardNft,
    abi: cardNftAbi,
    functionName: "ownerOf",
    args: [BigInt(id)],
  });
const get = (id: number) => ctx.api.get(`${M}/purchase/${id}`).set("X-API-Key", ctx.demo);
const fulfil = (requestId: string) =>
  ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: requestId }).expect(200);
const shortfall = (id: number, items: number) =>
  ctx.api.post(`/_emulator/mystery/purchases/${id}/shortfall`).send({ items });

interface Balances {
  buyer: bigint;
  pool: bigint;
  relayer: bigint;
  nfts: bigint;
}
const balances = async (buyer: `0x${string}`): Promise<Balances> => ({
  buyer: await usdcOf(ctx.emu, buyer),
  pool: await usdcOf(ctx.emu, chain().addresses.mysteryPool),
  relayer: await usdcOf(ctx.emu, chain().relayer.address),
  nfts: await nftsOf(ctx.emu, buyer),
});

describe("non-custodial shortfall", () => {
  it("parallel reads racing the reveal pay the undelivered share back once: the buyer nets −12.5 USDC, the pool +12.5", async () => {
    const u = user(ctx, 3);
    const before = await balances(u.address);
    const { purchase } = await buy(ctx, ctx.demo, u, 1);
    expect((await shortfall(purchase.id, 1)).status).toBe(200);
    await fulfil(purchase.onchain_request_id);
    const answers = await burst(N, () => get(purchase.id));
    for (const a of answers) expect([a.status, a.body.data?.status]).toEqual([200, "PARTIALLY_FULFILLED"]);
    const after = await balances(u.address);
    expect(after.buyer - before.buyer).toBe(-12_500_000n);
    expect(after.pool - before.pool).toBe(12_500_000n);
    expect(after.nfts - before.nfts).toBe(1n);
    const done = answers[0]!.body.data;
    expect(done.items).toHaveLength(1);
    for (const a of answers) expect(a.body.data.items).toEqual(done.items);
    expect(await ownerOf(done.items[0].token_id)).toBe(u.address);
  });

  it("the undelivered item never reaches the buyer's wallet: the answer's one item is the buyer's only new token", async () => {
    const u = user(ctx, 4);
    const before = await balances(u.address);
    const { purchase } = await buy(ctx, ctx.demo, u, 1);
    expect((await shortfall(purchase.id, 1)).status).toBe(200);
    await fulfil(purchase.onchain_request_id);
    const done = (await get(purchase.id).expect(200)).body.data;
    expect(done).toMatchObject({ status: "PARTIALLY_FULFILLED" });
    expect(done.items).toHaveLength(1);
    const after = await balances(u.address);
    expect(after.buyer - before.buyer).toBe(-12_500_000n);
    expect(after.nfts - before.nfts).toBe(1n);
    expect(await ownerOf(done.items[0].token_id)).toBe(u.address);
  });

  it("a shortfall after the reveal landed on chain (not yet read) is 409 invalid_status and changes nothing", async () => {
    const u = user(ctx, 5);
    const before = await balances(u.address);
    const { purchase } = await buy(ctx, ctx.demo, u, 1);
    await fulfil(purchase.onchain_request_id);
    const late = await shortfall(purchase.id, 1);
    expect([late.status, late.body.error]).toEqual([409, "invalid_status"]);
    const done = (await get(purchase.id).expect(200)).body.data;
    expect(done.status).toBe("FULFILLED");
    expect(done.items).toHaveLength(2);
    const after = await balances(u.address);
    expect([after.buyer - before.buyer, after.nfts - before.nfts]).toEqual([-25_000_000n, 2n]);
  });
});

describe("custodial shortfall", () => {
  it("the relayer gets the share back on chain and the end user's balance the same; one item in the custody wallet; reads and the worker race", async () => {
    const wallet = async () =>
      (await ctx.api.get("/api/v1/wallet/balance?external_user_id=sf-user").set("X-API-Key", ctx.demo).expect(200)).body
        .data;
    await ctx.api
      .post("/_emulator/mystery/custodial/fund")
      .send({ key: ctx.demo, external_user_id: "sf-user", usdc: "100" })
      .expect(200);
    const custody = (await wallet()).end_user.wallet_address as `0x${string}`;
    const before = await balances(custody);
    const p = (
      await ctx.api
        .post(`${M}/purchase`)
        .set("X-API-Key", ctx.demo)
        .set("Idempotency-Key", "sf-1")
        .send({ tier_id: 1, external_user_id: "sf-user" })
        .expect(202)
    ).body.data;
    expect((await shortfall(p.id, 1)).status).toBe(200);
    await relay(ctx);
    const submitted = (await get(p.id).expect(200)).body.data;
    expect(submitted.status).toBe("SUBMITTED");
    await fulfil(submitted.onchain_request_id);
    const answers = await burst(N, (i) =>
      i === 0 ? ctx.api.post("/_emulator/mystery/worker/run").send({}) : get(p.id),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    const done = (await get(p.id).expect(200)).body.data;
    expect(done.status).toBe("PARTIALLY_FULFILLED");
    expect(done.items).toHaveLength(1);
    const after = await balances(custody);
    expect(after.relayer - before.relayer).toBe(-12_500_000n);
    expect(after.pool - before.pool).toBe(12_500_000n);
    expect(after.nfts - before.nfts).toBe(1n);
    expect((await wallet()).wallet).toMatchObject({ balance: "87500000", reserved: "0" });
  });
});
