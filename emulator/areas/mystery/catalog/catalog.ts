import { DEFAULT_GROUPS, tierExpectedValue, type TierConfig } from "../../../../chain/tiers.ts";
import { partnerFixture } from "../../../../fixtures/mystery/index.ts";
import { notFound } from "../../../pipeline/errors.ts";
import type { Services } from "../../../pipeline/services.ts";
import { buybackPrice, usdToMicros } from "../buyback/pricing.ts";
import { chainOf, tokenRecord } from "../chain-io.ts";
import { mystery } from "../state.ts";
import { usd2, usdc } from "../util.ts";
import { groupOf, hydrate } from "./items.ts";
import { tiersOf } from "./tiers.ts";
import { VOLUME_STATUSES } from "../purchases/purchases.ts";

// Tier catalog, odds, the would-be buyback price and partner stats.

const GAMES = [{ id: "pokemon", label: "Pokémon" }];

function countedPurchases(s: Services, tierId?: number) {
  return Object.values(mystery(s).purchases).filter((p) => VOLUME_STATUSES.has(p.status) && (tierId === undefined || p.tier_id === tierId));
}

/** The tiers on sale (`active` compares as "true"/"false"; any `game` but pokemon lists none), with their purchase counts. */
export function tierCatalog(s: Services, active: string | null, game: string | null) {
  const tiers = tiersOf(s)
    .filter((t) => active === null || String(t.active) === active)
    .filter((t) => !game || game === "pokemon")
    .map((t) => {
      const purchases = countedPurchases(s, t.tierId);
      const last = purchases.map((p) => p.submitted_at ?? p.created_at).sort().at(-1) ?? null;
      return {
        tier_id: t.tierId,
        name: t.name,
        slug: t.slug,
        description: `${t.slots.length} items per pack: ${t.slots.map((x) => x.slotType).join(", ")}`,
        variant: "card",
        game: GAMES[0],
        price_usdc: usdc(t.price),
        price_display: `$${usd2(t.price)}`,
        price_micros: t.price.toString(),
        target_ev_usdc: usdc(tierExpectedValue(t)),
        slot_count: t.slots.length,
        active: t.active,
        total_purchases: purchases.length,
        last_active_at: last,
      };
    });
  return { tiers, games: GAMES };
}

/** A tier's odds: per slot and per rarity group. */
export function tierOdds(t: TierConfig) {
  const slots = t.slots.map((slot, i) => {
    const total = slot.groups.reduce((n, g) => n + g.weight, 0);
    const groups = slot.groups.map((g) => ({ group_id: g.groupId, weight: String(g.weight), probability: g.weight / total }));
    const cfg = slot.groups.map((g) => groupOf(g.groupId)!);
    return {
      slot_index: i,
      slot_type: slot.slotType,
      min_value_usdc: usdc(cfg.reduce((m, g) => (g.minValue < m ? g.minValue : m), cfg[0]!.minValue)),
      max_value_usdc: usdc(cfg.reduce((m, g) => (g.maxValue > m ? g.maxValue : m), 0n)),
      groups,
    };
  });
  const groupIds = [...new Set(t.slots.flatMap((slot) => slot.groups.map((g) => g.groupId)))];
  const rarity_groups = groupIds.map((id) => {
    const g = DEFAULT_GROUPS.find((x) => x.groupId === id)!;
    const weight = t.slots.reduce((n, slot) => n + (slot.groups.find((x) => x.groupId === id)?.weight ?? 0), 0);
    const probability = t.slots.reduce((p, slot) => {
      const total = slot.groups.reduce((n, x) => n + x.weight, 0);
      return p + (slot.groups.find((x) => x.groupId === id)?.weight ?? 0) / total / t.slots.length;
    }, 0);
    return {
      group_id: id,
      name: g.name,
      tier_label: g.itemType,
      color: null,
      min_price: usdc(g.minValue),
      max_price: usdc(g.maxValue),
      avg_price: usdc((g.minValue + g.maxValue) / 2n),
      weight: String(weight),
      probability,
      available_count: null,
    };
  });
  return {
    scope: "onchain",
    tier_id: t.tierId,
    currency: "USDC",
    tier_price_usdc: usdc(t.price),
    target_ev_usdc: usdc(tierExpectedValue(t)),
    slot_count: t.slots.length,
    active: t.active,
    rarity_groups,
    slots,
  };
}

/** A minted token's oracle value and would-be buyback price. */
export async function tokenPrice(s: Services, id: string) {
  const rec = await tokenRecord(chainOf(s), BigInt(id));
  if (rec.originalRecipient === "0x0000000000000000000000000000000000000000") throw notFound(`Token ${id} was not minted by the mystery pool`);
  const group = groupOf(rec.groupId);
  const type = group?.itemType ?? "CARD";
  const item = hydrate(s.catalog, { tokenId: id, groupId: rec.groupId, itemType: type, valueMicros: rec.oracleValue });
  if (rec.oracleValue === 0n) throw notFound(`Token ${id} has no oracle value`, "value_unknown");
  return {
    card_id: item.card_id ?? null,
    token_id: id,
    item_type: type,
    market_value_usdc: usdc(rec.oracleValue),
    buyback_price_usdc: usdc(buybackPrice(rec.oracleValue)),
    value_source: type === "GRADED_CARD" ? "graded_market_price" : "buyback_oracle",
    updated_at: s.clock.nowIso(),
  };
}

/** A catalog card's market price and would-be buyback price. */
export function cardPrice(s: Services, cardId: string) {
  const rec = s.catalog.cardAnyGame(cardId);
  if (!rec) throw notFound(`No card ${cardId}`);
  const market = rec.pricing?.market;
  if (market === null || market === undefined) throw notFound(`Card ${rec.card.id} has no market price`, "value_unknown");
  const value = usdToMicros(market);
  return {
    card_id: rec.card.id,
    token_id: null,
    item_type: "CARD",
    market_value_usdc: usdc(value),
    buyback_price_usdc: usdc(buybackPrice(value)),
    value_source: "card_raw_price",
    updated_at: rec.pricing?.market_updated_at ?? null,
  };
}

/** The account's purchase and buyback figures. */
export function partnerStats(s: Services, acct: string) {
  const mine = Object.values(mystery(s).purchases).filter((p) => p.account_id === acct);
  const counted = mine.filter((p) => VOLUME_STATUSES.has(p.status));
  const volume = counted.reduce((n, p) => n + BigInt(p.price_micros), 0n);
  const byTier = tiersOf(s)
    .map((t) => {
      const rows = counted.filter((p) => p.tier_id === t.tierId);
      const v = rows.reduce((n, p) => n + BigInt(p.price_micros), 0n);
      return { tier_id: t.tierId, pulls: rows.length, volume: v.toString(), volume_usdc: usdc(v) };
    })
    .filter((t) => t.pulls > 0);
  const offers = Object.values(mystery(s).offers).filter((o) => o.account_id === acct);
  const accepted = offers.filter((o) => o.status === "accepted");
  const sum = (rows: typeof offers) => rows.reduce((n, o) => n + BigInt(o.price_micros), 0n);
  return {
    partner_slug: partnerFixture(acct).slug,
    currency: "USDC",
    total_purchases: mine.length,
    fulfilled: mine.filter((p) => p.status === "FULFILLED").length,
    refunded: mine.filter((p) => p.status === "REFUNDED").length,
    failed: mine.filter((p) => p.status === "FAILED").length,
    total_volume: volume.toString(),
    total_volume_usdc: usdc(volume),
    by_tier: byTier,
    buyback: { offers: offers.length, accepted: accepted.length, offered_volume_usdc: usdc(sum(offers)), accepted_volume_usdc: usdc(sum(accepted)) },
  };
}
