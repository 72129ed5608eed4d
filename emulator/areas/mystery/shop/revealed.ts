import type { FeedRow } from "../../../../contract/index.ts";
import type { Services } from "../../../pipeline/services.ts";
import { mystery, type ItemRow, type PurchaseRow } from "../state.ts";
import { parseUsdc, usdc } from "../../../../contract/money.ts";
import { tierGame, type TierGame } from "./tiers.ts";

// Every revealed item of every partner's purchases, for the feeds and the
// collection: one row per token, with the purchase it came from.

export interface Revealed {
  purchase: PurchaseRow;
  item: ItemRow;
  revealed_at: string;
  /** The tier's game (not the card's): what the feed rows name and ?game= filters on. */
  game: TierGame | null;
  value_micros: bigint;
}

/** The revealed items the books hold: reveals mined before the request were settled by the reconciler (pipeline/reconcile.ts). */
export function revealedItems(s: Services): Revealed[] {
  const out: Revealed[] = [];
  for (const p of Object.values(mystery(s).purchases)) {
    if (!p.items || !p.fulfilled_at) continue;
    for (const item of p.items)
      out.push({
        purchase: p,
        item,
        revealed_at: p.fulfilled_at,
        game: tierGame(s, p.tier_id),
        value_micros: parseUsdc(item.value_usd) ?? 0n,
      });
  }
  return out;
}

const cmpToken = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/** Newest reveal first; ties by token id, highest first. */
export const byRecent = (a: Revealed, b: Revealed) =>
  b.revealed_at.localeCompare(a.revealed_at) || cmpToken(b.item.token_id, a.item.token_id);

/** Highest value first; ties by the newest reveal. */
export const byValue = (a: Revealed, b: Revealed) =>
  a.value_micros === b.value_micros ? byRecent(a, b) : a.value_micros > b.value_micros ? -1 : 1;

export const feedRow = (r: Revealed): FeedRow => ({
  token_id: r.item.token_id,
  item_type: r.item.item_type,
  card_name: r.item.name,
  card_image_url: r.item.image_url,
  card_price_usdc: usdc(r.value_micros),
  tier_id: r.purchase.tier_id,
  revealed_at: r.revealed_at,
  game: r.game,
});

/** A reveal feed: every partner's reveals, or one account's (`accountId`), of one game when given, in `order`. */
export function feedRows(
  s: Services,
  order: (a: Revealed, b: Revealed) => number,
  accountId: string | null,
  game: string | null,
): Revealed[] {
  return (
    revealedItems(s)
      .filter((r) => accountId === null || r.purchase.account_id === accountId)
      // Like the catalog's ?game=: an unknown game is simply an empty feed; tiers without a game drop out.
      .filter((r) => !game || r.game?.id === game)
      .sort(order)
  );
}
