import { describe, expect, it } from "vitest";
import { usdStablecoinAbi } from "../../chain/index.ts";
import { buy, relay, sendCalls, user, useMystery, type Ctx } from "../mystery/helpers.ts";
import { expectError } from "../../conformance/assert.ts";

// Chain operator actions called in parallel (the chain in the loop, manual VRF):
// each checks the chain, then writes to it; a parallel call must see what the
// first one wrote (a 4xx in the envelope), never race into a revert (500).

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

/** A mystery tier-1 purchase from fixture wallet `i`, mined: its pending VRF request id. */
async function pendingRequest(i: number): Promise<string> {
  const prep = await ctx.api
    .post("/api/v1/mystery/purchase/prepare")
    .set("X-API-Key", ctx.demo)
    .send({ wallet_address: user(ctx, i).address, tier_id: 1 })
    .expect(200);
  await sendCalls(ctx, user(ctx, i), prep.body.data.calls);
  const pending: string[] = (await ctx.api.get("/_emulator/vrf").expect(200)).body.data.pending;
  return pending.at(-1)!;
}

const statuses = (all: Array<{ status: number }>) => all.map((r) => r.status).sort();

describe("parallel chain operator actions", () => {
  it("16 fulfils of one VRF request: one 200, fifteen 404 not_found (no longer pending)", async () => {
    const id = await pendingRequest(0);
    const all = await Promise.all(
      Array.from({ length: 16 }, () => ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: id })),
    );
    expect(statuses(all)).toEqual([200, ...Array<number>(15).fill(404)]);
    for (const r of all.filter((x) => x.status !== 200)) expectError(r, 404, "not_found");
    expect((await ctx.api.get("/_emulator/vrf").expect(200)).body.data.pending).toEqual([]);
  });

  it("16 fulfils of the oldest pending request with two pending: each fulfils one, the rest 409 nothing_pending", async () => {
    const ids = [await pendingRequest(1), await pendingRequest(2)];
    const all = await Promise.all(Array.from({ length: 16 }, () => ctx.api.post("/_emulator/vrf/fulfill").send({})));
    expect(statuses(all)).toEqual([200, 200, ...Array<number>(14).fill(409)]);
    for (const r of all.filter((x) => x.status !== 200)) expectError(r, 409, "nothing_pending");
    expect(
      all
        .filter((r) => r.status === 200)
        .map((r) => r.body.data.request_id)
        .sort(),
    ).toEqual([...ids].sort());
  });

  it("8 fail-reveals and 8 fulfils of one purchase's VRF request: one 200, the rest 409 invalid_status / 404 not_found", async () => {
    const { purchase } = await buy(ctx, ctx.demo, user(ctx, 3));
    const id = purchase.onchain_request_id;
    const all = await Promise.all(
      Array.from({ length: 16 }, async (_, i) =>
        i % 2
          ? {
              failReveal: true,
              r: await ctx.api.post(`/_emulator/mystery/purchases/${purchase.id}/fail-reveal`).send({}),
            }
          : { failReveal: false, r: await ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: id }) },
      ),
    );
    expect(all.filter(({ r }) => r.status === 200)).toHaveLength(1);
    for (const { failReveal, r } of all.filter((x) => x.r.status !== 200))
      expectError(r, failReveal ? 409 : 404, failReveal ? "invalid_status" : "not_found");
  });

  it("16 refunds of one custodial mystery purchase: one 200, fifteen 409 invalid_status; the end user credited once", async () => {
    await ctx.api
      .post("/_emulator/mystery/custodial/fund")
      .send({ key: ctx.demo, external_user_id: "par-m", usdc: "40" })
      .expect(200);
    const made = await ctx.api
      .post("/api/v1/mystery/purchase")
      .set("X-API-Key", ctx.demo)
      .set("Idempotency-Key", "par-m-1")
      .send({ tier_id: 1, external_user_id: "par-m" })
      .expect(202);
    await relay(ctx);
    const all = await Promise.all(
      Array.from({ length: 16 }, () =>
        ctx.api.post(`/_emulator/mystery/purchases/${made.body.data.id}/refund`).send({}),
      ),
    );
    expect(statuses(all)).toEqual([200, ...Array<number>(15).fill(409)]);
    for (const r of all.filter((x) => x.status !== 200)) expectError(r, 409, "invalid_status");
    const w = (
      await ctx.api
        .get("/api/v1/wallet/balance")
        .set("X-API-Key", ctx.demo)
        .query({ external_user_id: "par-m" })
        .expect(200)
    ).body.data.wallet;
    expect(w).toMatchObject({ balance_usdc: "40.000000", reserved_usdc: "0.000000" });
    const entries = (
      await ctx.api
        .get("/api/v1/wallet/ledger")
        .set("X-API-Key", ctx.demo)
        .query({ external_user_id: "par-m" })
        .expect(200)
    ).body.data.entries;
    expect(entries.map((e: { entry_type: string }) => e.entry_type)).toEqual([
      "REFUND_CREDIT",
      "HOLD_SETTLE",
      "HOLD",
      "DEPOSIT_CREDIT",
    ]);
  });

  it("16 faucet calls to one address all land: the balance rises by exactly 16 × the amount", async () => {
    const to = "0x000000000000000000000000000000000000bEEF";
    const chain = ctx.emu.chain!;
    const balance = () =>
      chain.publicClient.readContract({
        address: chain.addresses.stablecoin,
        abi: usdStablecoinAbi,
        functionName: "balanceOf",
        args: [to],
      });
    const before = await balance();
    const all = await Promise.all(
      Array.from({ length: 16 }, () => ctx.api.post("/_emulator/chain/faucet").send({ address: to, usdc: "3" })),
    );
    expect(statuses(all)).toEqual(Array<number>(16).fill(200));
    expect(await balance()).toBe(before + 48_000_000n);
  });
});
