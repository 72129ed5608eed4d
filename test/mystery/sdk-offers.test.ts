import { describe, expect, it } from "vitest";
import { encodeFunctionData } from "viem";
import { BURN_TYPES, cardNftAbi } from "../../chain/index.ts";
import { buyRevealed, sendCalls, user, type Ctx, useMystery } from "./helpers.ts";

// Buyback offers and sell-back in the official SDK's wire shapes (docs/mystery.md):
// deadlines as ISO times, ready-to-send calls with `value`, the burn type by
// name, `item_type` accepted where the SDK sends it, null where a value is unknown.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const B = "/api/v1/mystery/buyback";
const S = "/api/v1/mystery/sellback";
const oracle = (token_id: string, usdc: string) =>
  ctx.api.post("/_emulator/mystery/oracle").send({ token_id, usdc }).expect(200);
const create = (body: Record<string, unknown>) => ctx.api.post(B).set("X-API-Key", ctx.demo).send(body);
const prepare = (token: string, body: Record<string, unknown> = {}) =>
  ctx.api.post(`${B}/${token}/accept/prepare`).set("X-API-Key", ctx.demo).send(body);
const accept = (token: string, body: Record<string, unknown>) =>
  ctx.api.post(`${B}/${token}/accept`).set("X-API-Key", ctx.demo).send(body);
const DAY_MS = 24 * 3600 * 1000;

async function offered() {
  const p = await buyRevealed(ctx, ctx.demo, user(ctx, 0), 1);
  const card = p.items.find((x: { item_type: string }) => x.item_type === "CARD");
  await oracle(card.token_id, "40");
  return { card, offer: (await create({ token_id: card.token_id, item_type: "CARD" }).expect(201)).body.data };
}

describe("buyback offers in the SDK's shapes", () => {
  it("create, offers and accept/prepare answer the deadline as an ISO time (the typed data keeps unix seconds); every call carries value", async () => {
    const { card, offer } = await offered();
    expect(offer.deadline).toBe(new Date(Date.parse(offer.created_at) + DAY_MS).toISOString());
    expect(offer.typed_data.message.deadline).toBe(String(Date.parse(offer.deadline) / 1000));
    expect(offer).toMatchObject({ item_type: "CARD", value_usdc: "40.000000", value_source: "buyback_oracle" });
    expect(offer.calls.map((c: { kind: string; value: string }) => [c.kind, c.value])).toEqual([
      ["set-approval-for-all", "0"],
      ["accept-offer", "0"],
    ]);
    const listed = (await ctx.api.get(`${B}?token_id=${card.token_id}`).set("X-API-Key", ctx.demo).expect(200)).body
      .data.offers;
    expect(listed.map((o: { offer_id: number; deadline: string }) => [o.offer_id, o.deadline])).toEqual([
      [offer.offer_id, offer.deadline],
    ]);

    const d = (await prepare(card.token_id, { item_type: "CARD" }).expect(200)).body.data;
    expect(d).toMatchObject({ offer_id: offer.offer_id, receiver: user(ctx, 0).address, deadline: offer.deadline });
    expect(d.nft_approval.call.value).toBe("0");
    expect(d.self_submit.call.value).toBe("0");
    expect(d.transfer_frozen).toEqual({ frozen: false, burn_type: null, cancel_call: null });
  });

  it("a pending burn is named by its type (GRADING), not a number", async () => {
    const { card } = await offered();
    await sendCalls(ctx, user(ctx, 0), [
      {
        to: ctx.emu.chain!.addresses.cardNft,
        data: encodeFunctionData({
          abi: cardNftAbi,
          functionName: "initiateBurn",
          args: [BigInt(card.token_id), BURN_TYPES.GRADING],
        }),
      },
    ]);
    expect((await prepare(card.token_id).expect(200)).body.data.transfer_frozen).toEqual({
      frozen: true,
      burn_type: "GRADING",
      cancel_call: null,
    });
  });

  it("item_type: the other kind finds no such token or offer; anything else is 400 invalid_value; nothing changes", async () => {
    const p = await buyRevealed(ctx, ctx.demo, user(ctx, 0), 1);
    const card = p.items.find((x: { item_type: string }) => x.item_type === "CARD");
    await oracle(card.token_id, "40");
    expect((await create({ token_id: card.token_id, item_type: "GRADED_CARD" }).expect(404)).body.error).toBe(
      "token_not_found",
    );
    expect((await create({ token_id: card.token_id, item_type: "PACKET" }).expect(400)).body.error).toBe(
      "invalid_value",
    );
    expect(
      (await ctx.api.get(`${B}?token_id=${card.token_id}`).set("X-API-Key", ctx.demo).expect(200)).body.data.offers,
    ).toEqual([]);

    const offer = (await create({ token_id: card.token_id }).expect(201)).body.data;
    expect((await prepare(card.token_id, { item_type: "GRADED_CARD" }).expect(404)).body.error).toBe("no_active_offer");
    expect((await prepare(card.token_id, { item_type: 7 }).expect(400)).body.error).toBe("invalid_value");
    const sig = `0x${"11".repeat(65)}`;
    expect(
      (await accept(card.token_id, { receiver_signature: sig, item_type: "GRADED_CARD" }).expect(404)).body.error,
    ).toBe("no_active_offer");
    expect((await accept(card.token_id, { receiver_signature: sig, item_type: "card" }).expect(400)).body.error).toBe(
      "invalid_value",
    );
    expect((await prepare(card.token_id, { item_type: "CARD" }).expect(200)).body.data.offer_id).toBe(offer.offer_id);
  });
});

describe("sell-back in the SDK's shapes", () => {
  it("quote: an unknown value answers null value and payout (not 0); a token the pool never minted has no group", async () => {
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const [a, b] = (p.items as Array<{ token_id: string }>).map((i) => i.token_id) as [string, string];
    await oracle(a, "0");
    const q = (
      await ctx.api
        .post(`${S}/quote`)
        .set("X-API-Key", ctx.revenueShare)
        .send({ wallet_address: u.address, token_ids: [a, b, "987654321"] })
        .expect(200)
    ).body.data;
    const [unpriced, priced, foreign] = q.items;
    expect(unpriced).toMatchObject({
      token_id: a,
      eligible: false,
      reason: "value_unknown",
      oracle_value_usdc: null,
      payout_usdc: null,
      payout_micros: null,
    });
    expect(unpriced.group_id).toEqual(expect.any(Number));
    expect(priced).toMatchObject({ token_id: b, eligible: true });
    expect(BigInt(priced.payout_micros)).toBeGreaterThan(0n);
    expect(foreign).toMatchObject({ token_id: "987654321", eligible: false, reason: "no_window", group_id: null });
    expect(q.total_payout_micros).toBe(priced.payout_micros);
    expect(q.eligible_token_ids).toEqual([b]);
  });
});
