import { badRequest } from "../../../pipeline/errors.ts";
import { paginate, parseOffsetPage } from "../../../pipeline/pagination.ts";
import { ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, route } from "../access.ts";
import { byRecent, byValue, feedRow, revealedItems, type Revealed } from "./revealed.ts";

// Reveal feeds (service-facts §4.1, SDK gacha.feed): every partner's reveals
// (or ?scope=mine: this key's account), newest first; winners by item value.
// Paged limit/offset, list key `items`, `game` filter; `fresh` is accepted
// (nothing is cached here).

function scopeOf(c: HandlerContext): "all" | "mine" {
  const v = c.query.get("scope");
  if (v === null || v === "" || v === "all") return "all";
  if (v === "mine") return "mine";
  throw badRequest("invalid_value", 'scope must be "mine" (or omitted for every partner\'s reveals)');
}

async function feed(c: HandlerContext, order: (a: Revealed, b: Revealed) => number, scope: "all" | "mine") {
  const page = parseOffsetPage(c.query);
  const game = c.query.get("game");
  const rows = (await revealedItems(c.services))
    .filter((r) => scope === "all" || r.purchase.account_id === c.key!.account_id)
    // Like the catalog's ?game=: an unknown game is simply an empty feed.
    .filter((r) => !game || r.game === game)
    .sort(order);
  const { items, pagination } = paginate(rows, page);
  return ok({ items: items.map(feedRow) }, { pagination });
}

export const feedRoutes: RouteSpec[] = [
  route("GET", "/mystery/feed/recent", partner("read:catalog"), "partner_read", (c) => feed(c, byRecent, scopeOf(c))),
  route("GET", "/mystery/feed/winners", partner("read:catalog"), "partner_read", (c) => feed(c, byValue, scopeOf(c))),
];
