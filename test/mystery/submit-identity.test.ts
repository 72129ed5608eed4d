import { describe, expect, it } from "vitest";
import { sendCalls, user, type Ctx, useMystery } from "./helpers.ts";

// Submit names the end user as the SDK's UserIdentity does: external_user_id
// and/or wallet_address (docs/mystery.md). Without a wallet the buyer is the
// receipt's; with neither it is 400 missing_user_identifier and nothing is recorded.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const P = "/api/v1/mystery";

async function minedPurchase(i: number) {
  const u = user(ctx, i);
  const prep = await ctx.api
    .post(`${P}/purchase/prepare`)
    .set("X-API-Key", ctx.demo)
    .send({ wallet_address: u.address, tier_id: 1 })
    .expect(200);
  const receipt = await sendCalls(ctx, u, prep.body.data.calls);
  return { u, hash: receipt.transactionHash };
}

describe("submit: the end user's identity", () => {
  it("external_user_id alone records the purchase; the purchaser is the receipt's buyer", async () => {
    const { u, hash } = await minedPurchase(0);
    const res = await ctx.api
      .post(`${P}/purchase/submit`)
      .set("X-API-Key", ctx.demo)
      .send({ tier_id: 1, transaction_hash: hash, external_user_id: "eu-submit" })
      .expect(202);
    expect(res.body.data).toMatchObject({
      status: "SUBMITTED",
      purchaser_address: u.address,
      external_user_id: "eu-submit",
      transaction_hash: hash,
    });
    const list = await ctx.api.get(`${P}/purchases?external_user_id=eu-submit`).set("X-API-Key", ctx.demo).expect(200);
    expect(list.body.data.purchases.map((p: { id: number }) => p.id)).toEqual([res.body.data.id]);
  });

  it("neither identifier is 400 missing_user_identifier and records nothing", async () => {
    const { hash } = await minedPurchase(1);
    const res = await ctx.api
      .post(`${P}/purchase/submit`)
      .set("X-API-Key", ctx.demo)
      .send({ tier_id: 1, transaction_hash: hash })
      .expect(400);
    expect(res.body.error).toBe("missing_user_identifier");
    expect((await ctx.api.get(`${P}/purchases`).set("X-API-Key", ctx.demo).expect(200)).body.data.purchases).toEqual(
      [],
    );
  });
});
