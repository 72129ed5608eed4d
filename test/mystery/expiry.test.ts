import { describe, expect, it } from "vitest";
import { cardNftAbi } from "../../chain/index.ts";
import { buyRevealed, sendCalls, user, type Ctx, useMystery } from "./helpers.ts";

// Redemption expiry (docs/reference/live-service.md “Redemption”: expires_at, 24 h by default; "Expired
// redemption → retry with a new key") and the KYC decline path.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const R = "/api/v1/mystery/redemption";
const HOUR = 60 * 60 * 1000;
const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };
const post = (path: string, key: string, body: Record<string, unknown>) =>
  ctx.api.post(`${R}/${path}`).set("X-API-Key", key).send(body);
const rowOf = async (key: string, purchaseId: number, redemptionId: number) => {
  const got = await ctx.api.get(`${R}/${purchaseId}`).set("X-API-Key", key).expect(200);
  return got.body.data.redemptions.find((r: { redemption_id: number }) => r.redemption_id === redemptionId);
};
const updates = (id: number) =>
  ctx.events.filter((e) => e.type === "redemption.updated" && e.data.redemption_id === id).map((e) => e.data.status);
const frozen = (tokenId: string) =>
  ctx.emu.chain!.publicClient.readContract({
    address: ctx.emu.chain!.addresses.cardNft,
    abi: cardNftAbi,
    functionName: "isTransferFrozen",
    args: [BigInt(tokenId)],
  });

describe("redemption expiry", () => {
  it("PREPARED expires at expires_at: EXPIRED + redemption.updated; submit 409; the same key says to use a new key; a new key works", async () => {
    const p = await buyRevealed(ctx, ctx.revenueShare, user(ctx, 2), 1); // nova: no KYC
    const prep = await post("prepare", ctx.revenueShare, {
      purchase_id: p.id,
      shipping_address: US,
      idempotency_key: "e-1",
    }).expect(201);
    const id = prep.body.data.redemption_id;
    expect(prep.body.data.status).toBe("PREPARED");
    expect(Date.parse(prep.body.data.expires_at) - ctx.emu.clock.now()).toBe(24 * HOUR);

    await ctx.emu.clock.advance(24 * HOUR - 1000);
    expect((await rowOf(ctx.revenueShare, p.id, id)).status).toBe("PREPARED");
    await ctx.emu.clock.advance(1000);
    expect(await rowOf(ctx.revenueShare, p.id, id)).toMatchObject({ status: "EXPIRED", failure_reason: "expired" });
    expect(updates(id)).toEqual(["EXPIRED"]);
    const listed = await ctx.api
      .get("/api/v1/mystery/redemptions?status=EXPIRED")
      .set("X-API-Key", ctx.revenueShare)
      .expect(200);
    expect(listed.body.data.redemptions.map((r: { redemption_id: number }) => r.redemption_id)).toEqual([id]);

    const late = await post("submit", ctx.revenueShare, { redemption_id: id, tx_hash: `0x${"11".repeat(32)}` }).expect(
      409,
    );
    expect(late.body.error).toBe("invalid_status");
    const again = await post("prepare", ctx.revenueShare, {
      purchase_id: p.id,
      shipping_address: US,
      idempotency_key: "e-1",
    }).expect(409);
    expect(again.body).toMatchObject({ error: "redemption_expired", details: { redemption_id: id } });
    expect(again.body.message).toMatch(/new idempotency_key/);
    const fresh = await post("prepare", ctx.revenueShare, {
      purchase_id: p.id,
      shipping_address: US,
      idempotency_key: "e-2",
    }).expect(201);
    expect(fresh.body.data).toMatchObject({ status: "PREPARED", token_id: prep.body.data.token_id });
    expect(fresh.body.data.redemption_id).not.toBe(id);
    // one expiry, no repeats
    await ctx.emu.clock.advance(HOUR);
    expect(updates(id)).toEqual(["EXPIRED"]);
  });

  it("a burn flagged on chain but never submitted is cancelled at expiry, so the card is not left frozen", async () => {
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const prep = await post("prepare", ctx.revenueShare, {
      purchase_id: p.id,
      shipping_address: US,
      idempotency_key: "e-3",
    }).expect(201);
    await sendCalls(ctx, u, prep.body.data.unsigned.calls);
    expect(await frozen(prep.body.data.token_id)).toBe(true);
    await ctx.emu.clock.advance(24 * HOUR);
    const row = await rowOf(ctx.revenueShare, p.id, prep.body.data.redemption_id);
    expect(row.status).toBe("EXPIRED");
    expect(row.failure_reason).toMatch(/cancelled/);
    expect(await frozen(prep.body.data.token_id)).toBe(false);
  });

  it("a redemption waiting for KYC expires too, in manual warehouse mode, with the timer re-armed from state after a restore", async () => {
    await ctx.api.post("/_emulator/mystery/warehouse").send({ mode: "manual" }).expect(200);
    const kyc = ctx.emu.key("kyc"); // vesta requires KYC (acme, the demo partner, runs none)
    const p = await buyRevealed(ctx, kyc, user(ctx, 0), 1);
    const prep = await post("prepare", kyc, { purchase_id: p.id, shipping_address: US, idempotency_key: "k-1" }).expect(
      201,
    );
    const id = prep.body.data.redemption_id;
    expect(prep.body.data).toMatchObject({ status: "PREPARED", kyc: { status: "PENDING" } });
    const snap = await ctx.emu.snapshot();
    await ctx.emu.clock.advance(HOUR);
    await ctx.emu.restore(snap); // replaces the state and the time; the worker re-arms from expires_at
    await ctx.emu.clock.advance(24 * HOUR - 1000);
    expect(await rowOf(kyc, p.id, id)).toMatchObject({ status: "PREPARED", kyc: { status: "PENDING" } });
    await ctx.emu.clock.advance(1000);
    expect((await rowOf(kyc, p.id, id)).status).toBe("EXPIRED");
    expect(updates(id)).toEqual(["EXPIRED"]);
    const decision = await ctx.api
      .post(`/_emulator/mystery/redemptions/${id}/kyc`)
      .send({ decision: "approve" })
      .expect(409);
    expect(decision.body.error).toBe("invalid_status");
    expect(
      (await post("prepare", kyc, { purchase_id: p.id, shipping_address: US, idempotency_key: "k-1" })).body.error,
    ).toBe("redemption_expired");
  });

  it("a restore to before the prepare drops its timer: nothing expires", async () => {
    const snap = await ctx.emu.snapshot();
    const p = await buyRevealed(ctx, ctx.revenueShare, user(ctx, 2), 1);
    await post("prepare", ctx.revenueShare, { purchase_id: p.id, shipping_address: US, idempotency_key: "e-4" }).expect(
      201,
    );
    await ctx.emu.restore(snap);
    ctx.events.length = 0;
    await ctx.emu.clock.advance(25 * HOUR);
    expect(ctx.events.filter((e) => e.type === "redemption.updated")).toEqual([]);
  });
});

describe("KYC decline", () => {
  it("ends the redemption FAILED (kyc_declined), kyc.status DECLINED, redemption.updated; it takes no burn and never expires", async () => {
    const kyc = ctx.emu.key("kyc"); // vesta requires KYC
    const p = await buyRevealed(ctx, kyc, user(ctx, 0), 1);
    const prep = await post("prepare", kyc, { purchase_id: p.id, shipping_address: US, idempotency_key: "d-1" }).expect(
      201,
    );
    const id = prep.body.data.redemption_id;
    const dec = await ctx.api
      .post(`/_emulator/mystery/redemptions/${id}/kyc`)
      .send({ decision: "decline" })
      .expect(200);
    expect(dec.body.data).toMatchObject({
      status: "FAILED",
      failure_reason: "kyc_declined",
      kyc: { status: "DECLINED", kyc_url: null },
      unsigned: null,
    });
    expect(await rowOf(kyc, p.id, id)).toMatchObject({
      status: "FAILED",
      failure_reason: "kyc_declined",
      kyc: { status: "DECLINED" },
    });
    const ev = ctx.events.filter((e) => e.type === "redemption.updated");
    expect(ev).toHaveLength(1);
    expect(ev[0]!.data).toMatchObject({
      redemption_id: id,
      status: "FAILED",
      failure_reason: "kyc_declined",
      token_id: prep.body.data.token_id,
    });

    expect(
      (await post("submit", kyc, { redemption_id: id, tx_hash: `0x${"11".repeat(32)}` }).expect(409)).body.error,
    ).toBe("invalid_status");
    expect(
      (await ctx.api.post(`/_emulator/mystery/redemptions/${id}/kyc`).send({ decision: "approve" }).expect(409)).body
        .error,
    ).toBe("invalid_status");
    // the same key answers the failed redemption as it is
    expect(
      (await post("prepare", kyc, { purchase_id: p.id, shipping_address: US, idempotency_key: "d-1" }).expect(201)).body
        .data.status,
    ).toBe("FAILED");
    // the token is free again: a new key starts a new KYC
    const retry = await post("prepare", kyc, {
      purchase_id: p.id,
      shipping_address: US,
      idempotency_key: "d-2",
    }).expect(201);
    expect(retry.body.data).toMatchObject({ status: "PREPARED", kyc: { status: "PENDING" }, unsigned: null });
    expect(
      (await ctx.api.post(`/_emulator/mystery/redemptions/${id}/kyc`).send({ decision: "maybe" }).expect(400)).body
        .error,
    ).toBe("invalid_value");

    await ctx.emu.clock.advance(25 * HOUR);
    expect(updates(id)).toEqual(["FAILED"]);
  });
});
