import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeFunctionData } from "viem";
import { mysteryPoolAbi } from "../../chain/index.ts";
import { buy as buyOnChain, relay, user, type Ctx, useMystery } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";
import { usdcOf } from "../chain-reads.ts";

// The custodial purchase lifecycle the SDK polls (docs/reference/sdk-shapes.md “Polling”, “Mystery pack methods”;
// docs/reference/live-service.md “Purchases”): 202 RESERVED with the price held and on-chain fields
// null → SUBMITTING → SUBMITTED → FULFILLED on the virtual clock, each step
// with its webhook; PENDING while the relayer is off; PARTIALLY_FULFILLED on
// an operator shortfall; every status a ?status= filter; balances that add up.

let ctx: Ctx;
// auto VRF: the reveal comes 10 s (virtual) after the relayer's request, as a client meets it.
useMystery("auto", (c) => (ctx = c), { chain: { rpcPort: false, vrf: "auto", vrfDelayMs: 10_000 } });

const M = "/api/v1/mystery";
const MIN = 60_000;

/** gacha.purchase as the SDK sends it: Idempotency-Key header (a UUID v4 when the caller gives none), no key in the body. */
const purchase = (body: Record<string, unknown>, key: string = randomUUID(), apiKey = ctx.demo) =>
  ctx.api
    .post(`${M}/purchase`)
    .set("X-API-Key", apiKey)
    .set("Idempotency-Key", key)
    .set("Content-Type", "application/json")
    .send(body);
const get = (id: number, apiKey = ctx.demo) => ctx.api.get(`${M}/purchase/${id}`).set("X-API-Key", apiKey);
const wallet = async (u: string) =>
  (await ctx.api.get(`/api/v1/wallet/balance?external_user_id=${u}`).set("X-API-Key", ctx.demo).expect(200)).body.data
    .wallet;
const relayer = (enabled: boolean) => ctx.api.post("/_emulator/mystery/relayer").send({ enabled }).expect(200);
const eventsOf = (id: number) =>
  ctx.events.filter((e) => e.type.startsWith("purchase.") && e.data.purchase_id === id).map((e) => e.type);

type Purchase = Record<string, any>;

/**
 * gacha.waitForReveal (docs/reference/sdk-shapes.md “Polling”): fetch, stop on FULFILLED / PARTIALLY_FULFILLED, throw on
 * FAILED / REFUNDED, else sleep (here: advance the virtual clock) 1.5 s × 1.5ⁿ up to 5 s, 120 s timeout.
 */
async function waitForReveal(id: number, seen: string[] = []): Promise<Purchase> {
  let interval = 1500;
  let elapsed = 0;
  for (;;) {
    const p = (await get(id).expect(200)).body.data as Purchase;
    if (seen.at(-1) !== p.status) seen.push(p.status);
    if (p.status === "FULFILLED" || p.status === "PARTIALLY_FULFILLED") return p;
    if (p.status === "FAILED" || p.status === "REFUNDED") throw new Error(`TerminalStateError: ${p.status}`);
    if (elapsed + interval > 120_000) throw new Error("PollTimeoutError");
    await ctx.emu.clock.advance(interval);
    elapsed += interval;
    interval = Math.min(5000, interval * 1.5);
  }
}

describe("custodial purchase lifecycle (the SDK's way)", () => {
  it("202 RESERVED (held, on-chain null) → SUBMITTING → SUBMITTED → FULFILLED on the clock, one webhook per step", async () => {
    const key = randomUUID();
    const res = await purchase({ tier_id: 1, external_user_id: "acme-user-1" }, key).expect(202);
    const p = res.body.data as Purchase;
    expect(p).toMatchObject({
      status: "RESERVED",
      custody: "CUSTODIAL",
      tier_id: 1,
      quantity: 1,
      price: "25000000",
      price_usdc: "25.000000",
    });
    expect([p.onchain_request_id, p.transaction_hash, p.submitted_at, p.fulfilled_at, p.failure_reason]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(p.reserved_at).toBe(ctx.emu.clock.nowIso());
    expect(p.items).toBeUndefined();
    expect(await wallet("acme-user-1")).toMatchObject({
      balance: "500000000",
      reserved: "25000000",
      available: "475000000",
    });
    expect(eventsOf(p.id)).toEqual(["purchase.reserved"]);
    expect(ctx.events[0]!.data).toEqual({ purchase_id: p.id, status: "RESERVED" });
    // readable at once (the SDK's poll throws on a 404)
    expect((await get(p.id).expect(200)).body.data.status).toBe("RESERVED");
    // a retry of the same call (the SDK resends the key) is the original 202, not a second hold
    const replay = await purchase({ tier_id: 1, external_user_id: "acme-user-1" }, key).expect(202);
    expect(replay.body.data.id).toBe(p.id);

    const seen: string[] = [];
    const done = await waitForReveal(p.id, seen);
    expect(seen).toEqual(["RESERVED", "SUBMITTING", "SUBMITTED", "FULFILLED"]);
    expect(done.items).toHaveLength(2); // tier 1: a card slot and a packet slot
    expect(done.onchain_request_id).toMatch(/^\d+$/);
    expect(done.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Date.parse(done.submitted_at)).toBeGreaterThan(Date.parse(done.reserved_at));
    expect(Date.parse(done.fulfilled_at)).toBeGreaterThan(Date.parse(done.submitted_at));
    expect(await wallet("acme-user-1")).toMatchObject({ balance: "475000000", reserved: "0" });
    expect(eventsOf(p.id)).toEqual(["purchase.reserved", "purchase.submitted", "purchase.fulfilled"]);
    const submitted = ctx.events.find((e) => e.type === "purchase.submitted")!.data;
    expect(submitted).toEqual({
      purchase_id: p.id,
      status: "SUBMITTED",
      transaction_hash: done.transaction_hash,
      onchain_request_id: done.onchain_request_id,
    });
    const fulfilled = ctx.events.find((e) => e.type === "purchase.fulfilled")!.data;
    expect(fulfilled).toMatchObject({
      purchase_id: p.id,
      status: "FULFILLED",
      onchain_request_id: done.onchain_request_id,
    });
    expect(fulfilled.items).toEqual(done.items);
    // the relayer paid on chain and the items went to the end user's custodial wallet
    const tx = await ctx.emu.chain!.publicClient.getTransactionReceipt({ hash: done.transaction_hash });
    expect(tx.from.toLowerCase()).toBe(ctx.emu.chain!.relayer.address.toLowerCase());
  });

  it("the relayer off: 503 relayer_disabled (retryable, Retry-After, nothing held); a held purchase waits PENDING and resumes when it is back", async () => {
    const held = (await purchase({ tier_id: 1, external_user_id: "acme-user-1" }).expect(202)).body.data as Purchase;
    await relayer(false);
    const refused = await purchase({ tier_id: 1, external_user_id: "acme-user-1" }, "off-1").expect(503);
    expect(refused.body).toMatchObject({ success: false, error: "relayer_disabled", retryable: true });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(await wallet("acme-user-1")).toMatchObject({ reserved: "25000000" }); // only the first hold

    await ctx.emu.clock.advance(3000);
    const pending = (await get(held.id).expect(200)).body.data;
    expect(pending).toMatchObject({ status: "PENDING", transaction_hash: null, onchain_request_id: null });
    expect(await wallet("acme-user-1")).toMatchObject({ balance: "500000000", reserved: "25000000" });
    await ctx.emu.clock.advance(10 * MIN);
    expect((await get(held.id).expect(200)).body.data.status).toBe("PENDING");

    const on = await relayer(true);
    expect(on.body.data).toEqual({ enabled: true, resumed: 1 });
    expect((await get(held.id).expect(200)).body.data.status).toBe("SUBMITTING");
    const done = await waitForReveal(held.id);
    expect(done.status).toBe("FULFILLED");
    expect(eventsOf(held.id)).toEqual(["purchase.reserved", "purchase.submitted", "purchase.fulfilled"]);
    // the refused key was not used up: the SDK's retry with it now buys
    expect(
      (await purchase({ tier_id: 1, external_user_id: "acme-user-1" }, "off-1").expect(202)).body.data.status,
    ).toBe("RESERVED");
  });

  it("PENDING past the hour: FAILED, the hold released (HOLD_RELEASE), purchase.failed with the reason", async () => {
    const p = (await purchase({ tier_id: 1, external_user_id: "acme-user-1" }).expect(202)).body.data as Purchase;
    await relayer(false);
    await ctx.emu.clock.advance(60 * MIN + 1000);
    const failed = (await get(p.id).expect(200)).body.data;
    expect(failed).toMatchObject({ status: "FAILED", transaction_hash: null, onchain_request_id: null });
    expect(failed.failure_reason).toMatch(/^relayer_unavailable/);
    expect(await wallet("acme-user-1")).toMatchObject({ balance: "500000000", reserved: "0" });
    expect(eventsOf(p.id)).toEqual(["purchase.reserved", "purchase.failed"]);
    expect(ctx.events.find((e) => e.type === "purchase.failed")!.data).toEqual({
      purchase_id: p.id,
      status: "FAILED",
      reason: failed.failure_reason,
    });
    const entries = (
      await ctx.api.get("/api/v1/wallet/ledger?external_user_id=acme-user-1").set("X-API-Key", ctx.demo).expect(200)
    ).body.data.entries;
    expect(entries.map((e: { entry_type: string }) => e.entry_type).slice(0, 2)).toEqual(["HOLD_RELEASE", "HOLD"]);
    await expect(waitForReveal(p.id)).rejects.toThrow("TerminalStateError: FAILED");
  });

  it("an operator shortfall: PARTIALLY_FULFILLED with the delivered items, the undelivered share back on the balance", async () => {
    const p = (await purchase({ tier_id: 1, external_user_id: "acme-user-1" }).expect(202)).body.data as Purchase;
    const marked = await ctx.api.post(`/_emulator/mystery/purchases/${p.id}/shortfall`).send({ items: 1 }).expect(200);
    expect(marked.body.data.status).toBe("RESERVED");
    expectError(
      await ctx.api.post(`/_emulator/mystery/purchases/${p.id}/shortfall`).send({ items: 0 }),
      400,
      "invalid_value",
    );
    const done = await waitForReveal(p.id);
    expect(done.status).toBe("PARTIALLY_FULFILLED");
    expect(done.items).toHaveLength(1);
    expect(done.failure_reason).toMatch(/^partially_fulfilled: 1 of 2 items/);
    // 25 USDC for 2 items: 12.5 back
    expect(await wallet("acme-user-1")).toMatchObject({
      balance: String(500_000_000 - 25_000_000 + 12_500_000),
      reserved: "0",
    });
    const ev = ctx.events.find((e) => e.type === "purchase.fulfilled" && e.data.purchase_id === p.id)!.data;
    expect(ev).toMatchObject({ status: "PARTIALLY_FULFILLED" });
    expect(ev.items).toEqual(done.items);
    expectError(
      await ctx.api.post(`/_emulator/mystery/purchases/${p.id}/shortfall`).send({ items: 1 }),
      409,
      "invalid_status",
    );
    // a partial delivery is still a sale: it counts as volume (docs/reference/live-service.md “Purchases” stats), in the purchase and in the stats
    expect(done.volume_usdc).toBe("25.000000");
    const stats = (await ctx.api.get(`${M}/stats`).set("X-API-Key", ctx.demo).expect(200)).body.data;
    expect([stats.total_volume, stats.by_tier]).toEqual([
      "25000000",
      [{ tier_id: 1, pulls: 1, volume: "25000000", volume_usdc: "25.000000" }],
    ]);
  });

  it("max_price_usdc is the hold; the end user is debited what the pool charged and the rest returns to available", async () => {
    const p = (await purchase({ tier_id: 1, external_user_id: "acme-user-1", max_price_usdc: "30" }).expect(202)).body
      .data as Purchase;
    expect(p).toMatchObject({ status: "RESERVED", price: "25000000" });
    expect(await wallet("acme-user-1")).toMatchObject({ balance: "500000000", reserved: "30000000" });
    // the operator lowers the tier's price on chain before the relayer sends the purchase
    const chain = ctx.emu.chain!;
    const hash = await chain.walletClientFor(chain.operator).sendTransaction({
      account: chain.operator.address,
      chain: chain.viemChain,
      to: chain.addresses.mysteryPool,
      data: encodeFunctionData({ abi: mysteryPoolAbi, functionName: "setTierPrice", args: [1, 20_000_000n] }),
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    await relay(ctx);
    expect((await get(p.id).expect(200)).body.data).toMatchObject({
      status: "SUBMITTED",
      price: "20000000",
      price_usdc: "20.000000",
    });
    expect(await wallet("acme-user-1")).toMatchObject({ balance: "480000000", reserved: "0" });
    const entries = (
      await ctx.api.get("/api/v1/wallet/ledger?external_user_id=acme-user-1").set("X-API-Key", ctx.demo).expect(200)
    ).body.data.entries;
    expect(entries.slice(0, 3).map((e: { entry_type: string; amount: string }) => [e.entry_type, e.amount])).toEqual([
      ["HOLD_RELEASE", "10000000"],
      ["HOLD_SETTLE", "-20000000"],
      ["HOLD", "-30000000"],
    ]);
    // a hold above the available balance is 402, nothing held
    expectError(
      await purchase({ tier_id: 1, external_user_id: "acme-user-2", max_price_usdc: "31" }),
      402,
      "insufficient_funds",
    );
  });

  it("a non-custodial shortfall pays the undelivered share back on chain to the buyer's wallet", async () => {
    const u = user(ctx, 5);
    const { purchase: p } = await buyOnChain(ctx, ctx.demo, u, 1);
    await ctx.api.post(`/_emulator/mystery/purchases/${p.id}/shortfall`).send({ items: 1 }).expect(200);
    const before = await usdcOf(ctx.emu, u.address);
    const done = await waitForReveal(p.id);
    expect(done).toMatchObject({ status: "PARTIALLY_FULFILLED", custody: "NON_CUSTODIAL" });
    expect(done.items).toHaveLength(1);
    expect((await usdcOf(ctx.emu, u.address)) - before).toBe(12_500_000n);
  });

  it("every status is a ?status= filter (case-insensitive) that lists exactly the purchases in it; anything else is 400 invalid_status", async () => {
    const buy = async () =>
      (await purchase({ tier_id: 1, external_user_id: "acme-user-1" }).expect(202)).body.data.id as number;
    const ids: Record<string, number> = {};
    ids.FAILED = await buy();
    await relayer(false);
    await ctx.emu.clock.advance(60 * MIN + 1000);
    await relayer(true);
    ids.FULFILLED = await buy();
    await ctx.emu.clock.advance(20_000);
    ids.PARTIALLY_FULFILLED = await buy();
    await ctx.api
      .post(`/_emulator/mystery/purchases/${ids.PARTIALLY_FULFILLED}/shortfall`)
      .send({ items: 2 })
      .expect(200);
    await ctx.emu.clock.advance(20_000);
    ids.REFUNDED = await buy();
    await relay(ctx);
    await ctx.api.post(`/_emulator/mystery/purchases/${ids.REFUNDED}/refund`).expect(200);
    ids.SUBMITTED = await buy(); // its reveal comes 7 s after the buy; everything below takes 6.6 s
    await relay(ctx);
    // SUBMITTING (broadcast at +2 s, mined at +4 s), PENDING (picked up at +2.5 s with the relayer off), RESERVED (picked up at +3.8 s)
    ids.SUBMITTING = await buy();
    await ctx.emu.clock.advance(500);
    ids.PENDING = await buy();
    await ctx.emu.clock.advance(1_300);
    ids.RESERVED = await buy();
    await ctx.emu.clock.advance(200);
    await relayer(false);
    await ctx.emu.clock.advance(600);

    for (const [status, id] of Object.entries(ids)) {
      const rows = (
        await ctx.api
          .get(`${M}/purchases?status=${status.toLowerCase()}&external_user_id=acme-user-1`)
          .set("X-API-Key", ctx.demo)
          .expect(200)
      ).body.data.purchases;
      expect(
        rows.map((r: Purchase) => [r.id, r.status]),
        status,
      ).toEqual([[id, status]]);
    }
    expectError(await ctx.api.get(`${M}/purchases?status=DONE`).set("X-API-Key", ctx.demo), 400, "invalid_status");
  });
});

describe("custodial balances add up (property)", () => {
  type Op =
    | { kind: "buy"; user: number; tier: 1 | 2 }
    | { kind: "relayer"; on: boolean }
    | { kind: "advance"; ms: number }
    | { kind: "refund" }
    | { kind: "shortfall"; items: number };
  const USERS = ["acme-user-1", "acme-user-3"];
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      kind: fc.constant("buy" as const),
      user: fc.integer({ min: 0, max: 1 }),
      tier: fc.constantFrom(1 as const, 2 as const),
    }),
    fc.record({ kind: fc.constant("relayer" as const), on: fc.boolean() }),
    fc.record({ kind: fc.constant("advance" as const), ms: fc.constantFrom(1_000, 2_000, 5_000, 61 * MIN) }),
    fc.record({ kind: fc.constant("refund" as const) }),
    fc.record({ kind: fc.constant("shortfall" as const), items: fc.integer({ min: 1, max: 2 }) }),
  );

  it("held + settled − refunded = the balance change, for any mix of purchases, relayer switches, clock, refunds and shortfalls", async () => {
    const base = await ctx.emu.snapshot();
    const start: Record<string, bigint> = {};
    for (const u of USERS) start[u] = BigInt((await wallet(u)).balance);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 7 }), async (ops) => {
        await ctx.emu.restore(base);
        ctx.events.length = 0;
        for (const o of ops) {
          const mine = (await ctx.api.get(`${M}/purchases?limit=100`).set("X-API-Key", ctx.demo).expect(200)).body.data
            .purchases as Purchase[];
          if (o.kind === "buy") {
            const r = await purchase({ tier_id: o.tier, external_user_id: USERS[o.user] });
            expect([202, 402, 503]).toContain(r.status);
          } else if (o.kind === "relayer") await relayer(o.on);
          else if (o.kind === "advance") await ctx.emu.clock.advance(o.ms);
          else if (o.kind === "refund") {
            const p = mine.find((x) => x.status === "SUBMITTED");
            if (p) await ctx.api.post(`/_emulator/mystery/purchases/${p.id}/refund`);
          } else {
            const p = mine.find((x) => ["RESERVED", "PENDING", "SUBMITTING", "SUBMITTED"].includes(x.status));
            if (p) await ctx.api.post(`/_emulator/mystery/purchases/${p.id}/shortfall`).send({ items: o.items });
          }
        }
        const rows = (await ctx.api.get(`${M}/purchases?limit=100`).set("X-API-Key", ctx.demo).expect(200)).body.data
          .purchases as Purchase[];
        for (const u of USERS) {
          const w = await wallet(u);
          const own = rows.filter((p) => p.custody === "CUSTODIAL" && p.external_user_id === u);
          const held = own
            .filter((p) => ["RESERVED", "PENDING", "SUBMITTING"].includes(p.status))
            .reduce((n, p) => n + BigInt(p.price), 0n);
          const spent = own
            .filter((p) => ["SUBMITTED", "FULFILLED", "PARTIALLY_FULFILLED"].includes(p.status))
            .reduce((n, p) => n + BigInt(p.price), 0n);
          // a partial delivery pays back the undelivered share (price × missing / slots, rounded down)
          const back = own
            .filter((p) => p.status === "PARTIALLY_FULFILLED")
            .reduce((n, p) => {
              const [, missing, slots] = /^partially_fulfilled: (\d+) of (\d+) items/.exec(p.failure_reason)!;
              expect((p.items as unknown[]).length).toBe(Number(slots) - Number(missing));
              return n + (BigInt(p.price) * BigInt(missing!)) / BigInt(slots!);
            }, 0n);
          expect(BigInt(w.reserved), `${u} reserved`).toBe(held);
          expect(BigInt(w.balance), `${u} balance`).toBe(start[u]! - spent + back);
          expect(BigInt(w.available)).toBeGreaterThanOrEqual(0n);
          // the ledger adds up to the same balance and reservation
          const entries = (
            await ctx.api
              .get(`/api/v1/wallet/ledger?external_user_id=${u}&limit=100`)
              .set("X-API-Key", ctx.demo)
              .expect(200)
          ).body.data.entries as Array<Record<string, string>>;
          if (entries.length)
            expect([entries[0]!.balance_after, entries[0]!.reserved_after]).toEqual([w.balance, w.reserved]);
        }
        // one purchase.reserved per purchase, one terminal-or-step event each in order
        for (const p of rows.filter((x) => x.custody === "CUSTODIAL")) {
          const evs = eventsOf(p.id);
          expect(evs[0]).toBe("purchase.reserved");
          expect(new Set(evs).size).toBe(evs.length);
        }
      }),
      { numRuns: 20, seed: 11 },
    );
  });
});
