import { badRequest } from "../../pipeline/errors.ts";
import { leadingInt, MAX_PAGE_SIZE, paginate, parseOffsetPage } from "../../pipeline/pagination.ts";
import { ok, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import { cardWire } from "./format.ts";
import { read, TENANT, tenant, statusFilter } from "./http.ts";
import { CARD_TYPES, findCard, inventoryCards, sweepCards, type CardTypeFilter } from "./inventory.ts";

// Inventory reads: the keyset sweep (GET /cards, `since`), the offset listing
// with status and totals (GET /inventory), and one card (GET /cards/{id}).

export const CURSOR_PREFIX = "r:";

/** Opaque keyset cursor: `r:` + base64url of the keyset position. */
export const encodeCursor = (rev: number) => CURSOR_PREFIX + Buffer.from(`rev:${rev}`).toString("base64url");

export function decodeCursor(raw: string | null): number {
  if (raw === null || raw === "0") return 0;
  if (raw.startsWith(CURSOR_PREFIX)) {
    const m = /^rev:(\d{1,15})$/.exec(Buffer.from(raw.slice(CURSOR_PREFIX.length), "base64url").toString("utf8"));
    if (m) return Number(m[1]);
  }
  throw badRequest("invalid_cursor", "since must be 0 (a full sweep) or a next_cursor returned by GET /cards (it starts with r:)");
}

/** `type` = graded | all (raw too, for symmetry); default raw only. */
function typeParam(c: HandlerContext): CardTypeFilter {
  const t = c.query.get("type") ?? "raw";
  if (!(CARD_TYPES as readonly string[]).includes(t)) throw badRequest("invalid_type", `type must be graded or all (default: raw cards only); got "${t.slice(0, 40)}"`);
  return t as CardTypeFilter;
}

function sweepLimit(c: HandlerContext): number {
  const raw = c.query.get("limit");
  if (raw === null) return MAX_PAGE_SIZE;
  const n = leadingInt(raw);
  if (n === null) throw badRequest("invalid_pagination", `limit must be an integer (got "${raw.slice(0, 40)}")`);
  return Math.min(MAX_PAGE_SIZE, Math.max(1, n));
}

export const inventoryRoutes: RouteSpec[] = [
  read("/cards", TENANT, (c) => {
    if (c.query.has("offset"))
      throw badRequest("invalid_pagination", "GET /cards pages with the since cursor, not offset (use since=0 for a full sweep; GET /inventory pages by offset)");
    const limit = sweepLimit(c);
    const since = decodeCursor(c.query.get("since"));
    const page = sweepCards(tenant(c), { since, limit, type: typeParam(c) });
    return ok({
      cards: page.cards.map((card) => cardWire(card)),
      next_cursor: page.more ? encodeCursor(page.last) : null,
      // Where a later incremental sweep resumes (the end of this one).
      resume_cursor: encodeCursor(page.resume),
      has_more: page.more,
    });
  }),

  read("/cards/:unique_id", TENANT, (c) => ok(cardWire(findCard(tenant(c), c.params.unique_id)))),

  read("/inventory", TENANT, (c) => {
    const page = parseOffsetPage(c.query);
    const type = typeParam(c);
    const status = statusFilter(c, ["AVAILABLE", "RESERVED"]);
    const rows = inventoryCards(tenant(c), { type, status });
    const { items, pagination } = paginate(rows, page);
    return ok(
      {
        cards: items.map((card) => cardWire(card, { withStatus: true })),
        total: rows.length,
        // Overlaps the listed rows: never add it to `total`.
        pending_identity: rows.filter((card) => card.identity.status === "unconfirmed").length,
      },
      { pagination },
    );
  }),
];
