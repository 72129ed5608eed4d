// Prices are written as decimal USDC text and parsed to bigint micros by the one money module.
import { microsOfDecimal as usd } from "../contract/money.ts";

/**
 * Default mystery-pool configuration deployed by startChain(): item groups (value range + item type)
 * and three tiers whose slots draw one item each among groups by integer weight.
 * All money values are USD micros (6 decimals), like the stablecoin.
 */
export const ITEM_TYPES = ["CARD", "GRADED_CARD", "PACKET", "SEALED_PRODUCT"] as const;
export type ItemTypeName = (typeof ITEM_TYPES)[number];
/** On-chain enum CardNFT.ItemType */
export const ItemType = { CARD: 0, GRADED_CARD: 1, PACKET: 2, SEALED_PRODUCT: 3 } as const;

/** CardNFT burn types (getItemBurnType); 0 = none. */
export const BURN_TYPES = { NONE: 0, REDEEM_CARD: 1, REDEEM_PRODUCT: 2, GRADING: 3 } as const;
export const BURN_TYPE_LABELS: Record<number, string> = {
  0: "NONE",
  1: "REDEEM_CARD",
  2: "REDEEM_PRODUCT",
  3: "GRADING",
};

export interface GroupConfig {
  groupId: number;
  name: string;
  itemType: ItemTypeName;
  minValue: bigint;
  maxValue: bigint;
}

export interface SlotConfig {
  slotType: ItemTypeName;
  groups: Array<{ groupId: number; weight: number }>;
}

export interface TierConfig {
  tierId: number;
  name: string;
  slug: string;
  price: bigint;
  active: boolean;
  slots: SlotConfig[];
}

export const DEFAULT_GROUPS: readonly GroupConfig[] = [
  { groupId: 1, name: "Common", itemType: "CARD", minValue: usd("1"), maxValue: usd("5") },
  { groupId: 2, name: "Uncommon", itemType: "CARD", minValue: usd("5"), maxValue: usd("15") },
  { groupId: 3, name: "Rare", itemType: "CARD", minValue: usd("15"), maxValue: usd("50") },
  { groupId: 4, name: "Ultra Rare", itemType: "CARD", minValue: usd("50"), maxValue: usd("150") },
  { groupId: 5, name: "Graded Mid", itemType: "GRADED_CARD", minValue: usd("30"), maxValue: usd("90") },
  { groupId: 6, name: "Graded Chase", itemType: "GRADED_CARD", minValue: usd("150"), maxValue: usd("600") },
  { groupId: 7, name: "Booster Packet", itemType: "PACKET", minValue: usd("4"), maxValue: usd("8") },
  { groupId: 8, name: "Sealed Box", itemType: "SEALED_PRODUCT", minValue: usd("100"), maxValue: usd("250") },
  { groupId: 9, name: "Grail", itemType: "GRADED_CARD", minValue: usd("1000"), maxValue: usd("5000") },
  { groupId: 10, name: "Sealed Vintage", itemType: "SEALED_PRODUCT", minValue: usd("500"), maxValue: usd("1500") },
];

export const DEFAULT_TIERS: readonly TierConfig[] = [
  {
    tierId: 1,
    name: "Starter",
    slug: "starter",
    price: usd("25"),
    active: true,
    slots: [
      {
        slotType: "CARD",
        groups: [
          { groupId: 1, weight: 6000 },
          { groupId: 2, weight: 3000 },
          { groupId: 3, weight: 900 },
          { groupId: 4, weight: 100 },
        ],
      },
      { slotType: "PACKET", groups: [{ groupId: 7, weight: 1 }] },
    ],
  },
  {
    tierId: 2,
    name: "Premium",
    slug: "premium",
    price: usd("100"),
    active: true,
    slots: [
      {
        slotType: "CARD",
        groups: [
          { groupId: 2, weight: 7000 },
          { groupId: 3, weight: 2700 },
          { groupId: 4, weight: 300 },
        ],
      },
      {
        slotType: "GRADED_CARD",
        groups: [
          { groupId: 5, weight: 9700 },
          { groupId: 6, weight: 300 },
        ],
      },
      { slotType: "PACKET", groups: [{ groupId: 7, weight: 1 }] },
    ],
  },
  {
    tierId: 3,
    name: "Grail",
    slug: "grail",
    price: usd("500"),
    active: true,
    slots: [
      {
        slotType: "GRADED_CARD",
        groups: [
          { groupId: 5, weight: 7000 },
          { groupId: 6, weight: 2900 },
          { groupId: 9, weight: 100 },
        ],
      },
      {
        slotType: "SEALED_PRODUCT",
        groups: [
          { groupId: 8, weight: 9500 },
          { groupId: 10, weight: 500 },
        ],
      },
      {
        slotType: "CARD",
        groups: [
          { groupId: 3, weight: 8000 },
          { groupId: 4, weight: 2000 },
        ],
      },
    ],
  },
];

/** Expected value of a tier in micros: Σ slots Σ groups p(group) × midpoint(group range). */
export function tierExpectedValue(tier: TierConfig, groups: readonly GroupConfig[] = DEFAULT_GROUPS): bigint {
  let ev = 0n;
  for (const slot of tier.slots) {
    const total = slot.groups.reduce((s, g) => s + BigInt(g.weight), 0n);
    for (const { groupId, weight } of slot.groups) {
      const g = groups.find((x) => x.groupId === groupId);
      if (!g) throw new Error(`unknown group ${groupId}`);
      ev += (((g.minValue + g.maxValue) / 2n) * BigInt(weight)) / total;
    }
  }
  return ev;
}
