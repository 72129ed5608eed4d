import { describe, expect, it } from "vitest";
import { expectError } from "../../conformance/assert.ts";
import { bundleCards } from "../../fixtures/instant/index.ts";
import { useMystery, type Ctx } from "../mystery/helpers.ts";
import { sdkFor, waitForDelivery } from "../sdk.ts";

// Steered instant openings (issue 35): InstantPack draws bundle `word % undrawn`, so the emulator fulfils with
// the position of the undrawn bundle that holds the named cards; the partner sees them through waitForDelivery.

let ctx: Ctx;
useMystery("auto", (c) => (ctx = c));
const custodial = (body: Record<string, unknown>) => ctx.api.post("/_emulator/instant/custodial").send(body);
const steer = (body: Record<string, unknown>) => ctx.api.post("/_emulator/instant/reveals").send(body);
const cardsOfBundle = (bundle: number) =>
  bundleCards(ctx.emu.services.catalog, ctx.emu.services.options.seed, 1, bundle, 5).map((c) => c.card_id);

describe("steered instant openings", () => {
  it("named cards for a purchase: the contract draws the bundle holding them, waitForDelivery shows them", async () => {
    const key = ctx.emu.key("demo");
    const wanted = cardsOfBundle(17).slice(0, 2);
    const made = (await custodial({ key, packet_type_id: 1, external_user_id: "acme-user-1" }).expect(201)).body.data;
    await steer({ purchase_id: made.id, items: wanted }).expect(201);
    const { value } = await waitForDelivery(sdkFor(ctx.emu, key), made.id);
    expect(value.status).toBe("FULFILLED");
    expect(value.cards!.map((c) => c.card_id)).toEqual(cardsOfBundle(17));
  });

  it("the next purchase of a key's packet type takes the steer; a band picks a bundle with a card inside it", async () => {
    const key = ctx.emu.key("demo");
    const priced = bundleCards(ctx.emu.services.catalog, ctx.emu.services.options.seed, 1, 5, 5).find(
      (c) => c.market_usd !== null,
    )!;
    const band = { min_usd: String(priced.market_usd), max_usd: String(priced.market_usd), rarity: priced.rarity };
    await steer({ key, tier_id: 1, band }).expect(201);
    const made = (await custodial({ key, packet_type_id: 1, external_user_id: "acme-user-1" }).expect(201)).body.data;
    const { value } = await waitForDelivery(sdkFor(ctx.emu, key), made.id);
    expect(value.cards!.some((c) => c.card_id && c.rarity === priced.rarity)).toBe(true);
    expect((await ctx.api.get("/_emulator/instant/reveals").expect(200)).body.data.pending).toEqual([]);
  });

  it("cards no undrawn bundle holds together: 409 steer_unsatisfiable naming them, nothing kept", async () => {
    const apart = [cardsOfBundle(1)[0]!, "no-such-card"];
    const res = await steer({ key: ctx.emu.key("demo"), tier_id: 1, items: apart });
    expectError(res, 409, "steer_unsatisfiable");
    expect(res.body.message).toContain("card no-such-card");
    expect((await ctx.api.get("/_emulator/instant/reveals").expect(200)).body.data.pending).toEqual([]);
  });
});
