import { notFound } from "../../pipeline/errors.ts";
import { own } from "../../state/own.ts";
import type { CardRow, CardTypeFilter, TenantState } from "./model.ts";
import { vaultCards } from "./format.ts";

// Inventory rules: finding a tenant's card, the keyset sweep behind GET /cards
// (cards changed since a keyset position) and the status listing behind
// GET /inventory. Routes: inventory-routes.ts.

const ofType = (type: CardTypeFilter) => (card: CardRow) => type === "all" || card.type === type;

export function findCard(t: TenantState, uniqueId: string): CardRow {
  const card = own(t.cards, uniqueId);
  if (!card) throw notFound(`No card ${uniqueId} in this tenant's inventory`);
  return card;
}

export interface SweepPage {
  cards: CardRow[];
  /** More cards changed since `since` than the page holds. */
  more: boolean;
  /** The keyset position of the page's last card (`since` when empty). */
  last: number;
  /** Where a later incremental sweep resumes: the end of this one. */
  resume: number;
}

/** Cards in the vault changed after keyset position `since`, oldest change first, at most `limit`. */
export function sweepCards(t: TenantState, q: { since: number; limit: number; type: CardTypeFilter }): SweepPage {
  const keep = ofType(q.type);
  const rows = vaultCards(t)
    .filter((card) => card.rev > q.since && keep(card))
    .sort((a, b) => a.rev - b.rev);
  const cards = rows.slice(0, q.limit);
  const last = cards.length ? cards[cards.length - 1].rev : q.since;
  const more = rows.length > cards.length;
  return { cards, more, last, resume: more ? last : Math.max(q.since, t.rev) };
}

/** Cards in the vault of a type and status (null: any), by receipt. */
export function inventoryCards(t: TenantState, q: { type: CardTypeFilter; status: string | null }): CardRow[] {
  const keep = ofType(q.type);
  return vaultCards(t)
    .filter((card) => keep(card) && (!q.status || card.status === q.status))
    .sort((a, b) => a.received_at.localeCompare(b.received_at) || a.unique_id.localeCompare(b.unique_id));
}
