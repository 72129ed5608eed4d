import { DEFAULT_GROUPS, type GroupConfig } from "../../../../chain/tiers.ts";
import type { CatalogIndex } from "../../../catalog-data/catalog-index.ts";
import type { CardRecord, SealedRecord } from "../../../catalog-data/model.ts";
import { microsOfUsd } from "../../../../contract/money.ts";
import type { ItemRow, ItemTypeName } from "../state.ts";
import { usd2 } from "../../../../contract/money.ts";
import { hashIndex } from "../../../state/ids.ts";

// Hydrates a revealed token into the purchase item shape (docs/reference/live-service.md “Purchases”):
// the chain knows the item's group, type and value; the emulator picks a
// catalog card (or sealed product) for the group, deterministically from the
// token id, so the same seed and purchase sequence always show the same cards.

/** The catalog records a reveal may show, by group: a reveal's candidates. */
interface Candidates {
  cards: Map<number, CardRecord[]>;
  anyCard: CardRecord[];
  packets: SealedRecord[];
  sealed: SealedRecord[];
}

const cache = new WeakMap<CatalogIndex, Candidates>();

function candidatesOf(catalog: CatalogIndex): Candidates {
  let p = cache.get(catalog);
  if (p) return p;
  const priced = catalog.catalog.cards.filter((r) => r.game !== "azuki" && !r.is_variant && r.pricing?.market != null);
  const cards = new Map<number, CardRecord[]>();
  const withMicros = priced.map((r) => ({ r, micros: microsOfUsd(r.pricing!.market!) }));
  for (const g of DEFAULT_GROUPS) {
    const inGroup = withMicros.filter(({ micros }) => micros >= g.minValue && micros <= g.maxValue);
    cards.set(
      g.groupId,
      inGroup.map(({ r }) => r),
    );
  }
  const sealedAll = catalog.catalog.sealed;
  const packets = sealedAll.filter(
    (s) => s.product.product_type === "booster_pack" || s.product.product_type === "sleeved_pack",
  );
  const sealed = sealedAll.filter((s) => !packets.includes(s));
  p = {
    cards,
    anyCard: priced,
    packets: packets.length ? packets : sealedAll,
    sealed: sealed.length ? sealed : sealedAll,
  };
  cache.set(catalog, p);
  return p;
}

function pick<T>(rows: readonly T[], tokenId: string, groupId: number): T | undefined {
  if (rows.length === 0) return undefined;
  return rows[hashIndex(`mystery-item:${tokenId}:${groupId}`, rows.length)];
}

/** A group's inventory: the catalog cards (or sealed products) a reveal of that group draws from. */
export function groupInventory(catalog: CatalogIndex, groupId: number): number {
  const g = groupOf(groupId);
  if (!g) return 0;
  const p = candidatesOf(catalog);
  if (g.itemType === "CARD" || g.itemType === "GRADED_CARD") return p.cards.get(groupId)?.length || p.anyCard.length;
  return (g.itemType === "PACKET" ? p.packets : p.sealed).length;
}

/** The catalog cards a reveal of a card group shows (empty for packets and sealed products): what a steered card must be in. */
export function groupCards(catalog: CatalogIndex, groupId: number): readonly CardRecord[] {
  const g = groupOf(groupId);
  if (!g || (g.itemType !== "CARD" && g.itemType !== "GRADED_CARD")) return [];
  const p = candidatesOf(catalog);
  return p.cards.get(groupId)?.length ? p.cards.get(groupId)! : p.anyCard;
}

export function groupOf(groupId: number): GroupConfig | undefined {
  return DEFAULT_GROUPS.find((g) => g.groupId === groupId);
}

export function hydrate(
  catalog: CatalogIndex,
  token: { tokenId: string; groupId: number; itemType: ItemTypeName; valueMicros: bigint },
  /** A steered reveal's card (purchases' steer): the catalog card this token shows, when it is among the group's candidates. */
  cardId?: string,
): ItemRow {
  const p = candidatesOf(catalog);
  const base = {
    token_id: token.tokenId,
    item_type: token.itemType,
    value_usd: usd2(token.valueMicros),
    group_id: token.groupId,
  };
  if (token.itemType === "CARD" || token.itemType === "GRADED_CARD") {
    const pool = p.cards.get(token.groupId)?.length ? p.cards.get(token.groupId)! : p.anyCard;
    const rec = pool.find((r) => r.card.id === cardId) ?? pick(pool, token.tokenId, token.groupId);
    if (!rec) return { ...base, category: "unknown", name: groupOf(token.groupId)?.name ?? "Card", image_url: null };
    const c = rec.card;
    return {
      ...base,
      category: "card",
      card_id: c.id,
      name: token.itemType === "GRADED_CARD" ? `${c.name} (graded)` : c.name,
      image_url: c.images[0]?.large ?? null,
      ...(c.rarity ? { rarity: c.rarity } : {}),
      card_number: c.number,
      set_id: c.expansion.id,
    };
  }
  const rec = pick(token.itemType === "PACKET" ? p.packets : p.sealed, token.tokenId, token.groupId);
  if (!rec) return { ...base, category: "unknown", name: groupOf(token.groupId)?.name ?? "Product", image_url: null };
  return {
    ...base,
    category: "product",
    name: rec.product.name,
    image_url: rec.product.images[0]?.large ?? null,
    set_id: rec.product.expansion.id,
  };
}
