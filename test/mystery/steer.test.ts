import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectError } from "../../conformance/assert.ts";
import { groupCards } from "../../emulator/areas/mystery/shop/items.ts";
import { sdkFor, waitForReveal } from "../sdk.ts";
import { startMystery, type Ctx } from "./helpers.ts";

// Steered mystery reveals (issue 35): the operator names the items, the VRF words are solved so the pool
// contract itself draws their group and value, and the partner sees them through the SDK's waitForReveal.

let ctx: Ctx;
let base: string;
beforeAll(async () => {
  ctx = await startMystery("auto");
  base = await ctx.emu.snapshot();
});
afterAll(() => ctx.close());
beforeEach(() => ctx.emu.restore(base));

const steer = (body: Record<string, unknown>) => ctx.api.post("/_emulator/mystery/reveals").send(body);
const balance = async () =>
  (
    await ctx.api
      .get("/api/v1/wallet/balance")
      .query({ external_user_id: "acme-user-1" })
      .set("X-API-Key", ctx.demo)
      .expect(200)
  ).body.data.balance as string;
/** A card that only a group's draw can show: in `groupId`'s pool and in no other group of tier 1's card slot. */
const cardOfGroup = (groupId: number) => {
  const others = [1, 2, 3, 4].filter((g) => g !== groupId).flatMap((g) => groupCards(ctx.emu.services.catalog, g));
  return groupCards(ctx.emu.services.catalog, groupId).find((r) => !others.includes(r))!.card;
};

describe("steered mystery reveals", () => {
  it("a named card for a purchase: the pool draws its group and the SDK's waitForReveal shows that card", async () => {
    const card = cardOfGroup(4); // Ultra Rare: weight 100 of 10 000 in tier 1
    const sdk = sdkFor(ctx.emu, ctx.demo);
    const made = await sdk.gacha.purchase({ tier_id: 1, external_user_id: "acme-user-1" });
    const res = await steer({ purchase_id: made.id, items: [card.id] }).expect(201);
    expect(res.body.data).toMatchObject({ purchase_id: made.id, items: [card.id] });

    const { value, seen } = await waitForReveal(sdk, made.id);
    expect(seen.at(-1)).toBe("FULFILLED");
    const items = value.items as unknown as Array<Record<string, unknown>>;
    expect(items[0]).toMatchObject({ card_id: card.id, item_type: "CARD" });
    // the value is the contract's draw within the Ultra Rare group ($50–$150)
    expect(Number(items[0]!.value_usd)).toBeGreaterThanOrEqual(50);
    expect(Number(items[0]!.value_usd)).toBeLessThanOrEqual(150);
    const listed = (await ctx.api.get("/_emulator/mystery/reveals").expect(200)).body.data;
    expect(listed.pending).toEqual([]);
    expect(listed.applied).toEqual([
      {
        steer_id: res.body.data.id,
        purchase_id: made.id,
        request_id: value.onchain_request_id,
        cards: [card.id, null],
      },
    ]);
  });

  it("a band for the next purchase of an account's tier: the value lands inside it", async () => {
    await steer({ key: ctx.demo, tier_id: 1, band: { min_usd: "120", max_usd: "130" } }).expect(201);
    const sdk = sdkFor(ctx.emu, ctx.demo);
    const made = await sdk.gacha.purchase({ tier_id: 1, external_user_id: "acme-user-1" });
    const { value } = await waitForReveal(sdk, made.id);
    const first = (value.items as unknown as Array<{ value_usd: string }>)[0]!;
    expect(Number(first.value_usd)).toBeGreaterThanOrEqual(120);
    expect(Number(first.value_usd)).toBeLessThanOrEqual(130);
  });

  it("an impossible request is a 409 naming what is missing, and nothing is kept or spent", async () => {
    const grail = cardOfGroup(9); // Grail: only tier 3 draws it, tier 1 never can
    const before = await balance();
    const res = await steer({ key: ctx.demo, tier_id: 1, items: [grail.id] });
    expectError(res, 409, "steer_unsatisfiable");
    expect(res.body.message).toContain(`card ${grail.id}`);
    expect(res.body.details.missing).toHaveLength(1);
    const band = await steer({ key: ctx.demo, tier_id: 1, band: { min_usd: "1000" } });
    expectError(band, 409, "steer_unsatisfiable");
    expect((await ctx.api.get("/_emulator/mystery/reveals").expect(200)).body.data.pending).toEqual([]);
    expect(await balance()).toBe(before);
  });

  it("400 without a target or without anything to yield", async () => {
    expectError(await steer({ items: ["x"] }), 400, "invalid_value");
    expectError(await steer({ tier_id: 1 }), 400, "invalid_value");
  });
});
