import { badRequest } from "../../../pipeline/errors.ts";
import { checkIdLength } from "../../../pipeline/identifiers.ts";
import { paginate, parseOffsetPage } from "../../../pipeline/pagination.ts";
import { ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, route } from "../access.ts";
import { queryIdentity } from "../identity.ts";
import { tierParam, tokenIdParam } from "../util.ts";
import { cardPrice, partnerStats, tierCatalog, tierOdds, tokenPrice } from "./catalog.ts";
import { collectionItems, collectionOf } from "./collection.ts";
import { byRecent, byValue, feedRow, feedRows, type Revealed } from "./revealed.ts";
import { tierOf } from "./tiers.ts";

// Catalog endpoints: tiers, odds, the would-be buyback price, partner stats;
// the reveal feeds (service-facts §4.1, SDK gacha.feed: every partner's
// reveals, or ?scope=mine, newest first or winners by value, paged
// limit/offset under `items`, `game` filter, `fresh` accepted: nothing is
// cached here); an end user's collection.

export const catalogRoutes: RouteSpec[] = [
  route("GET", "/mystery/catalog", partner("read:catalog"), "partner_read", (c) => ok(tierCatalog(c.services, c.query.get("active"), c.query.get("game")))),

  route("GET", "/mystery/catalog/:tier_id/odds", partner("read:catalog"), "partner_read", (c) => ok(tierOdds(tierOf(c.services, tierParam(c.params.tier_id))))),

  route("GET", "/mystery/price", partner("read:catalog"), "partner_read", async (c) => {
    const cardId = c.query.get("card_id");
    const tokenId = c.query.get("token_id");
    if ((cardId === null || cardId === "") === (tokenId === null || tokenId === ""))
      throw badRequest("invalid_price_query", "Send exactly one of card_id or token_id");
    if (tokenId) {
      // Checked before the chain is asked: viem throws on values past uint256.
      const id = tokenIdParam(tokenId, "token_id");
      if (id === null) throw badRequest("invalid_price_query", `token_id must be a token id: a uint256 in plain decimal (got "${tokenId.slice(0, 80)}")`);
      return ok(await tokenPrice(c.services, id));
    }
    checkIdLength(cardId, "card_id");
    return ok(cardPrice(c.services, cardId!));
  }),

  route("GET", "/mystery/stats", partner("packs:read"), "partner_read", (c) => ok(partnerStats(c.services, c.key!.account_id))),
];

function scopeOf(c: HandlerContext): "all" | "mine" {
  const v = c.query.get("scope");
  if (v === null || v === "" || v === "all") return "all";
  if (v === "mine") return "mine";
  throw badRequest("invalid_value", 'scope must be "mine" (or omitted for every partner\'s reveals)');
}

async function feed(c: HandlerContext, order: (a: Revealed, b: Revealed) => number, scope: "all" | "mine") {
  const page = parseOffsetPage(c.query);
  const rows = await feedRows(c.services, order, scope === "all" ? null : c.key!.account_id, c.query.get("game"));
  const { items, pagination } = paginate(rows, page);
  return ok({ items: items.map(feedRow) }, { pagination });
}

export const feedRoutes: RouteSpec[] = [
  route("GET", "/mystery/feed/recent", partner("read:catalog"), "partner_read", (c) => feed(c, byRecent, scopeOf(c))),
  route("GET", "/mystery/feed/winners", partner("read:catalog"), "partner_read", (c) => feed(c, byValue, scopeOf(c))),
];

export const collectionRoutes: RouteSpec[] = [
  route("GET", "/mystery/collection", partner("packs:read"), "partner_read", async (c) => {
    const who = queryIdentity(c);
    const page = parseOffsetPage(c.query);
    const { user, rows } = await collectionOf(c.services, c.key!.account_id, who);
    const { items, pagination } = paginate(rows, page);
    return ok({ user, items: await collectionItems(c.services, items) }, { pagination });
  }),
];
