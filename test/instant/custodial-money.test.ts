import { describe, expect, it } from "vitest";
import { sendCalls, user, useMystery, type Ctx } from "../mystery/helpers.ts";
import { expectError } from "../../conformance/assert.ts";
import { usdcOf } from "../chain-reads.ts";

// Money of instant purchases when they end without a pack, with the chain in the
// loop (manual VRF, so a purchase stays unopened until it is paid back): a
// custodial purchase paid back on chain (the relayer bought it) credits the end
// user's custodial balance once; parallel operator refunds answer one 200 and
// 409 invalid_status for the rest; the relayer switch pauses custodial purchases.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const custodial = (body: Record<string, unknown>) => ctx.api.post("/_emulator/instant/custodial").send(body);
const relayer = () => ctx.emu.chain!.relayer.address;
const store = () => ctx.emu.chain!.addresses.instantPack;
const sentBy = (who: `0x${string}`) => ctx.emu.chain!.publicClient.getTransactionCount({ address: who });

const wallet = async (u: string) =>
  (await ctx.api.get("/api/v1/wallet/balance").set("X-API-Key", ctx.demo).query({ external_user_id: u }).expect(200))
    .body.data.wallet;
const ledger = async (u: string): Promise<Array<{ entry_type: string; amount: string; source: string }>> =>
  (
    await ctx.api
      .get("/api/v1/wallet/ledger")
      .set("X-API-Key", ctx.demo)
      .query({ external_user_id: u, limit: 100 })
      .expect(200)
  ).body.data.entries;
const purchase = async (id: number) =>
  (await ctx.api.get(`/api/v1/instant/purchase/${id}`).set("X-API-Key", ctx.demo).expect(200)).body.data;

/** An end user funded with 20 USDC and a custodial purchase of packet type 1 (4.99) for them, RESERVED. */
async function reserve(u: string): Promise<number> {
  await ctx.api
    .post("/_emulator/mystery/custodial/fund")
    .send({ key: ctx.demo, external_user_id: u, usdc: "20" })
    .expect(200);
  return (await custodial({ key: ctx.demo, packet_type_id: 1, external_user_id: u }).expect(201)).body.data.id;
}

/** The same, relayed: SUBMITTED, 4.99 settled from the end user. */
async function submitted(u: string): Promise<number> {
  const id = await reserve(u);
  await ctx.emu.clock.advance(2_100);
  expect((await purchase(id)).status).toBe("SUBMITTED");
  expect(await wallet(u)).toMatchObject({ balance_usdc: "15.010000", reserved_usdc: "0.000000" });
  return id;
}

/** 16 parallel operator refunds / fails of one purchase: their statuses and codes, sorted. */
async function parallelRefunds(id: number) {
  const all = await Promise.all(
    Array.from({ length: 16 }, (_, i) =>
      ctx.api.post(`/_emulator/instant/purchases/${id}/${i % 2 ? "fail" : "refund"}`).send({}),
    ),
  );
  return all.map((r) => [r.status, r.status === 200 ? r.body.data.status : r.body.error] as const).sort();
}

describe("a custodial instant purchase paid back on chain", () => {
  for (const end of ["refund", "fail", "timeout"] as const)
    it(`credits the end user's custodial balance once (${end}); the relayer, which the store paid back, ends where it started`, async () => {
      const u = `acme-${end}`;
      const relayerBefore = await usdcOf(ctx.emu, relayer());
      const storeBefore = await usdcOf(ctx.emu, store());
      const id = await submitted(u);
      expect(await usdcOf(ctx.emu, relayer())).toBe(relayerBefore - 4_990_000n);
      expect(await usdcOf(ctx.emu, store())).toBe(storeBefore + 4_990_000n);

      if (end === "timeout") await ctx.emu.clock.advance(10 * 60 * 1000);
      else {
        const all = await Promise.all(
          Array.from({ length: 16 }, () => ctx.api.post(`/_emulator/instant/purchases/${id}/${end}`).send({})),
        );
        expect(all.filter((r) => r.status === 200)).toHaveLength(1);
        for (const r of all.filter((x) => x.status !== 200)) expectError(r, 409, "invalid_status");
      }
      // the worker and reads afterwards must not credit it again
      await ctx.emu.clock.advance(10 * 60 * 1000);
      const p = await purchase(id);
      expect(p.status).toBe(end === "refund" ? "REFUNDED" : "FAILED");

      expect(await wallet(u)).toMatchObject({
        balance_usdc: "20.000000",
        reserved_usdc: "0.000000",
        available_usdc: "20.000000",
      });
      const entries = await ledger(u);
      expect(entries.map((e) => [e.entry_type, e.amount, e.source])).toEqual([
        ["REFUND_CREDIT", "4990000", "instant_purchase"],
        ["HOLD_SETTLE", "-4990000", "instant_purchase"],
        ["HOLD", "-4990000", "instant_purchase"],
        ["DEPOSIT_CREDIT", "20000000", "deposit"],
      ]);
      expect(await usdcOf(ctx.emu, relayer())).toBe(relayerBefore);
      expect(await usdcOf(ctx.emu, store())).toBe(storeBefore);
      const ends = ctx.events.filter(
        (e) =>
          e.data.purchase_id === id && (e.type === "instant_purchase.refunded" || e.type === "instant_purchase.failed"),
      );
      expect(ends).toHaveLength(1);
    });
});

describe("parallel operator refunds of one instant purchase", () => {
  it("a custodial one: one 200, fifteen 409 invalid_status; one credit", async () => {
    const id = await submitted("par-c");
    const answers = await parallelRefunds(id);
    expect(answers.filter(([s]) => s === 200)).toHaveLength(1);
    expect(answers.filter(([s, c]) => s === 409 && c === "invalid_status")).toHaveLength(15);
    expect(await wallet("par-c")).toMatchObject({ balance_usdc: "20.000000", reserved_usdc: "0.000000" });
    expect((await ledger("par-c")).filter((e) => e.entry_type === "REFUND_CREDIT")).toHaveLength(1);
  });

  it("a non-custodial one: one 200, fifteen 409 invalid_status; the buyer is paid back once on chain", async () => {
    const u = user(ctx, 3);
    const before = await usdcOf(ctx.emu, u.address);
    const storeBefore = await usdcOf(ctx.emu, store());
    const prep = await ctx.api
      .post("/api/v1/instant/purchase/prepare")
      .set("X-API-Key", ctx.demo)
      .send({ packet_type_id: 1, wallet_address: u.address })
      .expect(200);
    const receipt = await sendCalls(ctx, u, prep.body.data.calls);
    const sub = await ctx.api
      .post("/api/v1/instant/purchase/submit")
      .set("X-API-Key", ctx.demo)
      .send({ packet_type_id: 1, transaction_hash: receipt.transactionHash })
      .expect(202);
    expect(await usdcOf(ctx.emu, u.address)).toBe(before - 4_990_000n);
    const answers = await parallelRefunds(sub.body.data.id);
    expect(answers.filter(([s]) => s === 200)).toHaveLength(1);
    expect(answers.filter(([s, c]) => s === 409 && c === "invalid_status")).toHaveLength(15);
    expect(await usdcOf(ctx.emu, u.address)).toBe(before);
    expect(await usdcOf(ctx.emu, store())).toBe(storeBefore);
  });

  it("a refund that finds the purchase already FULFILLED answers 409 invalid_status and sends nothing", async () => {
    const id = await submitted("opened");
    await ctx.api
      .post("/_emulator/vrf/fulfill")
      .send({ request_id: (await purchase(id)).onchain_request_id })
      .expect(200);
    const sent = await sentBy(ctx.emu.chain!.operator.address);
    expectError(await ctx.api.post(`/_emulator/instant/purchases/${id}/refund`).send({}), 409, "invalid_status");
    expect(await sentBy(ctx.emu.chain!.operator.address)).toBe(sent);
    expect((await purchase(id)).status).toBe("FULFILLED");
    expect(await wallet("opened")).toMatchObject({ balance_usdc: "15.010000" });
  });
});

describe("the relayer switch and custodial instant purchases", () => {
  const relayerSwitch = (enabled: boolean) => ctx.api.post("/_emulator/mystery/relayer").send({ enabled }).expect(200);

  it("while it is off a new one answers 503 relayer_disabled, nothing held, nothing sent", async () => {
    await ctx.api
      .post("/_emulator/mystery/custodial/fund")
      .send({ key: ctx.demo, external_user_id: "off", usdc: "20" })
      .expect(200);
    await relayerSwitch(false);
    const sent = await sentBy(relayer());
    const usdcBefore = await usdcOf(ctx.emu, relayer());
    const res = await custodial({ key: ctx.demo, packet_type_id: 1, external_user_id: "off" });
    const body = expectError(res, 503, "relayer_disabled");
    expect(body.retryable).toBe(true);
    await ctx.emu.clock.advance(5_000);
    expect(await sentBy(relayer())).toBe(sent);
    expect(await usdcOf(ctx.emu, relayer())).toBe(usdcBefore);
    expect((await ctx.api.get("/_emulator/instant/purchases").expect(200)).body.data.purchases).toEqual([]);
    expect(await wallet("off")).toMatchObject({ balance_usdc: "20.000000", reserved_usdc: "0.000000" });
    expect((await ledger("off")).map((e) => e.entry_type)).toEqual(["DEPOSIT_CREDIT"]);
  });

  it("one reserved before it went off waits PENDING with its hold, and is relayed when it is back on", async () => {
    const id = await reserve("wait");
    await relayerSwitch(false);
    const sent = await sentBy(relayer());
    await ctx.emu.clock.advance(5_000);
    expect(await sentBy(relayer())).toBe(sent);
    expect((await purchase(id)).status).toBe("PENDING");
    expect(await wallet("wait")).toMatchObject({ balance_usdc: "20.000000", reserved_usdc: "4.990000" });

    const on = await ctx.api.post("/_emulator/mystery/relayer").send({ enabled: true }).expect(200);
    expect(on.body.data).toEqual({ enabled: true, resumed: 1 });
    const p = await purchase(id);
    expect(p.status).toBe("SUBMITTED");
    expect(await sentBy(relayer())).toBe(sent + 2);
    expect(await wallet("wait")).toMatchObject({ balance_usdc: "15.010000", reserved_usdc: "0.000000" });
  });

  it("one that stays PENDING for an hour fails and its hold is released; nothing was sent", async () => {
    const id = await reserve("gone");
    await relayerSwitch(false);
    const sent = await sentBy(relayer());
    await ctx.emu.clock.advance(60 * 60 * 1000 + 2_100);
    const p = await purchase(id);
    expect([p.status, p.failure_reason]).toEqual(["FAILED", expect.stringMatching(/^relayer_unavailable/)]);
    expect(await sentBy(relayer())).toBe(sent);
    expect(await wallet("gone")).toMatchObject({ balance_usdc: "20.000000", reserved_usdc: "0.000000" });
    expect((await ledger("gone")).map((e) => e.entry_type)).toEqual(["HOLD_RELEASE", "HOLD", "DEPOSIT_CREDIT"]);
    await relayerSwitch(true);
    expect((await purchase(id)).status).toBe("FAILED");
    expect(await sentBy(relayer())).toBe(sent);
  });
});
