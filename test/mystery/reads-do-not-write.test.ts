import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { apiRoutes } from "../../emulator/app.ts";
import type { RouteSpec } from "../../emulator/pipeline/route.ts";
import { relay, sendUsdc, user } from "./helpers.ts";
import { burst, startRace, type RaceCtx } from "./race-helpers.ts";

// Reads do not write (docs/decisions.md "Reads do not write"): what the chain says reaches the books once, in the
// reconciler's pass after the block (emulator/pipeline/reconcile.ts); a GET only waits for that pass. However many
// reads race it, the settlement's events are published once and the custodial ledger moves once; a read when
// nothing was mined changes nothing at all.

let ctx: RaceCtx;
let base: string;
beforeAll(async () => {
  ctx = await startRace();
  base = await ctx.emu.snapshot();
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await ctx.emu.restore(base);
  ctx.events.length = 0;
});

const M = "/api/v1/mystery";
const N = 12;
const get = (path: string) => ctx.api.get(path).set("X-API-Key", ctx.demo);
/** The whole state as the control plane exports it (store and chain). */
const exported = async () => (await ctx.api.get("/_emulator/state").expect(200)).body.data as unknown;
const wallet = async (u: string) => (await get(`/api/v1/wallet/balance?external_user_id=${u}`).expect(200)).body.data;
const ledger = async (u: string) =>
  (await get(`/api/v1/wallet/ledger?external_user_id=${u}&limit=100`).expect(200)).body.data.entries as Array<{
    entry_type: string;
    amount: string;
  }>;
const fund = (u: string, usdc: string) =>
  ctx.api.post("/_emulator/mystery/custodial/fund").send({ key: ctx.demo, external_user_id: u, usdc }).expect(200);
/**
 * Where `after` changed or dropped what `before` held (JSON pointers, at most 10). With `created`, a key of an
 * object that `before` lacked is not a change: records made on first reference (an end user's wallet id, a slice's
 * empty init, a tenant's books). An array is compared whole (a ledger entry or a deposit appended is a change).
 */
function differences(before: unknown, after: unknown, created = false, at = "", out: string[] = []): string[] {
  if (out.length >= 10 || JSON.stringify(before) === JSON.stringify(after)) return out;
  const object = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
  if (object(before) && object(after)) {
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)]))
      if (!(created && !(k in before))) differences(before[k], after[k], created, `${at}/${k}`, out);
  } else out.push(at);
  return out;
}
const count = (type: string) => ctx.events.filter((e) => e.type === type).length;

/** The block watchers of the chain, set aside while `run` mines: the reconciler does not hear of those blocks. */
async function unheard<T>(run: () => Promise<T>): Promise<T> {
  const listeners = (ctx.emu.chain! as unknown as { blockListeners: Set<() => void> }).blockListeners;
  const saved = [...listeners];
  listeners.clear();
  try {
    return await run();
  } finally {
    for (const l of saved) listeners.add(l);
  }
}

describe("a purchase revealed on chain", () => {
  it("N parallel reads of the purchase and the list answer it settled; its events are published once, the ledger moves once", async () => {
    await fund("rd-user", "100");
    const p = (
      await ctx.api
        .post(`${M}/purchase`)
        .set("X-API-Key", ctx.demo)
        .set("Idempotency-Key", "rd-1")
        .send({ tier_id: 1, external_user_id: "rd-user" })
        .expect(202)
    ).body.data;
    // An operator shortfall: the reveal pays half the price back, a REFUND_CREDIT on the end user's ledger.
    const short = await ctx.api.post(`/_emulator/mystery/purchases/${p.id}/shortfall`).send({ items: 1 });
    expect(short.status, JSON.stringify(short.body)).toBe(200);
    await relay(ctx);
    const submitted = (await get(`${M}/purchase/${p.id}`).expect(200)).body.data;
    expect(submitted.status).toBe("SUBMITTED");
    const entriesBefore = await ledger("rd-user");
    ctx.events.length = 0;
    await ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: submitted.onchain_request_id }).expect(200);
    const answers = await burst(N, (i) => (i % 2 === 0 ? get(`${M}/purchase/${p.id}`) : get(`${M}/purchases`)));
    for (const [i, a] of answers.entries()) {
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      const row =
        i % 2 === 0 ? a.body.data : (a.body.data.purchases as Array<{ id: number }>).find((x) => x.id === p.id);
      expect(row).toMatchObject({ id: p.id, status: "PARTIALLY_FULFILLED" });
      expect((row as { items: unknown[] }).items).toHaveLength(1);
    }
    expect(count("purchase.partially_fulfilled") + count("purchase.fulfilled")).toBe(1);
    expect(count("pool.item_pulled")).toBe(1);
    const entries = await ledger("rd-user");
    const credits = entries.filter((e) => e.entry_type === "REFUND_CREDIT");
    expect(credits).toHaveLength(entriesBefore.filter((e) => e.entry_type === "REFUND_CREDIT").length + 1);
    expect(entries).toHaveLength(entriesBefore.length + 1);
    expect((await wallet("rd-user")).wallet).toMatchObject({ balance: "87500000", reserved: "0" });

    // No block mined since: reads change nothing (the state exported before and after, no event).
    const events = ctx.events.length;
    const before = await exported();
    // Already reconciled: the barrier compares two counters, no call reaches the chain.
    // The node's provider, under the viem clients and the served JSON-RPC alike.
    const node = (ctx.emu.chain! as unknown as { provider: { request(args: unknown): Promise<unknown> } }).provider;
    const rpc = vi.spyOn(node, "request");
    try {
      await burst(N, (i) => (i % 2 === 0 ? get(`${M}/purchase/${p.id}`) : get(`${M}/purchases`)));
      await get(`${M}/feed/recent?scope=mine`).expect(200);
      expect(rpc).not.toHaveBeenCalled();
    } finally {
      rpc.mockRestore();
    }
    const after = await exported();
    expect(differences(before, after)).toEqual([]);
    expect(after).toEqual(before);
    expect(ctx.events.length).toBe(events);
  });
});

describe("a deposit mined to a deposit address", () => {
  it("is credited once however many balance, ledger and deposit reads race it; later reads change nothing", async () => {
    const addr = (
      await ctx.api
        .post("/api/v1/wallet/deposit-address")
        .set("X-API-Key", ctx.demo)
        .send({ external_user_id: "dep-user" })
        .expect(200)
    ).body.data.address as `0x${string}`;
    const start = (await wallet("dep-user")).wallet.balance as string;
    ctx.events.length = 0;
    await sendUsdc(ctx, user(ctx, 2), addr, 7_250_000n);
    const paths = [
      "/api/v1/wallet/balance?external_user_id=dep-user",
      "/api/v1/wallet/ledger?external_user_id=dep-user",
      "/api/v1/wallet/deposits?external_user_id=dep-user",
    ];
    const answers = await burst(N, (i) => get(paths[i % 3]!));
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    const expected = String(BigInt(start) + 7_250_000n);
    for (const a of answers.filter((_, i) => i % 3 === 0)) expect(a.body.data.wallet.balance).toBe(expected);
    for (const a of answers.filter((_, i) => i % 3 === 2)) {
      expect(a.body.data.deposits).toHaveLength(1);
      expect(a.body.data.deposits[0]).toMatchObject({ status: "CONFIRMED" });
    }
    expect(count("deposit.credited")).toBe(1);
    const credits = (await ledger("dep-user")).filter((e) => e.entry_type === "DEPOSIT_CREDIT");
    expect(credits).toHaveLength(1);

    const before = await exported();
    const events = ctx.events.length;
    await burst(N, (i) => get(paths[i % 3]!));
    const after = await exported();
    expect(differences(before, after)).toEqual([]);
    expect(after).toEqual(before);
    expect(ctx.events.length).toBe(events);
    expect((await wallet("dep-user")).wallet.balance).toBe(expected);
  });
});

describe("every GET route", () => {
  it("answers without writing: chain changes the reconciler has not heard of stay unsettled, nothing is published", async () => {
    // Chain facts a settling read would act on: a purchase revealed, a deposit mined, both unheard by the reconciler.
    await fund("guard-user", "100");
    const addr = (
      await ctx.api
        .post("/api/v1/wallet/deposit-address")
        .set("X-API-Key", ctx.demo)
        .send({ external_user_id: "guard-user" })
        .expect(200)
    ).body.data.address as `0x${string}`;
    const p = (
      await ctx.api
        .post(`${M}/purchase`)
        .set("X-API-Key", ctx.demo)
        .set("Idempotency-Key", "guard-1")
        .send({ tier_id: 1, external_user_id: "guard-user" })
        .expect(202)
    ).body.data;
    await relay(ctx);
    const submitted = (await get(`${M}/purchase/${p.id}`).expect(200)).body.data;
    expect(submitted.status).toBe("SUBMITTED");
    await unheard(async () => {
      await ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: submitted.onchain_request_id }).expect(200);
      await sendUsdc(ctx, user(ctx, 2), addr, 3_000_000n);
    });
    const events = ctx.events.length;
    const before = await exported();
    const gets = apiRoutes.filter((r) => r.method === "GET");
    expect(gets.length).toBeGreaterThan(40);
    const fill = (path: string) =>
      path.replace(/:(\w+)(\{[^}]*\})?/g, (_m, _n: string, re?: string) =>
        re && re.includes("|") ? re.slice(1, -1).split("|")[0]! : String(p.id),
      );
    // The key each route's access rule lets through (a TIER-only route: the TIER partner; tenant-only: the tenant).
    const keyFor = (r: RouteSpec): string | null => {
      if (r.access === "public") return null;
      if (!r.access.kinds.includes("partner")) return ctx.tenant;
      return r.access.models && !r.access.models.includes("POOL") ? ctx.revenueShare : ctx.demo;
    };
    const ok = new Set<string>();
    for (const r of gets)
      for (const q of ["", "?external_user_id=guard-user", "?scope=mine", "?token_id=1"]) {
        const req = ctx.api.get(`/api/v1${fill(r.path)}${q}`);
        const key = keyFor(r);
        const res = await (key === null ? req : req.set("X-API-Key", key));
        expect(res.status, `${r.path}${q}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
        if (res.status === 200) ok.add(r.path);
      }
    // The reads that used to settle reached their handlers.
    for (const path of [
      "/mystery/purchase/:id",
      "/mystery/purchases",
      "/wallet/balance",
      "/wallet/ledger",
      "/wallet/deposits",
      "/mystery/feed/recent",
      "/mystery/collection",
      "/mystery/buyback",
      "/instant/purchases",
    ])
      expect(ok, path).toContain(path);
    expect(ok.size).toBeGreaterThan(30);
    expect(ctx.events.length).toBe(events);
    // The pipeline bills a metered key's calls (the tenant's credits): metering, not a settlement.
    const unbilled = (doc: unknown) => ({ ...(doc as { state: object }).state, credits: null });
    expect(differences(unbilled(before), unbilled(await exported()), true)).toEqual([]);
    // The purchase read still shows what the books hold: the reveal waits for the reconciler.
    expect((await get(`${M}/purchase/${p.id}`).expect(200)).body.data.status).toBe("SUBMITTED");
  });
});
