import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { encodeFunctionData, type Hex } from "viem";
import { sendAndWait, usdStablecoinAbi, type FixtureAccount } from "../../chain/index.ts";
import type { BusEvents } from "../../emulator/bus.ts";
import { startEmulator, type Api, type Emulator } from "../helpers.ts";
import type { EmulatorOptions } from "../../emulator/index.ts";
import { RELAY_CONFIRM_MS, RELAY_PICKUP_MS } from "../../contract/lifecycles/purchases.ts";

// Shared set-up for the mystery tests: an emulator with the in-process chain
// (manual clock, manual VRF unless asked), the fixture partner keys, and a
// helper that buys a pack the way a partner's user does (prepare → sign both
// calls → submit).

export interface Ctx {
  emu: Emulator;
  api: Api;
  close: () => Promise<void>;
  demo: string;
  revenueShare: string;
  tenant: string;
  events: BusEvents["webhook.event"][];
}

export async function startMystery(vrf: "auto" | "manual" = "manual", options: EmulatorOptions = {}): Promise<Ctx> {
  const { emu, api, close } = await startEmulator({ chain: { rpcPort: false, vrf }, ...options });
  const events: Ctx["events"] = [];
  emu.services.bus.on("webhook.event", (e) => events.push(e));
  return {
    emu,
    api,
    close,
    demo: emu.key("demo"),
    revenueShare: emu.key("revenue-share"),
    tenant: emu.key("tenant"),
    events,
  };
}

export const user = (ctx: Ctx, i: number): FixtureAccount => ctx.emu.chain!.endUsers[i]!;

/** Sends the unsigned calls of a prepare answer from a fixture wallet; returns the last receipt. */
export async function sendCalls(
  ctx: Ctx,
  from: FixtureAccount,
  calls: Array<{ to: `0x${string}`; data: `0x${string}` }>,
) {
  let receipt;
  for (const call of calls) receipt = await sendAndWait(ctx.emu.chain!, from, { to: call.to, data: call.data });
  return receipt!;
}

/** prepare → sign → submit; returns the submit answer's purchase (status SUBMITTED). */
export async function buy(ctx: Ctx, key: string, from: FixtureAccount, tierId = 1) {
  const prep = await ctx.api
    .post("/api/v1/mystery/purchase/prepare")
    .set("X-API-Key", key)
    .send({ wallet_address: from.address, tier_id: tierId })
    .expect(200);
  const receipt = await sendCalls(ctx, from, prep.body.data.calls);
  expect(receipt.status).toBe("success");
  const sub = await ctx.api
    .post("/api/v1/mystery/purchase/submit")
    .set("X-API-Key", key)
    .send({ wallet_address: from.address, tier_id: tierId, transaction_hash: receipt.transactionHash })
    .expect(202);
  return { purchase: sub.body.data as Record<string, any>, receipt };
}

/** Buys and reveals (manual VRF fulfil through the control plane); returns the FULFILLED purchase. */
export async function buyRevealed(ctx: Ctx, key: string, from: FixtureAccount, tierId = 1) {
  const { purchase } = await buy(ctx, key, from, tierId);
  await ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: purchase.onchain_request_id }).expect(200);
  const got = await ctx.api.get(`/api/v1/mystery/purchase/${purchase.id}`).set("X-API-Key", key).expect(200);
  expect(got.body.data.status).toBe("FULFILLED");
  return got.body.data as Record<string, any>;
}

export const types = (ctx: Ctx) => ctx.events.map((e) => e.type);

/**
 * One emulator with the chain for a test file, back at its post-start snapshot
 * (state, chain and recorded events) before every test.
 */
export function useMystery(vrf: "auto" | "manual", set: (ctx: Ctx) => void, options: EmulatorOptions = {}): void {
  let ctx: Ctx;
  let base: string;
  beforeAll(async () => {
    ctx = await startMystery(vrf, options);
    base = await ctx.emu.snapshot();
    set(ctx);
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.emu.restore(base);
    ctx.events.length = 0;
  });
}

/** A custodial purchase is relayed on the virtual clock: RESERVED → SUBMITTING (pickup) → SUBMITTED (confirm). */
export const RELAY_MS = RELAY_PICKUP_MS + RELAY_CONFIRM_MS;

/** Advances the clock until every RESERVED custodial purchase is SUBMITTED (the relayer picked it up and it was mined). */
export const relay = (ctx: Ctx) => ctx.emu.clock.advance(RELAY_MS);

/** A plain USDC transfer on the local chain (a deposit, a gift), mined; its transaction hash. */
export async function sendUsdc(ctx: Ctx, from: FixtureAccount, to: `0x${string}`, micros: bigint): Promise<Hex> {
  const chain = ctx.emu.chain!;
  const data = encodeFunctionData({ abi: usdStablecoinAbi, functionName: "transfer", args: [to, micros] });
  const receipt = await sendAndWait(chain, from, { to: chain.addresses.stablecoin, data });
  expect(receipt.status).toBe("success");
  return receipt.transactionHash;
}
