import { describe, expect, it } from "vitest";
import { encodeFunctionData } from "viem";
import { cardNftAbi } from "../../chain/index.ts";
import { buyRevealed, sendCalls, user, type Ctx, useMystery, relay } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const get = (path: string, key = ctx.revenueShare) => ctx.api.get(`/api/v1/mystery${path}`).set("X-API-Key", key);
const FEED_FIELDS = [
  "card_image_url",
  "card_name",
  "card_price_usdc",
  "game",
  "item_type",
  "revealed_at",
  "tier_id",
  "token_id",
];

describe("reveal feeds (SDK gacha.feed)", () => {
  it("recent shows every partner's reveals newest first; scope=mine only this account's; paged under `items`", async () => {
    const a = await buyRevealed(ctx, ctx.demo, user(ctx, 0), 1);
    await ctx.emu.clock.advance(60_000);
    const b = await buyRevealed(ctx, ctx.revenueShare, user(ctx, 2), 1);
    const all = await get("/feed/recent").expect(200);
    const rows = all.body.data.items as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(a.items.length + b.items.length);
    expect(Object.keys(rows[0]!).sort()).toEqual(FEED_FIELDS);
    // newest reveal (the TIER partner's) first
    expect(
      rows
        .slice(0, b.items.length)
        .map((r) => r.token_id)
        .sort(),
    ).toEqual(b.items.map((i: { token_id: string }) => i.token_id).sort());
    expect(rows[0]).toMatchObject({
      tier_id: 1,
      revealed_at: b.fulfilled_at,
      game: { id: "pokemon", label: "Pokémon" },
    });
    expect(rows[0]!.card_price_usdc).toMatch(/^\d+\.\d{6}$/);
    expect(all.body.pagination).toMatchObject({ limit: 50, offset: 0, has_more: false });

    const mine = await get("/feed/recent?scope=mine", ctx.demo).expect(200);
    expect(mine.body.data.items.map((r: { token_id: string }) => r.token_id).sort()).toEqual(
      a.items.map((i: { token_id: string }) => i.token_id).sort(),
    );

    const page = await get("/feed/recent?limit=1&offset=1").expect(200);
    expect(page.body.data.items).toEqual([rows[1]]);
    expect(page.body.pagination).toMatchObject({ limit: 1, offset: 1, has_more: true });
    // ?game= filters on the tier's game: every tier is a Pokémon tier
    expect((await get("/feed/recent?game=pokemon").expect(200)).body.data.items).toEqual(rows);
    expect((await get("/feed/recent?game=onepiece").expect(200)).body.data.items).toEqual([]);
    expect((await get("/feed/recent?scope=everyone").expect(400)).body.error).toBe("invalid_value");
  });

  it("winners are ordered by item value, highest first", async () => {
    await buyRevealed(ctx, ctx.demo, user(ctx, 0), 1);
    await buyRevealed(ctx, ctx.revenueShare, user(ctx, 2), 2);
    const res = await get("/feed/winners").expect(200);
    const values = res.body.data.items.map((r: { card_price_usdc: string }) => Number(r.card_price_usdc));
    expect(values.length).toBeGreaterThan(1);
    expect(values).toEqual([...values].sort((x: number, y: number) => y - x));
  });

  it("an unrevealed purchase is not in the feed; the reveal shows up without reading the purchase first", async () => {
    const { buy } = await import("./helpers.ts");
    const { purchase } = await buy(ctx, ctx.revenueShare, user(ctx, 2), 1);
    expect((await get("/feed/recent").expect(200)).body.data.items).toEqual([]);
    await ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: purchase.onchain_request_id }).expect(200);
    // The feed is a cached read (30 s): the cached empty page stands until fresh=true recomputes it.
    expect((await get("/feed/recent").expect(200)).body.data.items).toEqual([]);
    expect((await get("/feed/recent?fresh=true").expect(200)).body.data.items.length).toBeGreaterThan(0);
  });

  it("read:catalog partner keys only: a tenant key is 403, a key without read:catalog 403", async () => {
    expectError(await get("/feed/recent", ctx.tenant), 403, "Insufficient permissions");
    const noCatalog = await ctx.api
      .post("/_emulator/keys")
      .send({ kind: "partner", scopes: ["packs:read"] })
      .expect(201);
    const res = await get("/feed/winners", noCatalog.body.data.key).expect(403);
    expect(res.body).toMatchObject({ success: false, error: "Insufficient permissions" });
  });
});

describe("collection (SDK gacha.collection)", () => {
  it("lists the user's revealed items with purchase, tier, acquired_at and still_owned from the chain", async () => {
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    await buyRevealed(ctx, ctx.revenueShare, user(ctx, 3), 1); // another user
    const [first, second] = p.items as Array<{ token_id: string }>;
    // the user gives one card away
    await sendCalls(ctx, u, [
      {
        to: ctx.emu.chain!.addresses.cardNft,
        data: encodeFunctionData({
          abi: cardNftAbi,
          functionName: "transferFrom",
          args: [u.address, user(ctx, 3).address, BigInt(first!.token_id)],
        }),
      },
    ]);
    const res = await get(`/collection?wallet_address=${u.address}`).expect(200);
    expect(res.body.data.user).toEqual({ external_user_id: "nova-user-1", wallet_address: u.address });
    const items = res.body.data.items as Array<Record<string, unknown>>;
    expect(items).toHaveLength(p.items.length);
    expect(items[0]).toMatchObject({ purchase_id: p.id, tier_id: 1, acquired_at: p.fulfilled_at });
    expect(Object.keys(items[0]!)).toEqual(
      expect.arrayContaining([
        "token_id",
        "item_type",
        "category",
        "card_id",
        "name",
        "image_url",
        "value_usd",
        "rarity",
        "card_number",
        "set_id",
        "still_owned",
      ]),
    );
    const owned = Object.fromEntries(items.map((i) => [i.token_id, i.still_owned]));
    expect(owned[first!.token_id]).toBe(false);
    expect(owned[second!.token_id]).toBe(true);
    expect(res.body.pagination).toMatchObject({ offset: 0, has_more: false });
  });

  it("custodial purchases are found by external_user_id", async () => {
    const r = await ctx.api
      .post("/api/v1/mystery/purchase")
      .set("X-API-Key", ctx.revenueShare)
      .set("Idempotency-Key", "c-1")
      .send({ tier_id: 1, external_user_id: "nova-user-1" })
      .expect(202);
    await relay(ctx);
    const submitted = (
      await ctx.api.get(`/api/v1/mystery/purchase/${r.body.data.id}`).set("X-API-Key", ctx.revenueShare).expect(200)
    ).body.data;
    await ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: submitted.onchain_request_id }).expect(200);
    const res = await get("/collection?external_user_id=nova-user-1&limit=1").expect(200);
    expect(res.body.data.user.external_user_id).toBe("nova-user-1");
    expect(res.body.data.items).toHaveLength(1);
    expect(res.body.data.items[0].purchase_id).toBe(r.body.data.id);
    expect(res.body.pagination.has_more).toBe(true);
    // other partners' purchases never show
    expect((await get("/collection?external_user_id=nova-user-1", ctx.demo).expect(200)).body.data.items).toEqual([]);
  });

  it("400 missing_user_identifier / invalid_wallet_address / identifier_too_long; tenant 403", async () => {
    expect((await get("/collection").expect(400)).body.error).toBe("missing_user_identifier");
    expect((await get("/collection?wallet_address=0x123").expect(400)).body.error).toBe("invalid_wallet_address");
    expect((await get(`/collection?external_user_id=${"x".repeat(256)}`).expect(400)).body.error).toBe(
      "identifier_too_long",
    );
    expectError(await get("/collection?external_user_id=a", ctx.tenant), 403, "Insufficient permissions");
  });
});
