import { describe, expect, it } from "vitest";
import { newKey, startEmulator } from "../helpers.ts";
import { buyRevealed, user, type Ctx, useMystery } from "./helpers.ts";

// The read answers in the SDK's shapes (SDK 0.1.2 types): feed rows name the
// tier's game as {id, label}, the wallet's end user has a numeric id, odds
// count the inventory (and fall back to it without a chain), price answers
// only cards, the accrual has no `since` before a first statement.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const M = "/api/v1/mystery";
const get = (path: string, key = ctx.demo) => ctx.api.get(path).set("X-API-Key", key);
const POKEMON = { id: "pokemon", label: "Pokémon" };

describe("feed rows: game is the tier's {id, label}", () => {
  it("recent and winners rows carry {id, label}; ?game= filters on the tier's game", async () => {
    const p = await buyRevealed(ctx, ctx.demo, user(ctx, 0), 1);
    for (const path of ["/feed/recent", "/feed/winners", "/feed/recent?scope=mine"]) {
      const rows = (await get(`${M}${path}`).expect(200)).body.data.items as Array<Record<string, unknown>>;
      expect(rows).toHaveLength(p.items.length);
      for (const r of rows) expect(r.game).toEqual(POKEMON);
    }
    expect((await get(`${M}/feed/recent?game=pokemon`).expect(200)).body.data.items).toHaveLength(p.items.length);
    expect((await get(`${M}/feed/recent?game=onepiece`).expect(200)).body.data.items).toEqual([]);
  });
});

describe("catalog: ?variant= filters on what the tier yields", () => {
  it("variant=card lists every tier; another variant none", async () => {
    const all = (await get(`${M}/catalog`).expect(200)).body.data.tiers as Array<{ tier_id: number; variant: string }>;
    expect(all.map((t) => t.variant)).toEqual(["card", "card", "card"]);
    expect((await get(`${M}/catalog?variant=card`).expect(200)).body.data.tiers).toEqual(all);
    const box = await get(`${M}/catalog?variant=box`).expect(200);
    expect(box.body.data.tiers).toEqual([]);
    expect(box.body.data.games).toEqual([POKEMON]); // computed before the filters
  });
});

describe("wallet balance: end_user.id is the service's numeric id", () => {
  it("a number, stable per end user, distinct between users; the caller's id stays in external_user_id", async () => {
    const a1 = (await get("/api/v1/wallet/balance?external_user_id=wire-a").expect(200)).body.data.end_user;
    const b = (await get("/api/v1/wallet/balance?external_user_id=wire-b").expect(200)).body.data.end_user;
    const a2 = (await get("/api/v1/wallet/balance?external_user_id=wire-a").expect(200)).body.data.end_user;
    expect(Number.isInteger(a1.id)).toBe(true);
    expect(a2).toEqual(a1);
    expect(b.id).not.toBe(a1.id);
    expect(a1.external_user_id).toBe("wire-a");
    const w = user(ctx, 4).address;
    const byWallet = (await get(`/api/v1/wallet/balance?wallet_address=${w}`).expect(200)).body.data.end_user;
    expect(byWallet).toMatchObject({ external_user_id: null, wallet_address: w });
    expect(Number.isInteger(byWallet.id)).toBe(true);
    expect(byWallet.id).not.toBe(a1.id);
  });
});

describe("odds: available_count is the group's inventory", () => {
  it("every rarity group of the onchain shape counts a non-negative integer", async () => {
    const r = (await get(`${M}/catalog/1/odds`).expect(200)).body.data;
    expect(r.scope).toBe("onchain");
    for (const g of r.rarity_groups) {
      expect(Number.isInteger(g.available_count)).toBe(true);
      expect(g.available_count).toBeGreaterThan(0);
    }
  });
});

describe("price answers cards only; item_type picks the kind", () => {
  it("item_type=CARD on a card token prices it; GRADED_CARD on it is 404; a bad item_type 400; by card_id GRADED_CARD is value_unknown", async () => {
    const p = await buyRevealed(ctx, ctx.demo, user(ctx, 1), 1);
    const card = p.items.find((i: { item_type: string }) => i.item_type === "CARD")!;
    const packet = p.items.find((i: { item_type: string }) => i.item_type === "PACKET")!;
    const ok = (await get(`${M}/price?token_id=${card.token_id}&item_type=CARD`).expect(200)).body.data;
    expect(ok).toMatchObject({
      token_id: card.token_id,
      item_type: "CARD",
      card_id: card.card_id,
      value_source: "buyback_oracle",
    });
    expect((await get(`${M}/price?token_id=${card.token_id}&item_type=GRADED_CARD`).expect(404)).body.error).toBe(
      "not_found",
    );
    expect((await get(`${M}/price?token_id=${card.token_id}&item_type=PACKET`).expect(400)).body.error).toBe(
      "invalid_price_query",
    );
    // a packet is not a card: there is no card price for it
    expect((await get(`${M}/price?token_id=${packet.token_id}`).expect(404)).body.error).toBe("not_found");
    expect((await get(`${M}/price?card_id=base1-4&item_type=CARD`).expect(200)).body.data).toMatchObject({
      card_id: "base1-4",
      item_type: "CARD",
    });
    expect((await get(`${M}/price?card_id=base1-4&item_type=GRADED_CARD`).expect(404)).body.error).toBe(
      "value_unknown",
    );
  });
});

describe("revenue: null where nothing applies", () => {
  it("accruing.since is null until a statement closes; POOL terms have no current period", async () => {
    const key = await newKey(ctx.api, { kind: "partner", billing_model: "TIER", scopes: ["packs:read"] });
    const acc = (await get(`${M}/payouts`, key).expect(200)).body.data.accruing;
    expect(acc.since).toBeNull();
    expect(acc.period_closes_at).toMatch(/^\d{4}-/);
    const pool = (await get(`${M}/terms`).expect(200)).body.data;
    expect(pool).toMatchObject({ billing_model: "POOL", current_period: null });
    const tier = (await get(`${M}/terms`, ctx.revenueShare).expect(200)).body.data;
    expect(tier.current_period).toMatchObject({ kind: "QUARTERLY" });
  });
});

describe("odds without a chain: the inventory_fallback shape", () => {
  it("total_available, average_item_value and per-group availability; no slots", async () => {
    const { emu, api, close } = await startEmulator();
    try {
      const r = (await api.get(`${M}/catalog/1/odds`).set("X-API-Key", emu.key("demo")).expect(200)).body.data;
      expect(r).toMatchObject({ scope: "inventory_fallback", tier_id: 1, currency: "USDC" });
      expect(r.slots).toBeUndefined();
      const groups = r.rarity_groups as Array<{ group_id: number; available_count: number; probability: number }>;
      expect(groups.map((g) => g.group_id)).toEqual([1, 2, 3, 4, 7]);
      expect(r.total_available).toBe(groups.reduce((n, g) => n + g.available_count, 0));
      expect(groups.reduce((n, g) => n + g.probability, 0)).toBeCloseTo(1);
      expect(r.average_item_value).toMatch(/^\d+\.\d{6}$/);
    } finally {
      await close();
    }
  });
});
