import fc from "fast-check";
import { endUser, ownerOf as ownerOfToken, readBook, sum, type Book } from "./money-book.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buy, RELAY_MS, user } from "./helpers.ts";
import { burst, startRace, type RaceCtx } from "./race-helpers.ts";

// The money invariant of mystery purchases, custodial and non-custodial, with
// the chain in the loop: over random sequences of purchases, relay steps, VRF
// reveals, failed reveals, shortfalls, operator refunds and bursts of parallel
// reads racing the worker and operator actions, checkpoints and resets or
// restores back to them with reads, the worker and a reveal in flight, then a
// drain (everything relayed and revealed):
// - on-chain USDC over every party is conserved, and so is the custodial book
//   (end users' ledger balances − the relayer's USDC: the relayer pays for them);
// - each party's change is exactly what its purchases say: a buyer (wallet or
//   ledger) and the pool moved by the net charge (price − refund) of each row;
// - every token of a revealed purchase is its buyer's, no token is in two
//   purchases, and a wallet holds exactly its delivered items (none undelivered).

let ctx: RaceCtx;
let base: string;
beforeAll(async () => {
  ctx = await startRace();
  for (const u of USERS)
    await ctx.api
      .post("/_emulator/mystery/custodial/fund")
      .send({ key: ctx.demo, external_user_id: u, usdc: "200" })
      .expect(200);
  base = await ctx.emu.snapshot();
});
afterAll(() => ctx.close());

const M = "/api/v1/mystery";
const USERS = ["money-1", "money-2"];
const WAITING = ["RESERVED", "PENDING", "SUBMITTING", "SUBMITTED"];
type Row = Record<string, any>;

type Op =
  | { kind: "buy"; custodial: boolean; who: number; tier: 1 | 2 }
  | { kind: "advance"; ms: number }
  | { kind: "reveal"; pick: number }
  | { kind: "failReveal"; pick: number }
  | { kind: "shortfall"; pick: number; items: number }
  | { kind: "refund"; pick: number }
  | { kind: "race"; pick: number; with: "worker" | "refund" | "shortfall" | "reveal" }
  | { kind: "checkpoint" }
  | { kind: "replace"; via: "restore" | "reset"; race: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("buy" as const),
      custodial: fc.boolean(),
      who: fc.integer({ min: 0, max: 1 }),
      tier: fc.constantFrom(1 as const, 2 as const),
    }),
  },
  fc.record({ kind: fc.constant("advance" as const), ms: fc.constantFrom(2_000, 4_000) }),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("reveal" as const), pick: fc.nat(7) }) },
  fc.record({ kind: fc.constant("failReveal" as const), pick: fc.nat(7) }),
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("shortfall" as const),
      pick: fc.nat(7),
      items: fc.integer({ min: 1, max: 3 }),
    }),
  },
  fc.record({ kind: fc.constant("refund" as const), pick: fc.nat(7) }),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("race" as const),
      pick: fc.nat(7),
      with: fc.constantFrom("worker" as const, "refund" as const, "shortfall" as const, "reveal" as const),
    }),
  },
  fc.record({ kind: fc.constant("checkpoint" as const) }),
  // Back to the last checkpoint (through a reset first, or not), with work in flight across it (issue 37).
  fc.record({
    kind: fc.constant("replace" as const),
    via: fc.constantFrom("restore" as const, "reset" as const),
    race: fc.boolean(),
  }),
);

const chain = () => ctx.emu.chain!;
const ownerOf = (id: string) => ownerOfToken(ctx, id);
const rows = async (): Promise<Row[]> =>
  (await ctx.api.get(`${M}/purchases?limit=100`).set("X-API-Key", ctx.demo).expect(200)).body.data.purchases;
const wallet = (u: string) => endUser(ctx, u);
const get = (id: number) => ctx.api.get(`${M}/purchase/${id}`).set("X-API-Key", ctx.demo);
const pick = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);
const fulfil = (requestId: string) => ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: requestId });

/** Every answer of an operator action or read is a documented one: never a 5xx. */
const settled = (r: { status: number; body: unknown }, allowed: number[]) =>
  expect(allowed, JSON.stringify(r.body)).toContain(r.status);

/** Snapshots taken by this run's `checkpoint` steps (the last one is where `replace` goes back to). */
let checkpoints: string[] = [];

/** Reset or restore while reads, the worker and a VRF fulfilment are in flight: every answer a documented one. */
async function replaceWhileBusy(o: Extract<Op, { kind: "replace" }>, submitted: Row[]): Promise<void> {
  const target = checkpoints.at(-1) ?? base;
  const swap = async () => {
    if (o.via === "reset") await ctx.api.post("/_emulator/reset").expect(200);
    await ctx.api.post("/_emulator/restore").send({ id: target }).expect(200);
  };
  if (!o.race) return swap();
  const p = submitted[0];
  const busy = [
    ctx.api.post("/_emulator/mystery/worker/run").send({}),
    ctx.api.get(`${M}/purchases?limit=100`).set("X-API-Key", ctx.demo),
    ctx.api.get(`/api/v1/wallet/balance?external_user_id=${USERS[0]}`).set("X-API-Key", ctx.demo),
    ...(p ? [fulfil(p.onchain_request_id), get(p.id)] : []),
  ].map((r) => r.then((x) => x));
  await swap();
  for (const a of await Promise.all(busy)) settled(a, [200, 404, 409]);
}

async function apply(o: Op, n: number): Promise<void> {
  if (o.kind === "checkpoint") {
    checkpoints.push(await ctx.emu.snapshot());
    return;
  }
  const all = await rows();
  const submitted = all.filter((p) => p.status === "SUBMITTED");
  if (o.kind === "buy") {
    if (!o.custodial) await buy(ctx, ctx.demo, user(ctx, o.who), o.tier);
    else
      settled(
        await ctx.api
          .post(`${M}/purchase`)
          .set("X-API-Key", ctx.demo)
          .set("Idempotency-Key", `money-${n}`)
          .send({ tier_id: o.tier, external_user_id: USERS[o.who] }),
        [202, 402],
      );
  } else if (o.kind === "replace") await replaceWhileBusy(o, submitted);
  else if (o.kind === "advance") await ctx.emu.clock.advance(o.ms);
  else if (o.kind === "reveal") {
    const p = pick(submitted, o.pick);
    if (p) settled(await fulfil(p.onchain_request_id), [200, 404, 409]);
  } else if (o.kind === "failReveal") {
    const p = pick(submitted, o.pick);
    if (p) settled(await ctx.api.post(`/_emulator/mystery/purchases/${p.id}/fail-reveal`).send({}), [200, 409]);
  } else if (o.kind === "shortfall") {
    const p = pick(
      all.filter((x) => WAITING.includes(x.status)),
      o.pick,
    );
    if (p)
      settled(
        await ctx.api.post(`/_emulator/mystery/purchases/${p.id}/shortfall`).send({ items: o.items }),
        [200, 409],
      );
  } else if (o.kind === "refund") {
    const p = pick(submitted, o.pick);
    if (p) settled(await ctx.api.post(`/_emulator/mystery/purchases/${p.id}/refund`).send({}), [200, 409]);
  } else {
    // 8 parallel reads (one of them the list) racing the worker or an operator action on the same purchase.
    const p = pick(submitted, o.pick);
    if (!p) return;
    if (o.with === "reveal") settled(await fulfil(p.onchain_request_id), [200, 404, 409]);
    const other = () => {
      if (o.with === "worker" || o.with === "reveal") return ctx.api.post("/_emulator/mystery/worker/run").send({});
      if (o.with === "refund") return ctx.api.post(`/_emulator/mystery/purchases/${p.id}/refund`).send({});
      return ctx.api.post(`/_emulator/mystery/purchases/${p.id}/shortfall`).send({ items: 1 });
    };
    const answers = await burst(10, (i) =>
      i === 0 ? other() : i === 1 ? ctx.api.get(`${M}/purchases?limit=100`).set("X-API-Key", ctx.demo) : get(p.id),
    );
    settled(answers[0]!, [200, 409]);
    for (const a of answers.slice(1)) settled(a, [200]);
  }
}

/** Relays every held purchase, reveals every pending request, reads everything settled. */
async function drain(): Promise<Row[]> {
  await ctx.emu.clock.advance(RELAY_MS);
  for (const id of await chain().pendingVrfRequests()) settled(await fulfil(String(id)), [200]);
  await ctx.api.post("/_emulator/mystery/worker/run").send({}).expect(200);
  return rows();
}

async function book(): Promise<Book> {
  const c = chain();
  return readBook(ctx, USERS, {
    pool: c.addresses.mysteryPool,
    relayer: c.relayer.address,
    treasury: c.treasury.address,
    operator: c.operator.address,
    poolSigner: c.poolSigner.address,
  });
}

/** What a row cost its payer in the end: the price, less a shortfall's refund; nothing when refunded or never bought. */
function net(p: Row): bigint {
  if (p.status === "FULFILLED" || p.status === "SUBMITTED") return BigInt(p.price);
  if (p.status === "PARTIALLY_FULFILLED") {
    const [, missing, slots] = /^partially_fulfilled: (\d+) of (\d+) items/.exec(p.failure_reason)!;
    expect(p.items).toHaveLength(Number(slots) - Number(missing));
    return BigInt(p.price) - (BigInt(p.price) * BigInt(missing!)) / BigInt(slots!);
  }
  return 0n;
}

describe("mystery purchases: the money invariant (property)", () => {
  it("balances are conserved and each party moves by its purchases' net charge; tokens are the buyer's and only the delivered ones", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 8 }), async (ops) => {
        await ctx.emu.restore(base);
        checkpoints = [];
        const before = await book();
        let n = 0;
        for (const o of ops) await apply(o, n++);
        const final = await drain();
        const after = await book();

        // Conservation: nothing minted or lost on chain; the custodial book stays backed by the relayer.
        expect(sum(after.usdc)).toBe(sum(before.usdc));
        expect(sum(after.ledger) - after.usdc.get("relayer")!).toBe(sum(before.ledger) - before.usdc.get("relayer")!);

        const delta = (m: keyof Book, k: string) => after[m].get(k)! - before[m].get(k)!;
        const ofBuyer = (k: string) =>
          final.filter((p) =>
            k.startsWith("wallet-")
              ? p.custody === "NON_CUSTODIAL" && p.purchaser_address === user(ctx, Number(k.slice(7))).address
              : p.external_user_id === k,
          );
        const charged = (list: Row[]) => list.reduce((a, p) => a + net(p), 0n);
        const delivered = (list: Row[]) => BigInt(list.reduce((a, p) => a + (p.items?.length ?? 0), 0));
        for (const k of ["wallet-0", "wallet-1"]) {
          expect(delta("usdc", k), k).toBe(-charged(ofBuyer(k)));
          expect(delta("nfts", k), `${k} tokens`).toBe(delivered(ofBuyer(k)));
        }
        for (const u of USERS) {
          expect(delta("ledger", u), u).toBe(-charged(ofBuyer(u)));
          expect(delta("nfts", u), `${u} tokens`).toBe(delivered(ofBuyer(u)));
          expect((await wallet(u)).wallet.reserved).toBe("0");
        }
        expect(delta("usdc", "pool")).toBe(charged(final));
        expect(delta("usdc", "relayer")).toBe(-charged(final.filter((p) => p.custody === "CUSTODIAL")));

        // Tokens: each revealed item is its buyer's, and no token is in two purchases.
        const seen = new Set<string>();
        for (const p of final)
          for (const item of p.items ?? []) {
            expect(seen.has(item.token_id), `token ${item.token_id} twice`).toBe(false);
            seen.add(item.token_id);
            expect((await ownerOf(item.token_id)).toLowerCase()).toBe(p.purchaser_address.toLowerCase());
          }
        // Nothing is left waiting after the drain.
        for (const p of final)
          expect(["FULFILLED", "PARTIALLY_FULFILLED", "REFUNDED", "FAILED"], `purchase ${p.id}`).toContain(p.status);
      }),
      { numRuns: 12, seed: 7 },
    );
  });
});
