import { encodeCursor, WAREHOUSE_CARDS, type CardSweep } from "../../../contract/index.ts";
import { ok, type RouteSpec } from "../../pipeline/route.ts";
import { paginate } from "../../pipeline/pagination.ts";
import { warehouseCardWire } from "./format.ts";
import { read, tenant } from "./http.ts";
import { findCard, inventoryCards, sweepCards } from "./inventory.ts";

// Inventory reads (contract/warehouse/cards.ts): the keyset sweep (GET /cards, `since`), the offset listing
// with status and totals (GET /inventory), and one card (GET /cards/{id}).

export const inventoryRoutes: RouteSpec[] = [
  read(WAREHOUSE_CARDS.list, (c) => {
    const { limit, since, type } = c.input.query;
    const page = sweepCards(tenant(c), { since: since ?? 0, limit, type });
    const sweep: CardSweep = {
      cards: page.cards.map((card) => warehouseCardWire(card)),
      next_cursor: page.more ? encodeCursor(page.last) : null,
      // Where a later incremental sweep resumes (the end of this one).
      resume_cursor: encodeCursor(page.resume),
      has_more: page.more,
    };
    return ok(sweep);
  }),

  read(WAREHOUSE_CARDS.get, (c) => ok(warehouseCardWire(findCard(tenant(c), c.input.params.unique_id)))),

  read(WAREHOUSE_CARDS.inventory, (c) => {
    const { type, status, ...page } = c.input.query;
    const rows = inventoryCards(tenant(c), { type, status: status ?? null });
    const { items, pagination } = paginate(rows, page);
    return ok(
      {
        cards: items.map((card) => warehouseCardWire(card, { withStatus: true })),
        total: rows.length,
        // Overlaps the listed rows: never add it to `total`.
        pending_identity: rows.filter((card) => card.identity.status === "unconfirmed").length,
      },
      { pagination },
    );
  }),
];
