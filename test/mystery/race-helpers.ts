import { parseEventLogs, type TransactionReceipt } from "viem";
import { mysteryPoolAbi } from "../../chain/index.ts";
import { PARTNER_SCOPES } from "../../emulator/state/plans.ts";
import { newKey, startEmulator, waitFor } from "../helpers.ts";
import { startReceiver, type Receiver } from "../webhooks/receiver.ts";
import type { Ctx } from "./helpers.ts";

// Set-up for the parallel-request tests of the commerce routes: gates and rate
// limits wide enough that every request of a burst is in flight at once, keys
// of two POOL partners (acme and a rival) and the TIER partner, each with a
// webhook to a real receiver, so the outbox shows what a partner would get.

export interface RaceCtx extends Ctx {
  /** A second POOL partner (its own account): must never see acme's tokens. */
  rival: string;
  rx: Receiver;
}

/** Every partner scope but the two that set POOL and TIER partners apart (pool:manage, payout:manage). */
const PARTNER = PARTNER_SCOPES.filter((s) => s !== "pool:manage" && s !== "payout:manage");

export async function startRace(): Promise<RaceCtx> {
  const { emu, api, close } = await startEmulator({
    chain: { rpcPort: false, vrf: "manual" },
    gates: { purchase: 64, partner_write: 64, partner_read: 64, wallet_read: 64 },
    ipRateLimitPerMin: 1e9,
  });
  const key = (body: Record<string, unknown>) =>
    newKey(api, { kind: "partner", rate_limit_per_min: 1e6, partner_rate_limit_per_min: 1e6, ...body });
  const demo = await key({ billing_model: "POOL", account_id: "acme", scopes: [...PARTNER, "pool:manage"] });
  const revenueShare = await key({ billing_model: "TIER", account_id: "nova", scopes: [...PARTNER, "payout:manage"] });
  const rival = await key({ billing_model: "POOL", account_id: "orbit", scopes: [...PARTNER, "pool:manage"] });
  const rx = await startReceiver();
  for (const k of [demo, revenueShare, rival])
    await api.post("/api/v1/webhooks").set("X-API-Key", k).send({ url: rx.url }).expect(201);
  const events: Ctx["events"] = [];
  emu.services.bus.on("webhook.event", (e) => events.push(e));
  return {
    emu,
    api,
    demo,
    revenueShare,
    rival,
    tenant: emu.key("tenant"),
    events,
    rx,
    close: async () => {
      await close();
      await rx.close();
    },
  };
}

interface Attempt {
  event_type: string;
  event_id: string;
  outcome: string;
  request: { body: string };
}

/** The outbox once every published event has had its first delivery attempt: event type → event data (one per delivery). */
export async function outbox(ctx: RaceCtx): Promise<Map<string, Array<Record<string, unknown>>>> {
  const ids = new Set(ctx.events.map((e) => `${e.type}:${e.key}`));
  let attempts: Attempt[] = [];
  await waitFor(() => ctx.rx.received.length >= ids.size, `${ids.size} deliveries`);
  const res = await ctx.api.get("/_emulator/webhooks/outbox").expect(200);
  attempts = res.body.data.attempts as Attempt[];
  const out = new Map<string, Array<Record<string, unknown>>>();
  for (const a of attempts) {
    if (a.outcome !== "delivered") continue;
    const list = out.get(a.event_type) ?? [];
    list.push((JSON.parse(a.request.body) as { data: Record<string, unknown> }).data);
    out.set(a.event_type, list);
  }
  return out;
}

/**
 * Makes receipt reads as slow as a real node's (a few event-loop turns, not
 * wall time), so a burst's requests all reach their handlers while the first
 * one is still waiting on the chain: the window in which a check-await-write
 * handler lets every request pass its check. Returns the undo.
 */
export function slowReceipts(ctx: RaceCtx, turns = 40): () => void {
  const client = ctx.emu.chain!.publicClient;
  const original = client.getTransactionReceipt;
  client.getTransactionReceipt = (async (args: Parameters<typeof original>[0]) => {
    for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
    return original(args);
  }) as typeof original;
  return () => {
    client.getTransactionReceipt = original;
  };
}

/** `n` copies of one request, all sent before any answer comes back. */
export function burst<T>(n: number, make: (i: number) => PromiseLike<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => make(i)));
}

/** The PurchaseRequested log of a purchase receipt (price as the chain charged it). */
export function requested(ctx: RaceCtx, receipt: TransactionReceipt) {
  const pool = ctx.emu.chain!.addresses.mysteryPool.toLowerCase();
  return parseEventLogs({
    abi: mysteryPoolAbi,
    eventName: "PurchaseRequested",
    logs: receipt.logs.filter((l) => l.address.toLowerCase() === pool),
  })[0]!.args;
}

/** The CardSellExecuted log of a sell-back receipt. */
export function sold(ctx: RaceCtx, receipt: TransactionReceipt) {
  const pool = ctx.emu.chain!.addresses.mysteryPool.toLowerCase();
  return parseEventLogs({
    abi: mysteryPoolAbi,
    eventName: "CardSellExecuted",
    logs: receipt.logs.filter((l) => l.address.toLowerCase() === pool),
  })[0]!.args;
}
