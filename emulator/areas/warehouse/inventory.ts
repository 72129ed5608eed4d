import { badRequest, notFound } from "../../pipeline/errors.ts";
import { leadingInt, MAX_PAGE_SIZE, paginate, parseOffsetPage } from "../../pipeline/pagination.ts";
import { ok, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import { own } from "../../state/own.ts";
import type { CardRow, TenantState } from "./model.ts";
import { cardWire, custodyCards } from "./format.ts";
import { read, TENANT, tenant, statusFilter } from "./http.ts";

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

const TYPES = ["raw", "graded", "all"] as const;

/** `type` = graded | all (raw too, for symmetry); default raw only. */
function typeFilter(c: HandlerContext): (card: CardRow) => boolean {
  const t = c.query.get("type") ?? "raw";
  if (!(TYPES as readonly string[]).includes(t)) throw badRequest("invalid_type", `type must be graded or all (default: raw cards only); got "${t.slice(0, 40)}"`);
  return t === "all" ? () => true : (card) => card.type === t;
}

export function findCard(t: TenantState, uniqueId: string): CardRow {
  const card = own(t.cards, uniqueId);
  if (!card) throw notFound(`No card ${uniqueId} in this tenant's inventory`);
  return card;
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
    const keep = typeFilter(c);
    const rows = custodyCards(tenant(c))
      .filter((card) => card.rev > since && keep(card))
      .sort((a, b) => a.rev - b.rev);
    const page = rows.slice(0, limit);
    const last = page.length ? page[page.length - 1].rev : since;
    const more = rows.length > page.length;
    return ok({
      cards: page.map((card) => cardWire(card)),
      next_cursor: more ? encodeCursor(last) : null,
      // Where a later incremental sweep resumes (the end of this one).
      resume_cursor: encodeCursor(more ? last : Math.max(since, tenant(c).rev)),
      has_more: more,
    });
  }),

  read("/cards/:unique_id", TENANT, (c) => ok(cardWire(findCard(tenant(c), c.params.unique_id)))),

  read("/inventory", TENANT, (c) => {
    const page = parseOffsetPage(c.query);
    const keep = typeFilter(c);
    const status = statusFilter(c, ["AVAILABLE", "RESERVED"]);
    const rows = custodyCards(tenant(c))
      .filter((card) => keep(card) && (!status || card.status === status))
      .sort((a, b) => a.received_at.localeCompare(b.received_at) || a.unique_id.localeCompare(b.unique_id));
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
