import { MYSTERY_SHOP } from "../../../../contract/index.ts";
import { paginate } from "../../../pipeline/pagination.ts";
import { ok, serve, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { PRICE_CACHE_MS, READ_CACHE_MS } from "../../../pipeline/response-cache.ts";
import { userPageInput } from "../end-user.ts";
import { cardPrice, partnerStats, shopListing, tierOdds, tokenPrice } from "./shop.ts";
import { collectionItems, collectionOf } from "./collection.ts";
import { byRecent, byValue, feedRow, feedRows, type Revealed } from "./revealed.ts";
import { tierOf } from "./tiers.ts";

// The shop's endpoints (contract/mystery/shop.ts; the wire's /mystery/catalog): tiers, odds, the would-be
// buyback price, partner stats; the reveal feeds (every partner's reveals, or
// ?scope=mine, newest first or winners by value, paged limit/offset under
// `items`, `game` filter); an end user's collection. The listing, odds, price and
// the feeds are the live service's cached reads: a short response cache that
// `fresh=true` bypasses (pipeline/response-cache.ts).

const gate = "partner_read";
const shortCache = { ttl_ms: READ_CACHE_MS };

function feed(
  c: HandlerContext,
  order: (a: Revealed, b: Revealed) => number,
  q: { scope: "all" | "mine"; limit: number; offset: number; game: string | null },
) {
  const rows = feedRows(c.services, order, q.scope === "all" ? null : c.key!.account_id, q.game);
  const { items, pagination } = paginate(rows, q);
  return ok({ items: items.map(feedRow) }, { pagination });
}

export const shopRoutes: RouteSpec[] = [
  serve(MYSTERY_SHOP.catalog, {
    gate,
    cache: shortCache,
    handle: (c) => ok(shopListing(c.services, c.input.query)),
  }),

  serve(MYSTERY_SHOP.odds, {
    gate,
    cache: shortCache,
    handle: (c) => ok(tierOdds(c.services, tierOf(c.services, c.input.params.tier_id))),
  }),

  serve(MYSTERY_SHOP.price, {
    gate,
    cache: { ttl_ms: PRICE_CACHE_MS },
    handle: async (c) => {
      // The contract let exactly one of the two through, a token id in canonical decimal.
      const { token_id, card_id, item_type: as } = c.input.query;
      return ok(token_id ? await tokenPrice(c.services, token_id, as) : cardPrice(c.services, card_id!, as));
    },
  }),

  serve(MYSTERY_SHOP.stats, { gate, handle: (c) => ok(partnerStats(c.services, c.key!.account_id)) }),
];

export const feedRoutes: RouteSpec[] = [
  serve(MYSTERY_SHOP.feedRecent, {
    gate,
    cache: shortCache,
    handle: (c) => feed(c, byRecent, c.input.query),
  }),
  serve(MYSTERY_SHOP.feedWinners, {
    gate,
    cache: shortCache,
    handle: (c) => feed(c, byValue, c.input.query),
  }),
];

export const collectionRoutes: RouteSpec[] = [
  serve(MYSTERY_SHOP.collection, {
    gate,
    handle: async (c) => {
      const { who, page } = userPageInput(c.input.query);
      const { user, rows } = collectionOf(c.services, c.key!.account_id, who);
      const { items, pagination } = paginate(rows, page);
      return ok({ user, items: await collectionItems(c.services, items) }, { pagination });
    },
  }),
];
