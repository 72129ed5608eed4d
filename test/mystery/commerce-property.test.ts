import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { TransactionReceipt } from "viem";
import { buyRevealed, RELAY_MS, sendCalls, user } from "./helpers.ts";
import { outbox, slowReceipts, sold, startRace, type RaceCtx } from "./race-helpers.ts";

// Random interleavings of submits, replays and prepares on the commerce routes,
// all in flight at once, against one prepared chain state (restored before
// every run). Whatever the order, the invariants hold: one record per tx hash
// / (partner, token) / idempotency key, every caller answered that record or
// the documented conflict, one creation webhook per record, totals as on chain.

let ctx: RaceCtx;
let base: string;
const M = "/api/v1/mystery";
const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };
const purchaseTx: Array<{ wallet: `0x${string}`; hash: string }> = [];
let sellTx: TransactionReceipt;
const tokens: string[] = [];
/** Purchases made by the set-up (not by a run). */
const setUp = new Set<number>();

beforeAll(async () => {
  ctx = await startRace();
  // Two purchases mined but not yet submitted.
  for (const i of [5, 6]) {
    const u = user(ctx, i);
    const prep = await ctx.api
      .post(`${M}/purchase/prepare`)
      .set("X-API-Key", ctx.demo)
      .send({ wallet_address: u.address, tier_id: 1 })
      .expect(200);
    purchaseTx.push({ wallet: u.address, hash: (await sendCalls(ctx, u, prep.body.data.calls)).transactionHash });
  }
  // A sell-back mined but not yet submitted (TIER partner).
  const seller = user(ctx, 2);
  const sp = await buyRevealed(ctx, ctx.revenueShare, seller, 1);
  const sprep = await ctx.api
    .post(`${M}/sellback/prepare`)
    .set("X-API-Key", ctx.revenueShare)
    .send({ wallet_address: seller.address, token_ids: sp.items.map((i: { token_id: string }) => i.token_id) })
    .expect(200);
  sellTx = await sendCalls(ctx, seller, sprep.body.data.calls);
  // Two of acme's cards, worth $40 (buyback-eligible, redeemable).
  for (const i of [0, 1]) {
    const p = await buyRevealed(ctx, ctx.demo, user(ctx, i), 1);
    const card = p.items.find((x: { item_type: string }) => x.item_type === "CARD");
    await ctx.api.post("/_emulator/mystery/oracle").send({ token_id: card.token_id, usdc: "40" }).expect(200);
    tokens.push(card.token_id);
  }
  await outbox(ctx); // let the set-up's deliveries finish, then start every run from an empty outbox
  await ctx.api.delete("/_emulator/webhooks/outbox").expect(200);
  for (const key of [ctx.demo, ctx.rival])
    for (const p of (await ctx.api.get(`${M}/purchases?limit=100`).set("X-API-Key", key).expect(200)).body.data
      .purchases)
      setUp.add(p.id);
  base = await ctx.emu.snapshot();
});
afterAll(() => ctx.close());

type Op =
  | { kind: "purchase"; tx: number; rival: boolean }
  | { kind: "sellback" }
  | { kind: "redeem"; token: number; key: number }
  | { kind: "offer"; token: number; rival: boolean; byPath: boolean }
  | { kind: "custodial"; key: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("purchase" as const), tx: fc.integer({ min: 0, max: 1 }), rival: fc.boolean() }),
  fc.record({ kind: fc.constant("sellback" as const) }),
  fc.record({
    kind: fc.constant("redeem" as const),
    token: fc.integer({ min: 0, max: 1 }),
    key: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({
    kind: fc.constant("offer" as const),
    token: fc.integer({ min: 0, max: 1 }),
    rival: fc.boolean(),
    byPath: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("custodial" as const), key: fc.integer({ min: 0, max: 1 }) }),
);

function send(o: Op) {
  switch (o.kind) {
    case "purchase": {
      const t = purchaseTx[o.tx]!;
      return ctx.api
        .post(`${M}/purchase/submit`)
        .set("X-API-Key", o.rival ? ctx.rival : ctx.demo)
        .send({ wallet_address: t.wallet, tier_id: 1, transaction_hash: t.hash });
    }
    case "sellback":
      return ctx.api
        .post(`${M}/sellback/submit`)
        .set("X-API-Key", ctx.revenueShare)
        .send({ transaction_hash: sellTx.transactionHash });
    case "redeem":
      return ctx.api
        .post(`${M}/redemption/prepare`)
        .set("X-API-Key", ctx.demo)
        .send({ token_id: tokens[o.token], shipping_address: US, idempotency_key: `key-${o.key}` });
    case "offer": {
      const key = o.rival ? ctx.rival : ctx.demo;
      return o.byPath
        ? ctx.api.post(`${M}/buyback/${tokens[o.token]}`).set("X-API-Key", key).send({})
        : ctx.api.post(`${M}/buyback`).set("X-API-Key", key).send({ token_id: tokens[o.token] });
    }
    case "custodial":
      return ctx.api
        .post(`${M}/purchase`)
        .set("X-API-Key", ctx.demo)
        .set("Idempotency-Key", `cust-${o.key}`)
        .send({ tier_id: 1, external_user_id: "acme-user-1" });
  }
}

type Answer = { op: Op; status: number; body: { error?: string; data?: Record<string, unknown> } };
const sameValue = (xs: unknown[]) => new Set(xs).size <= 1;

async function check(answers: Answer[]) {
  await ctx.emu.clock.advance(RELAY_MS); // custodial purchases are relayed on the clock: RESERVED → SUBMITTED
  const by = <K extends Op["kind"]>(k: K) =>
    answers.filter((a): a is Answer & { op: Extract<Op, { kind: K }> } => a.op.kind === k);
  const list = async (key: string, path: string, field: string) =>
    (await ctx.api.get(`${M}/${path}?limit=100`).set("X-API-Key", key).expect(200)).body.data[field] as Array<
      Record<string, unknown>
    >;
  const purchases = [
    ...(await list(ctx.demo, "purchases", "purchases")),
    ...(await list(ctx.rival, "purchases", "purchases")),
  ].filter((p) => !setUp.has(p.id as number));

  // Non-custodial submits: one purchase per hash, owned by one partner; its calls 202 with it, the other's 409.
  for (const tx of [0, 1]) {
    const calls = by("purchase").filter((a) => a.op.tx === tx);
    const rows = purchases.filter((p) => p.transaction_hash === purchaseTx[tx]!.hash);
    expect(rows).toHaveLength(calls.length ? 1 : 0);
    if (!calls.length) continue;
    const ownerIsRival = calls.find((a) => a.status === 202)!.op.rival;
    for (const a of calls) {
      if (a.op.rival === ownerIsRival) expect([a.status, a.body.data?.id]).toEqual([202, rows[0]!.id]);
      else expect([a.status, a.body.error]).toEqual([409, "tx_already_recorded"]);
    }
  }
  // Custodial replays: one purchase and one debit per Idempotency-Key.
  const custKeys = new Set(by("custodial").map((a) => a.op.key));
  for (const k of custKeys) {
    const calls = by("custodial").filter((a) => a.op.key === k);
    for (const a of calls) expect(a.status, JSON.stringify(a.body)).toBe(202);
    expect(sameValue(calls.map((a) => a.body.data?.id))).toBe(true);
  }
  expect(purchases.filter((p) => p.custody === "CUSTODIAL")).toHaveLength(custKeys.size);
  const wallet = (
    await ctx.api.get("/api/v1/wallet/balance?external_user_id=acme-user-1").set("X-API-Key", ctx.demo).expect(200)
  ).body.data.wallet;
  expect(BigInt(wallet.balance)).toBe(500_000_000n - 25_000_000n * BigInt(custKeys.size));

  // Sell-back: one record; revenue equals the chain's CardSellExecuted total.
  const sells = by("sellback");
  for (const a of sells) expect(a.status).toBe(200);
  expect(sameValue(sells.map((a) => a.body.data?.sellback_id))).toBe(true);
  const revenue = (await ctx.api.get(`${M}/revenue`).set("X-API-Key", ctx.revenueShare).expect(200)).body.data;
  expect([revenue.sellback_count, revenue.sellback_micros]).toEqual(
    sells.length ? [1, sold(ctx, sellTx).total.toString()] : [0, "0"],
  );

  // Redemptions: at most one live per token; one per key; answers are that row or a documented conflict.
  const redemptions = await list(ctx.demo, "redemptions", "redemptions");
  for (const t of tokens) expect(redemptions.filter((r) => r.token_id === t).length).toBeLessThanOrEqual(1);
  for (const k of [0, 1, 2]) {
    const ok = by("redeem").filter((a) => a.op.key === k && a.status === 201);
    expect(sameValue(ok.map((a) => a.body.data?.redemption_id))).toBe(true);
  }
  for (const a of by("redeem").filter((x) => x.status !== 201))
    expect(["redemption_exists", "idempotency_mismatch"]).toContain(a.body.error);
  expect(
    new Set(
      by("redeem")
        .filter((a) => a.status === 201)
        .map((a) => a.body.data?.redemption_id),
    ).size,
  ).toBe(redemptions.length);

  // Offers: one active per (partner, token), only on own tokens.
  for (const [i, t] of tokens.entries()) {
    const mine = by("offer").filter((a) => a.op.token === i && !a.op.rival);
    for (const a of mine) expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(sameValue(mine.map((a) => a.body.data?.offer_id))).toBe(true);
    expect(mine.filter((a) => a.body.data?.idempotent === false)).toHaveLength(mine.length ? 1 : 0);
    const offers = (await ctx.api.get(`${M}/buyback?token_id=${t}`).set("X-API-Key", ctx.demo).expect(200)).body.data
      .offers;
    expect(offers).toHaveLength(mine.length ? 1 : 0);
  }
  for (const a of by("offer").filter((x) => x.op.rival))
    expect([a.status, a.body.error]).toEqual([404, "token_not_found"]);

  // One creation webhook per record.
  const box = await outbox(ctx);
  expect((box.get("purchase.submitted") ?? []).length).toBe(purchases.length);
  expect((box.get("sellback.confirmed") ?? []).length).toBe(sells.length ? 1 : 0);
  expect((box.get("redemption.prepared") ?? []).length).toBe(redemptions.length);
}

describe("commerce routes under random parallel interleavings", () => {
  it("keep one record per key, one webhook per record, totals as on chain", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 8, maxLength: 14 }), async (ops) => {
        await ctx.emu.restore(base);
        ctx.events.length = 0;
        ctx.rx.received.length = 0;
        const undo = slowReceipts(ctx);
        try {
          const answers: Answer[] = await Promise.all(
            ops.map(async (o) => {
              const r = await send(o);
              return { op: o, status: r.status, body: r.body as Answer["body"] };
            }),
          );
          await check(answers);
        } finally {
          undo();
        }
      }),
      { numRuns: 25 },
    );
  });
});
