import { paginate } from "../../../pipeline/pagination.ts";
import { ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { PRICE_CACHE_MS, READ_CACHE_MS } from "../../../pipeline/response-cache.ts";
import { partner, schemaRoute } from "../access.ts";
import { cardPrice, partnerStats, tierCatalog, tierOdds, tokenPrice } from "./catalog.ts";
import { collectionItems, collectionOf } from "./collection.ts";
import { byRecent, byValue, feedRow, feedRows, type Revealed } from "./revealed.ts";
import { catalogRoute, collectionInput, collectionRoute, feedRoute, oddsRoute, priceRoute, priceTarget, statsRoute } from "./schemas.ts";
import { tierOf } from "./tiers.ts";

// Catalog endpoints: tiers, odds, the would-be buyback price, partner stats;
// the reveal feeds (service-facts §4.1, SDK gacha.feed: every partner's
// reveals, or ?scope=mine, newest first or winners by value, paged
// limit/offset under `items`, `game` filter); an end user's collection.
// Catalog, odds, price and the feeds are the live service's cached reads: a
// short response cache that `fresh=true` bypasses (pipeline/response-cache.ts).

const cached = (ttl_ms: number) => (spec: RouteSpec): RouteSpec => ({ ...spec, cache: { ttl_ms } });
const shortCache = cached(READ_CACHE_MS);

export const catalogRoutes: RouteSpec[] = [
  shortCache(schemaRoute("GET", "/mystery/catalog", partner("read:catalog"), "partner_read", catalogRoute, (c) => ok(tierCatalog(c.services, c.input.query)))),

  shortCache(schemaRoute("GET", "/mystery/catalog/:tier_id/odds", partner("read:catalog"), "partner_read", oddsRoute, (c) => ok(tierOdds(c.services, tierOf(c.services, c.input.params.tier_id))))),

  cached(PRICE_CACHE_MS)(
    schemaRoute("GET", "/mystery/price", partner("read:catalog"), "partner_read", priceRoute, async (c) => {
      const target = priceTarget(c.input.query);
      const as = c.input.query.item_type;
      return ok("token_id" in target ? await tokenPrice(c.services, target.token_id, as) : cardPrice(c.services, target.card_id, as));
    }),
  ),

  schemaRoute("GET", "/mystery/stats", partner("packs:read"), "partner_read", statsRoute, (c) => ok(partnerStats(c.services, c.key!.account_id))),
];

async function feed(c: HandlerContext, order: (a: Revealed, b: Revealed) => number, q: { scope: "all" | "mine"; limit: number; offset: number; game: string | null }) {
  const rows = await feedRows(c.services, order, q.scope === "all" ? null : c.key!.account_id, q.game);
  const { items, pagination } = paginate(rows, q);
  return ok({ items: items.map(feedRow) }, { pagination });
}

export const feedRoutes: RouteSpec[] = [
  shortCache(schemaRoute("GET", "/mystery/feed/recent", partner("read:catalog"), "partner_read", feedRoute, (c) => feed(c, byRecent, c.input.query))),
  shortCache(schemaRoute("GET", "/mystery/feed/winners", partner("read:catalog"), "partner_read", feedRoute, (c) => feed(c, byValue, c.input.query))),
];

export const collectionRoutes: RouteSpec[] = [
  schemaRoute("GET", "/mystery/collection", partner("packs:read"), "partner_read", collectionRoute, async (c) => {
    const { who, page } = collectionInput(c.input.query);
    const { user, rows } = await collectionOf(c.services, c.key!.account_id, who);
    const { items, pagination } = paginate(rows, page);
    return ok({ user, items: await collectionItems(c.services, items) }, { pagination });
  }),
];
