import type { CollectionItem } from "../../../../contract/index.ts";
import type { Services } from "../../../pipeline/services.ts";
import { own } from "../../../state/own.ts";
import { ownerOf } from "../chain-io.ts";
import type { EndUser } from "../../../../contract/index.ts";
import { mystery } from "../state.ts";
import { byRecent, revealedItems, type Revealed } from "./revealed.ts";

// An end user's collection (docs/mystery.md, SDK gacha.collection): the
// items revealed from this partner's purchases made by that user (by
// external_user_id, or by the purchasing wallet), newest first, with
// `still_owned` read from the chain (ownerOf == the wallet that received it;
// null when the chain is down). Nothing is provisioned by this read.

/** The user as known to the account (identity completed from its end users) and their reveals, newest first. */
export function collectionOf(s: Services, acct: string, who: EndUser) {
  const users = Object.values(own(mystery(s).end_users, acct) ?? {});
  const known = who.external_user_id
    ? users.find((u) => u.external_user_id === who.external_user_id)
    : users.find((u) => u.wallet_address.toLowerCase() === who.wallet_address!.toLowerCase());
  const wallet = who.wallet_address ?? (known?.wallet_address as `0x${string}` | undefined) ?? null;
  const external =
    who.external_user_id ?? (known && !known.external_user_id.startsWith("wallet:") ? known.external_user_id : null);
  const rows = revealedItems(s)
    .filter((r) => r.purchase.account_id === acct)
    .filter(
      (r) =>
        (external !== null && r.purchase.external_user_id === external) ||
        (wallet !== null && r.purchase.purchaser_address.toLowerCase() === wallet.toLowerCase()),
    )
    .sort(byRecent);
  return { user: { external_user_id: external, wallet_address: wallet }, rows };
}

async function stillOwned(s: Services, r: Revealed): Promise<boolean | null> {
  if (!s.chainHost) return null;
  const owner = await ownerOf(s.chainHost.gateway, BigInt(r.item.token_id));
  return owner !== null && owner.toLowerCase() === r.purchase.purchaser_address.toLowerCase();
}

/** The wire rows of a page of the collection (one ownerOf read per item). */
export async function collectionItems(s: Services, page: readonly Revealed[]): Promise<CollectionItem[]> {
  const out: CollectionItem[] = [];
  for (const r of page) {
    const item = r.item;
    out.push({
      token_id: item.token_id,
      item_type: item.item_type,
      category: item.category,
      card_id: item.card_id ?? null,
      name: item.name,
      image_url: item.image_url,
      value_usd: item.value_usd,
      rarity: item.rarity ?? null,
      card_number: item.card_number ?? null,
      set_id: item.set_id ?? null,
      purchase_id: r.purchase.id,
      tier_id: r.purchase.tier_id,
      acquired_at: r.revealed_at,
      still_owned: await stillOwned(s, r),
    });
  }
  return out;
}
