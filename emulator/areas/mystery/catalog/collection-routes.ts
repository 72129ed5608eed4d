import { paginate, parseOffsetPage } from "../../../pipeline/pagination.ts";
import { ok, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, route } from "../access.ts";
import { ownerOf } from "../chain-io.ts";
import { queryIdentity } from "../identity.ts";
import { byRecent, revealedItems, type Revealed } from "./revealed.ts";
import { mystery } from "../state.ts";
import { own } from "../../../state/own.ts";

// An end user's collection (service-facts §4.2, SDK gacha.collection): the
// items revealed from this partner's purchases made by that user (by
// external_user_id, or by the purchasing wallet), newest first, with
// `still_owned` read from the chain (ownerOf == the wallet that received it;
// null when the chain is down). Nothing is provisioned by this read.

async function stillOwned(c: Parameters<RouteSpec["handle"]>[0], r: Revealed): Promise<boolean | null> {
  if (!c.services.chain) return null;
  const owner = await ownerOf(c.services.chain.chain, BigInt(r.item.token_id));
  return owner !== null && owner.toLowerCase() === r.purchase.purchaser_address.toLowerCase();
}

export const collectionRoutes: RouteSpec[] = [
  route("GET", "/mystery/collection", partner("packs:read"), "partner_read", async (c) => {
    const who = queryIdentity(c);
    const page = parseOffsetPage(c.query);
    const acct = c.key!.account_id;
    const users = Object.values(own(mystery(c.services).end_users, acct) ?? {});
    const known = who.external_user_id
      ? users.find((u) => u.external_user_id === who.external_user_id)
      : users.find((u) => u.wallet_address.toLowerCase() === who.wallet_address!.toLowerCase());
    const wallet = who.wallet_address ?? (known?.wallet_address as `0x${string}` | undefined) ?? null;
    const external = who.external_user_id ?? (known && !known.external_user_id.startsWith("wallet:") ? known.external_user_id : null);
    const rows = (await revealedItems(c.services))
      .filter((r) => r.purchase.account_id === acct)
      .filter(
        (r) =>
          (external !== null && r.purchase.external_user_id === external) ||
          (wallet !== null && r.purchase.purchaser_address.toLowerCase() === wallet.toLowerCase()),
      )
      .sort(byRecent);
    const { items, pagination } = paginate(rows, page);
    const out = [];
    for (const r of items) {
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
        still_owned: await stillOwned(c, r),
      });
    }
    return ok({ user: { external_user_id: external, wallet_address: wallet }, items: out }, { pagination });
  }),
];
