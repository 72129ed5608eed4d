import fc from "fast-check";
import { endUser, ownerOf as ownerOfToken, readBook, sum, type Book } from "../mystery/money-book.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vrfRequestIdsFromLogs } from "../../chain/index.ts";
import { RELAY_MS, sendCalls, user } from "../mystery/helpers.ts";
import { burst, startRace, type RaceCtx } from "../mystery/race-helpers.ts";

// The money invariant of instant purchases, custodial and non-custodial, with
// the chain in the loop (manual VRF): over random sequences of purchases (the
// wallet prepares, buys on chain and submits; or the operator reserves one for
// a funded end user and the relayer buys it), clock advances (relay, the
// 10-minute open timeout), VRF reveals, operator refunds and fails, and bursts
// of parallel reads racing a reveal, a refund, a fail or the clock, then a
// drain (everything relayed and revealed):
// - on-chain USDC over every party is conserved, and so is the custodial book
//   (end users' ledger balances − the relayer's USDC: the relayer pays for them);
// - each party's change is exactly what its purchases say: a buyer (wallet or
//   ledger), the store and the relayer moved by the net charge (the price, or
//   nothing when refunded or failed) of each row;
// - every card of a FULFILLED purchase is its recipient's (the wallet, or the
//   end user's custodial wallet), no card is in two purchases, and a wallet
//   holds exactly the cards delivered to it.

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

const I = "/api/v1/instant";
const USERS = ["instant-1", "instant-2"];
const OPEN_TIMEOUT = 10 * 60 * 1000;
type Row = Record<string, any>;
type Action = "reveal" | "refund" | "fail" | "clock";

const action = fc.constantFrom<Action>("reveal", "refund", "fail", "clock");

type Op =
  | { kind: "buy"; custodial: boolean; who: number; packet: 1 | 2 | 3 }
  | { kind: "advance"; ms: number }
  | { kind: "reveal"; pick: number }
  | { kind: "refund"; pick: number; fail: boolean }
  | { kind: "race"; pick: number; with: [Action, Action] };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("buy" as const),
      custodial: fc.boolean(),
      who: fc.integer({ min: 0, max: 1 }),
      packet: fc.constantFrom(1 as const, 2 as const, 3 as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("advance" as const),
      ms: fc.constantFrom(2_000, 4_000, OPEN_TIMEOUT + 1_000),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("reveal" as const), pick: fc.nat(7) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("refund" as const), pick: fc.nat(7), fail: fc.boolean() }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("race" as const), pick: fc.nat(7), with: fc.tuple(action, action) }),
  },
);

const chain = () => ctx.emu.chain!;
const ownerOf = (id: string) => ownerOfToken(ctx, id);
const rows = async (): Promise<Row[]> =>
  (await ctx.api.get(`${I}/purchases?limit=100`).set("X-API-Key", ctx.demo).expect(200)).body.data.purchases;
const wallet = (u: string) => endUser(ctx, u);
const get = (id: number) => ctx.api.get(`${I}/purchase/${id}`).set("X-API-Key", ctx.demo);
const pick = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);
const fulfil = (requestId: string) => ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: requestId });
const payBack = (id: number, fail: boolean) =>
  ctx.api.post(`/_emulator/instant/purchases/${id}/${fail ? "fail" : "refund"}`).send({});

/** Every answer of an operator action or read is a documented one: never a 5xx. */
const settled = (r: { status: number; body: unknown }, allowed: number[]) =>
  expect(allowed, JSON.stringify(r.body)).toContain(r.status);

/** The non-custodial flow: prepare (409 sold_out ends it), the wallet sends both calls, submit. */
async function buyOnChain(who: number, packet: number): Promise<void> {
  const from = user(ctx, who);
  const prep = await ctx.api
    .post(`${I}/purchase/prepare`)
    .set("X-API-Key", ctx.demo)
    .send({ packet_type_id: packet, wallet_address: from.address });
  settled(prep, [200, 409]);
  if (prep.status !== 200) return;
  const receipt = await sendCalls(ctx, from, prep.body.data.calls);
  expect(receipt.status).toBe("success");
  const [requestId] = vrfRequestIdsFromLogs(receipt.logs);
  const body = {
    packet_type_id: packet,
    transaction_hash: receipt.transactionHash,
    request_id: String(requestId),
    wallet_address: from.address,
  };
  await ctx.api.post(`${I}/purchase/submit`).set("X-API-Key", ctx.demo).send(body).expect(202);
}

async function apply(o: Op): Promise<void> {
  const submitted = (await rows()).filter((p) => p.status === "SUBMITTED");
  if (o.kind === "buy") {
    if (!o.custodial) await buyOnChain(o.who, o.packet);
    else
      settled(
        await ctx.api
          .post("/_emulator/instant/custodial")
          .send({ key: ctx.demo, packet_type_id: o.packet, external_user_id: USERS[o.who] }),
        [201, 402, 409],
      );
  } else if (o.kind === "advance") await ctx.emu.clock.advance(o.ms);
  else if (o.kind === "reveal") {
    const p = pick(submitted, o.pick);
    if (p) settled(await fulfil(p.onchain_request_id), [200, 404]);
  } else if (o.kind === "refund") {
    const p = pick(submitted, o.pick);
    if (p) settled(await payBack(p.id, o.fail), [200, 409]);
  } else {
    // Two actions (a reveal, a refund, a fail or the open timeout) on one purchase racing 9 parallel reads of it (one the list).
    const p = pick(submitted, o.pick);
    if (!p) return;
    const act = (a: Action) => {
      if (a === "reveal") return fulfil(p.onchain_request_id);
      if (a === "clock") return ctx.api.post("/_emulator/clock/advance").send({ ms: OPEN_TIMEOUT + 1_000 });
      return payBack(p.id, a === "fail");
    };
    const answers = await burst(11, (i) =>
      i < 2
        ? act(o.with[i]!)
        : i === 2
          ? ctx.api.get(`${I}/purchases?limit=100`).set("X-API-Key", ctx.demo)
          : get(p.id),
    );
    o.with.forEach((a, i) => settled(answers[i]!, a === "reveal" ? [200, 404] : a === "clock" ? [200] : [200, 409]));
    for (const a of answers.slice(2)) settled(a, [200]);
  }
}

/** Relays every reserved purchase, reveals every pending request, reads everything settled. */
async function drain(): Promise<Row[]> {
  await ctx.emu.clock.advance(RELAY_MS);
  for (const id of await chain().pendingVrfRequests()) settled(await fulfil(String(id)), [200]);
  return rows();
}

async function book(): Promise<Book> {
  const c = chain();
  return readBook(ctx, USERS, {
    store: c.addresses.instantPack,
    pool: c.addresses.mysteryPool,
    relayer: c.relayer.address,
    treasury: c.treasury.address,
    operator: c.operator.address,
    poolSigner: c.poolSigner.address,
  });
}

/** What a row cost its payer in the end: the price when opened; nothing when refunded, failed or never bought. */
function net(p: Row): bigint {
  if (p.status === "FULFILLED") {
    expect(p.cards?.length, `purchase ${p.id} cards`).toBeGreaterThan(0);
    return BigInt(p.price);
  }
  expect(["REFUNDED", "FAILED"], `purchase ${p.id}`).toContain(p.status);
  return 0n;
}

describe("instant purchases: the money invariant (property)", () => {
  it("balances are conserved and each party moves by its purchases' net charge; cards are the recipient's and in one purchase", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 8 }), async (ops) => {
        await ctx.emu.restore(base);
        const before = await book();
        for (const o of ops) await apply(o);
        const final = await drain();
        const after = await book();

        // Conservation: nothing minted or lost on chain; the custodial book stays backed by the relayer.
        expect(sum(after.usdc)).toBe(sum(before.usdc));
        expect(sum(after.ledger) - after.usdc.get("relayer")!).toBe(sum(before.ledger) - before.usdc.get("relayer")!);

        const delta = (m: keyof Book, k: string) => after[m].get(k)! - before[m].get(k)!;
        // The wire has no external_user_id: a custodial purchase is its end user's by the custodial wallet it opened for.
        const custodialWallet = new Map<string, string>();
        for (const u of USERS) custodialWallet.set(u, (await wallet(u)).end_user.wallet_address.toLowerCase());
        const ofBuyer = (k: string) =>
          final.filter((p) =>
            k.startsWith("wallet-")
              ? p.custody === "NON_CUSTODIAL" && p.purchaser_address === user(ctx, Number(k.slice(7))).address
              : p.custody === "CUSTODIAL" && p.recipient_address.toLowerCase() === custodialWallet.get(k),
          );
        const charged = (list: Row[]) => list.reduce((a, p) => a + net(p), 0n);
        const delivered = (list: Row[]) => BigInt(list.reduce((a, p) => a + (p.cards?.length ?? 0), 0));
        for (const k of ["wallet-0", "wallet-1"]) {
          expect(delta("usdc", k), k).toBe(-charged(ofBuyer(k)));
          expect(delta("nfts", k), `${k} cards`).toBe(delivered(ofBuyer(k)));
        }
        for (const u of USERS) {
          expect(delta("ledger", u), u).toBe(-charged(ofBuyer(u)));
          expect(delta("usdc", u), `${u} custodial wallet USDC`).toBe(0n);
          expect(delta("nfts", u), `${u} cards`).toBe(delivered(ofBuyer(u)));
          expect((await wallet(u)).wallet.reserved).toBe("0");
        }
        expect(delta("usdc", "store")).toBe(charged(final));
        expect(delta("usdc", "relayer")).toBe(-charged(final.filter((p) => p.custody === "CUSTODIAL")));
        for (const k of ["pool", "treasury", "operator", "poolSigner"]) expect(delta("usdc", k), k).toBe(0n);

        // Cards: each FULFILLED purchase's cards are its recipient's, and no card is in two purchases.
        const seen = new Set<string>();
        for (const p of final) {
          if (p.status !== "FULFILLED") expect(p.cards ?? [], `purchase ${p.id} ${p.status} has no cards`).toEqual([]);
          for (const card of p.cards ?? []) {
            expect(seen.has(card.token_id), `card ${card.token_id} twice`).toBe(false);
            seen.add(card.token_id);
            expect((await ownerOf(card.token_id)).toLowerCase()).toBe(p.recipient_address.toLowerCase());
          }
        }
      }),
      { numRuns: 50, seed: 7 },
    );
  });
});
