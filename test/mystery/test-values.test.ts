import { describe, expect, it } from "vitest";
import { expectError } from "../../conformance/assert.ts";
import { sendCalls, useMystery, user, type Ctx } from "./helpers.ts";

// The mystery area's emulator-only test values (docs/test-values.md), reached through the partner API alone
// (auto VRF on the clock, no control call for the branch itself): end users whose redemption KYC decides
// itself, and the buyback price the marketplace rejects.

let ctx: Ctx;
useMystery("auto", (c) => (ctx = c));

const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };

/** A non-custodial purchase attributed to `externalUserId`, revealed on the clock; the purchase as read back. */
async function revealedFor(key: string, externalUserId: string) {
  const from = user(ctx, 0);
  const prep = await ctx.api
    .post("/api/v1/mystery/purchase/prepare")
    .set("X-API-Key", key)
    .send({ wallet_address: from.address, tier_id: 1 })
    .expect(200);
  const receipt = await sendCalls(ctx, from, prep.body.data.calls);
  const sub = await ctx.api
    .post("/api/v1/mystery/purchase/submit")
    .set("X-API-Key", key)
    .send({
      wallet_address: from.address,
      external_user_id: externalUserId,
      tier_id: 1,
      transaction_hash: receipt.transactionHash,
    })
    .expect(202);
  await ctx.emu.clock.advance(6_000);
  const got = await ctx.api.get(`/api/v1/mystery/purchase/${sub.body.data.id}`).set("X-API-Key", key).expect(200);
  expect(got.body.data.status).toBe("FULFILLED");
  return got.body.data as { id: number; items: Array<{ token_id: string; item_type: string }> };
}

const prepare = (key: string, purchaseId: number, idem: string) =>
  ctx.api
    .post("/api/v1/mystery/redemption/prepare")
    .set("X-API-Key", key)
    .send({ purchase_id: purchaseId, shipping_address: US, idempotency_key: idem })
    .expect(201);

describe("mystery test values", () => {
  it('external_user_id "kyc_approve": the KYC partner\'s redemption is approved at once, calls included', async () => {
    const kyc = ctx.emu.key("kyc");
    const p = await revealedFor(kyc, "kyc_approve");
    const r = (await prepare(kyc, p.id, "tv-approve")).body.data;
    expect(r).toMatchObject({ status: "PREPARED", kyc: { status: "APPROVED", kyc_url: null } });
    expect(r.unsigned.calls.length).toBeGreaterThan(0);
  });

  it('external_user_id "kyc_decline": the redemption fails with kyc_declined', async () => {
    const kyc = ctx.emu.key("kyc");
    const p = await revealedFor(kyc, "kyc_decline");
    const r = (await prepare(kyc, p.id, "tv-decline")).body.data;
    expect(r).toMatchObject({ status: "FAILED", kyc: { status: "DECLINED" }, unsigned: null });
  });

  it('offer_price_usdc "1.23": the marketplace rejects the buyback offer (409 not_eligible); 1.24 is an offer', async () => {
    // setup: a card worth $20–$40 (a steered reveal), so the token is eligible for buyback
    await ctx.api
      .post("/_emulator/mystery/reveals")
      .send({ key: ctx.demo, tier_id: 1, band: { min_usd: "20", max_usd: "40" } })
      .expect(201);
    const p = await revealedFor(ctx.demo, "tv-buyback");
    const card = p.items.find((i) => i.item_type === "CARD")!;
    const offer = (price: string) =>
      ctx.api
        .post("/api/v1/mystery/buyback")
        .set("X-API-Key", ctx.demo)
        .send({ token_id: card.token_id, offer_price_usdc: price });
    const rejected = await offer("1.23");
    expectError(rejected, 409, "not_eligible");
    expect(rejected.body.message).toContain("marketplace rejected");
    expect((await offer("1.24").expect(201)).body.data).toMatchObject({ price_usdc: "1.240000", status: "active" });
  });
});
