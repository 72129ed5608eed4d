import { afterEach, describe, expect, it, vi } from "vitest";
import { encodeFunctionData } from "viem";
import { cardNftAbi } from "../../chain/index.ts";
import { mystery, type RedemptionRow } from "../../emulator/areas/mystery/state.ts";
import { buyRevealed, sendCalls, user, type Ctx, useMystery } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";

// A burn hash is checked against the token's current state on chain, not only
// its receipt; the worker survives a job that throws.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));
afterEach(() => vi.restoreAllMocks());

const R = "/api/v1/mystery/redemption";
const HOUR = 60 * 60 * 1000;
const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };
const post = (path: string, body: Record<string, unknown>) =>
  ctx.api.post(`${R}/${path}`).set("X-API-Key", ctx.revenueShare).send(body);
const frozen = (tokenId: string) =>
  ctx.emu.chain!.publicClient.readContract({
    address: ctx.emu.chain!.addresses.cardNft,
    abi: cardNftAbi,
    functionName: "isTransferFrozen",
    args: [BigInt(tokenId)],
  });
const rowOf = async (purchaseId: number, id: number) =>
  (
    (await ctx.api.get(`${R}/${purchaseId}`).set("X-API-Key", ctx.revenueShare).expect(200)).body.data
      .redemptions as Array<{
      redemption_id: number;
      status: string;
    }>
  ).find((r) => r.redemption_id === id)!;
const workerArmed = () => ctx.emu.clock.pending().some((t) => t.label === "mystery worker");

describe("burn verification on submit", () => {
  it("a burn cancelled at expiry cannot satisfy a new redemption: 400 invalid_tx_hash (burn_not_pending), still PREPARED; a fresh burn can", async () => {
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1); // nova: no KYC
    const first = await post("prepare", { purchase_id: p.id, shipping_address: US, idempotency_key: "c-1" }).expect(
      201,
    );
    const token = first.body.data.token_id as string;
    const oldBurn = await sendCalls(ctx, u, first.body.data.unsigned.calls.slice(0, 1)); // the burn flag only (no shipping payment)
    await ctx.emu.clock.advance(24 * HOUR); // expires; the operator cancels the flagged burn
    expect(await frozen(token)).toBe(false);

    const second = await post("prepare", { purchase_id: p.id, shipping_address: US, idempotency_key: "c-2" }).expect(
      201,
    );
    const id = second.body.data.redemption_id;
    const stale = await post("submit", { redemption_id: id, tx_hash: oldBurn.transactionHash }).expect(400);
    expect(stale.body).toMatchObject({
      error: "invalid_tx_hash",
      details: { reason: "burn_not_pending", tx_hash: oldBurn.transactionHash },
    });
    expect((await rowOf(p.id, id)).status).toBe("PREPARED");

    // Flagged again: the old hash is still not this burn (a newer BurnInitiated supersedes it); the new one is.
    const newBurn = await sendCalls(ctx, u, second.body.data.unsigned.calls);
    expect(
      expectError(await post("submit", { redemption_id: id, tx_hash: oldBurn.transactionHash }), 400, "invalid_tx_hash")
        .details,
    ).toMatchObject({ reason: "burn_not_pending" });
    expect(
      (await post("submit", { redemption_id: id, tx_hash: newBurn.transactionHash }).expect(202)).body.data.status,
    ).toBe("BURN_SUBMITTED");
    expect(await frozen(token)).toBe(true);
    await ctx.emu.clock.advance(HOUR + 24 * HOUR);
    expect((await rowOf(p.id, id)).status).toBe("COMPLETED");
  });

  it("a burn of another type (grading) is not a redemption burn", async () => {
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const prep = await post("prepare", { purchase_id: p.id, shipping_address: US, idempotency_key: "g-1" }).expect(201);
    const grading = await sendCalls(ctx, u, [
      {
        to: ctx.emu.chain!.addresses.cardNft,
        data: encodeFunctionData({
          abi: cardNftAbi,
          functionName: "initiateBurn",
          args: [BigInt(prep.body.data.token_id), 3],
        }),
      },
    ]);
    const res = await post("submit", {
      redemption_id: prep.body.data.redemption_id,
      tx_hash: grading.transactionHash,
    }).expect(400);
    expect(res.body).toMatchObject({ error: "invalid_tx_hash", details: { reason: "wrong_burn_type" } });
  });

  it("the auto warehouse fails a redemption whose burn was cancelled on chain (FAILED, redemption.updated), never stuck IN_FULFILLMENT", async () => {
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const prep = await post("prepare", { purchase_id: p.id, shipping_address: US, idempotency_key: "w-1" }).expect(201);
    const id = prep.body.data.redemption_id;
    const burn = await sendCalls(ctx, u, prep.body.data.unsigned.calls);
    await post("submit", { redemption_id: id, tx_hash: burn.transactionHash }).expect(202);
    const chain = ctx.emu.chain!;
    const op = chain.walletClientFor(chain.operator);
    await op.sendTransaction({
      to: chain.addresses.cardNft,
      data: encodeFunctionData({
        abi: cardNftAbi,
        functionName: "cancelBurn",
        args: [BigInt(prep.body.data.token_id)],
      }),
      account: op.account,
      chain: chain.viemChain,
    });
    await ctx.emu.clock.advance(HOUR + 24 * HOUR);
    const row = await rowOf(p.id, id);
    expect(row).toMatchObject({ status: "FAILED", burn: { is_burned: false } });
    expect(
      ctx.events
        .filter((e) => e.type === "redemption.updated" && e.data.redemption_id === id)
        .map((e) => e.data.status),
    ).toEqual(["BURN_SUBMITTED", "IN_FULFILLMENT", "FAILED"]);
  });
});

describe("the worker survives a failing job", () => {
  it("a job that throws is logged, the timer stays armed, and later work still runs", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const now = ctx.emu.clock.now();
    const slice = mystery(ctx.emu.services);
    const base: Omit<RedemptionRow, "redemption_id" | "token_id" | "status" | "due_at_ms"> = {
      account_id: "nova",
      idempotency_key: "x",
      purchase_id: 1,
      item_type: "CARD",
      holder: user(ctx, 2).address,
      kyc_status: "NOT_REQUIRED",
      shipping_address: { name: "A", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" },
      shipping_quote: {
        amount_usdc: "5.40",
        currency: "USD",
        carrier: "USPS",
        service: "Ground",
        service_token: "usps_ground",
        estimated_days: 3,
        rate_id: "rate_x",
        quoted_at: new Date(now).toISOString(),
      },
      burn_type: 1,
      burn_tx_hash: `0x${"ab".repeat(32)}`,
      is_burned: false,
      tracking_number: null,
      failure_reason: null,
      expires_at: new Date(now + 24 * HOUR).toISOString(),
      created_at: new Date(now).toISOString(),
      updated_at: new Date(now).toISOString(),
    };
    // Due first and broken (its dispatch throws before anything is sent) …
    slice.redemptions[1] = {
      ...base,
      redemption_id: 1,
      token_id: "not-a-token",
      status: "IN_FULFILLMENT",
      due_at_ms: now + 60_000,
    };
    // … and later work that must still happen.
    slice.redemptions[2] = {
      ...base,
      redemption_id: 2,
      token_id: "7",
      status: "BURN_SUBMITTED",
      due_at_ms: now + 5 * 60_000,
    };
    await ctx.api.post("/_emulator/mystery/worker/run").expect(200); // arms the timer from state

    await ctx.emu.clock.advance(60_000);
    expect(workerArmed()).toBe(true);
    await ctx.emu.clock.advance(4 * 60_000);
    expect(mystery(ctx.emu.services).redemptions[2]!.status).toBe("IN_FULFILLMENT");
    expect(mystery(ctx.emu.services).redemptions[1]!.status).toBe("IN_FULFILLMENT"); // retried later, not lost
    expect(workerArmed()).toBe(true);
    expect(String(errors.mock.calls[0]![0])).toMatch(/mystery worker: redemption 1 warehouse step failed/);
    // retried once a minute, not in a tight loop
    expect(errors.mock.calls.length).toBeLessThanOrEqual(6);
  });
});
