import type {
  InventoryOdds,
  OnchainOdds,
  PartnerStats,
  PriceQuote,
  PricedItemType,
  Tier,
  TierCatalog,
  TierOdds,
} from "../../../../contract/index.ts";
import { DEFAULT_GROUPS, tierExpectedValue, type TierConfig } from "../../../../chain/tiers.ts";
import { partnerOf } from "../partners.ts";
import { notFound } from "../../../pipeline/errors.ts";
import type { Services } from "../../../pipeline/services.ts";
import { buybackPrice, usdToMicros } from "../buyback/pricing.ts";
import { chainOf, tokenRecord } from "../chain-io.ts";
import { mystery } from "../state.ts";
import { usd2, usdc } from "../../../../contract/money.ts";
import { groupInventory, groupOf, hydrate } from "./items.ts";
import { TIER_GAMES, tiersOf } from "./tiers.ts";
import { VOLUME_STATUSES } from "../purchases/purchases.ts";

// The shop listing (the wire's /mystery/catalog), odds, the would-be buyback price and partner stats.

function countedPurchases(s: Services, tierId?: number) {
  return Object.values(mystery(s).purchases).filter(
    (p) => VOLUME_STATUSES.has(p.status) && (tierId === undefined || p.tier_id === tierId),
  );
}

/** The tiers on sale (`active` compares as "true"/"false"; any `game` but pokemon, any `variant` but card lists none), with their purchase counts. */
export function shopListing(
  s: Services,
  q: { active: string | null; game: string | null; variant: string | null },
): TierCatalog {
  const tiers = tiersOf(s)
    .filter((t) => q.active === null || String(t.active) === q.active)
    .filter(() => !q.game || q.game === "pokemon")
    .filter(() => !q.variant || q.variant === "card")
    .map((t): Tier => {
      const purchases = countedPurchases(s, t.tierId);
      const last =
        purchases
          .map((p) => p.submitted_at ?? p.created_at)
          .sort()
          .at(-1) ?? null;
      return {
        tier_id: t.tierId,
        name: t.name,
        slug: t.slug,
        description: `${t.slots.length} items per pack: ${t.slots.map((x) => x.slotType).join(", ")}`,
        variant: "card",
        game: TIER_GAMES[0],
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
  return { tiers, games: [...TIER_GAMES] };
}

/** A tier's odds: from the pool's weights (per slot and per rarity group), or from the inventory without a chain. */
export function tierOdds(s: Services, t: TierConfig): TierOdds {
  return s.chainHost ? onchainOdds(s, t) : inventoryOdds(s, t);
}

const groupIdsOf = (t: TierConfig) => [...new Set(t.slots.flatMap((slot) => slot.groups.map((g) => g.groupId)))];

function onchainOdds(s: Services, t: TierConfig): OnchainOdds {
  const slots = t.slots.map((slot, i) => {
    const total = slot.groups.reduce((n, g) => n + g.weight, 0);
    const groups = slot.groups.map((g) => ({
      group_id: g.groupId,
      weight: String(g.weight),
      probability: g.weight / total,
    }));
    const cfg = slot.groups.map((g) => groupOf(g.groupId)!);
    return {
      slot_index: i,
      slot_type: slot.slotType,
      min_value_usdc: usdc(cfg.reduce((m, g) => (g.minValue < m ? g.minValue : m), cfg[0]!.minValue)),
      max_value_usdc: usdc(cfg.reduce((m, g) => (g.maxValue > m ? g.maxValue : m), 0n)),
      groups,
    };
  });
  const rarity_groups = groupIdsOf(t).map((id) => {
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
      available_count: groupInventory(s.catalog, id),
    };
  });
  return {
    scope: "onchain" as const,
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

/** The availability-derived shape (the chain unreachable): each group's share of the inventory, no per-slot weights. */
function inventoryOdds(s: Services, t: TierConfig): InventoryOdds {
  const groups = groupIdsOf(t).map((id) => ({ g: groupOf(id)!, available: groupInventory(s.catalog, id) }));
  const total = groups.reduce((n, x) => n + x.available, 0);
  // The average item value weighs each group's mid value by its availability.
  const valueSum = groups.reduce((n, x) => n + ((x.g.minValue + x.g.maxValue) / 2n) * BigInt(x.available), 0n);
  return {
    scope: "inventory_fallback" as const,
    tier_id: t.tierId,
    currency: "USDC",
    total_available: total,
    average_item_value: usdc(total === 0 ? 0n : valueSum / BigInt(total)),
    rarity_groups: groups.map(({ g, available }) => ({
      group_id: g.groupId,
      name: g.name,
      tier_label: g.itemType,
      color: GROUP_COLOR,
      min_price: usdc(g.minValue),
      max_price: usdc(g.maxValue),
      avg_price: usdc((g.minValue + g.maxValue) / 2n),
      available_count: available,
      probability: total === 0 ? 0 : available / total,
    })),
  };
}

/** The groups have no colour of their own; the fallback shape's color is always a string. */
const GROUP_COLOR = "#808080";

type PricedType = PricedItemType;

/** A minted card token's oracle value and would-be buyback price (`asType`: only a token of that kind). */
export async function tokenPrice(s: Services, id: string, asType: PricedType | null): Promise<PriceQuote> {
  const rec = await tokenRecord(chainOf(s), BigInt(id));
  if (rec.originalRecipient === "0x0000000000000000000000000000000000000000")
    throw notFound(`Token ${id} was not minted by the mystery pool`);
  const group = groupOf(rec.groupId);
  const type = group?.itemType ?? "CARD";
  // Only cards and slabs have a card price; a packet or sealed product is not priced here.
  if (type !== "CARD" && type !== "GRADED_CARD")
    throw notFound(`Token ${id} is a ${type}, not a card: only CARD and GRADED_CARD tokens are priced`);
  if (asType !== null && asType !== type) throw notFound(`Token ${id} is a ${type}, not a ${asType}`);
  const item = hydrate(s.catalog, { tokenId: id, groupId: rec.groupId, itemType: type, valueMicros: rec.oracleValue });
  if (!item.card_id) throw notFound(`Token ${id} has no catalog card`);
  if (rec.oracleValue === 0n) throw notFound(`Token ${id} has no oracle value`, "value_unknown");
  return {
    card_id: item.card_id,
    token_id: id,
    item_type: type,
    market_value_usdc: usdc(rec.oracleValue),
    buyback_price_usdc: usdc(buybackPrice(rec.oracleValue)),
    value_source: type === "GRADED_CARD" ? "graded_market_price" : "buyback_oracle",
    updated_at: s.clock.nowIso(),
  };
}

/** A catalog card's market price and would-be buyback price (the raw card: a slab's value needs its token). */
export function cardPrice(s: Services, cardId: string, asType: PricedType | null): PriceQuote {
  const rec = s.catalog.cardAnyGame(cardId);
  if (!rec) throw notFound(`No card ${cardId}`);
  if (asType === "GRADED_CARD")
    throw notFound(
      `No graded value for card ${rec.card.id} without a slab: price the GRADED_CARD by token_id`,
      "value_unknown",
    );
  const market = rec.pricing?.market;
  if (market === null || market === undefined)
    throw notFound(`Card ${rec.card.id} has no market price`, "value_unknown");
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
export function partnerStats(s: Services, acct: string): PartnerStats {
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
    partner_slug: partnerOf(s, acct).slug,
    currency: "USDC",
    total_purchases: mine.length,
    fulfilled: mine.filter((p) => p.status === "FULFILLED").length,
    refunded: mine.filter((p) => p.status === "REFUNDED").length,
    failed: mine.filter((p) => p.status === "FAILED").length,
    total_volume: volume.toString(),
    total_volume_usdc: usdc(volume),
    by_tier: byTier,
    buyback: {
      offers: offers.length,
      accepted: accepted.length,
      offered_volume_usdc: usdc(sum(offers)),
      accepted_volume_usdc: usdc(sum(accepted)),
    },
  };
}
