import { MAX_PAGE_SIZE, offsetPageQuery } from "../paging.ts";
import { operation } from "../operation.ts";
import { withCode, z } from "../zod.ts";
import { count, instant, int, notFound, page, statusQuery, TENANT_ONLY, uniqueIdParam, usd } from "./common.ts";

// A tenant's cards (docs/warehouse.md, "Raw card"): the keyset sweep
// (GET /cards, `since`), the offset listing with status and totals
// (GET /inventory) and one card (GET /cards/{unique_id}).

/** Where a card physically is. `OFFCHAIN`: in the vault, not tokenized. */
export const CARD_LOCATIONS = ["OFFCHAIN", "ONCHAIN", "IN_TRANSIT", "EXTERNAL"] as const;
export type CardLocation = (typeof CARD_LOCATIONS)[number];

/** Inventory status (the `status` the inventory listing adds). */
export const CARD_STATUSES = ["AVAILABLE", "RESERVED", "SHIPPED", "RETURNING", "WITHDRAWN", "TRANSFERRED"] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

/** The `type` filter of card listings: raw (the default), graded slabs, or all. */
export const CARD_TYPES = ["raw", "graded", "all"] as const;
export type CardTypeFilter = (typeof CARD_TYPES)[number];

/** unique_id: `CARD-` and a service prefix, at most 22 characters, shared by raw cards and slabs. */
export const UNIQUE_ID_MARKER = "CARD-";
export const MAX_UNIQUE_ID = 22;

// ---- the `since` keyset cursor of GET /cards ----

export const CURSOR_PREFIX = "r:";

/** Opaque keyset cursor: `r:` + base64url of the keyset position. */
export const encodeCursor = (rev: number) => CURSOR_PREFIX + Buffer.from(`rev:${rev}`).toString("base64url");

function decodeCursor(raw: string): number | null {
  if (raw === "0") return 0;
  if (!raw.startsWith(CURSOR_PREFIX)) return null;
  const m = /^rev:(\d{1,15})$/.exec(Buffer.from(raw.slice(CURSOR_PREFIX.length), "base64url").toString("utf8"));
  return m ? Number(m[1]) : null;
}

const since = withCode(
  z
    .string()
    .transform((raw, ctx) => {
      const rev = decodeCursor(raw);
      if (rev !== null) return rev;
      ctx.issues.push({
        code: "custom",
        input: raw,
        message: "must be 0 (a full sweep) or a next_cursor returned by GET /cards (it starts with r:)",
      });
      return z.NEVER;
    })
    .optional()
    .describe("0 (default) for a full sweep, or a next_cursor / resume_cursor (r:…)"),
  "invalid_cursor",
);

const typeQuery = withCode(
  z
    .enum(CARD_TYPES, { error: "must be graded or all (default: raw cards only)" })
    .default("raw")
    .describe("raw (default), graded, or all"),
  "invalid_type",
);

// ---- shapes ----

/** A declared value: USD cents, supplied by the tenant (pending identity) or the service (priced). */
export const DeclaredValue = z.object({ amount: int.describe("USD cents"), source: z.enum(["tenant", "service"]) });
export type DeclaredValue = z.output<typeof DeclaredValue>;

/**
 * A warehouse inventory card (raw card or graded slab). `identity` and `pricing` are optional
 * objects on the wire (their absence implies nothing); this service always sends them.
 */
export const WarehouseCard = z.object({
  unique_id: z
    .string()
    .regex(new RegExp(`^${UNIQUE_ID_MARKER}`))
    .max(MAX_UNIQUE_ID),
  type: z.enum(["raw", "graded"]),
  identity: z
    .object({
      status: z.enum(["unconfirmed", "confirmed"]),
      card_id: z.string().nullable(),
      name: z.string().nullable(),
      game: z.string().nullable(),
    })
    .optional()
    .describe("unconfirmed: a pending identity; confirmed: published"),
  pricing: z
    .object({ status: z.enum(["unverified", "unpriced", "priced"]), market_price: usd.nullable() })
    .optional()
    .describe("market_price is null unless priced"),
  insured_price: usd.nullable(),
  declared_value: DeclaredValue.nullable(),
  grading: z
    .object({ company: z.string(), grade: z.string(), cert_number: z.string() })
    .optional()
    .describe("Graded slabs only"),
  location: z.enum(CARD_LOCATIONS),
  site_id: z.string(),
  received_at: instant,
  updated_at: instant,
});
export type WarehouseCard = z.output<typeof WarehouseCard>;

/** A card of the inventory listing: with its status and what holds it. */
export const InventoryCard = WarehouseCard.extend({ status: z.enum(CARD_STATUSES), held_by: z.string().nullable() });
export type InventoryCard = z.output<typeof InventoryCard>;

/** `data` of a sweep page. */
export const CardSweep = z.object({
  cards: z.array(WarehouseCard),
  next_cursor: z
    .string()
    .regex(new RegExp(`^${CURSOR_PREFIX}`))
    .nullable()
    .describe("The next page of this sweep; null at its end"),
  resume_cursor: z
    .string()
    .regex(new RegExp(`^${CURSOR_PREFIX}`))
    .describe("Where a later incremental sweep resumes"),
  has_more: z.boolean(),
});
export type CardSweep = z.output<typeof CardSweep>;

export const WAREHOUSE_CARDS = {
  list: operation({
    id: "warehouse.cards.list",
    method: "GET",
    path: "/cards",
    summary: "Sweep the cards in the vault changed after a keyset cursor (since=0: a full sweep)",
    ...TENANT_ONLY,
    schema: {
      query: z.object({
        offset: withCode(
          z
            .never({
              error:
                "GET /cards pages with the since cursor, not offset (use since=0 for a full sweep; GET /inventory pages by offset)",
            })
            .optional()
            .describe("Not accepted: sweep with since"),
          "invalid_pagination",
        ),
        limit: offsetPageQuery(MAX_PAGE_SIZE).limit,
        since,
        type: typeQuery,
      }),
      responses: {
        200: { description: "Cards in the vault changed after the cursor, oldest change first", data: CardSweep },
        400: {
          description: "offset sent, a bad cursor, type or limit",
          codes: ["invalid_pagination", "invalid_cursor", "invalid_type"],
        },
      },
    },
  }),
  get: operation({
    id: "warehouse.cards.get",
    method: "GET",
    path: "/cards/:unique_id",
    summary: "One card of the tenant, directly under data",
    ...TENANT_ONLY,
    schema: {
      params: uniqueIdParam,
      responses: { 200: { description: "The card, directly under data", data: WarehouseCard }, 404: notFound("card") },
    },
  }),
  inventory: operation({
    id: "warehouse.inventory.list",
    method: "GET",
    path: "/inventory",
    summary: "The cards in the vault by receipt, with status, total and pending_identity",
    ...TENANT_ONLY,
    schema: {
      query: z.object({ ...page, type: typeQuery, status: statusQuery(["AVAILABLE", "RESERVED"]) }),
      responses: {
        200: {
          description:
            "Cards in the vault by receipt, with status; pending_identity overlaps the rows (never add it to total)",
          data: z.object({ cards: z.array(InventoryCard), total: count, pending_identity: count }),
        },
        400: {
          description: "Bad paging, type or status",
          codes: ["invalid_pagination", "invalid_type", "invalid_status"],
        },
      },
    },
  }),
};
