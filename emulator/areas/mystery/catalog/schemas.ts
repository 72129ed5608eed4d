import { GAMES } from "../../../catalog-data/model.ts";
import { badRequest } from "../../../pipeline/errors.ts";
import { checkIdLength } from "../../../pipeline/identifiers.ts";
import { offsetPageQuery } from "../../../pipeline/pagination.ts";
import { parsePart, z, type RouteSchema } from "../../../pipeline/schema.ts";
import { freshParam } from "../../../pipeline/response-cache.ts";
import { identityOf } from "../identity.ts";
import { tierParam, tokenIdParam } from "../util.ts";

// What the catalog, feed and collection routes take and answer (service-facts
// §4.1–4.2). Fields checked together (price's card_id/token_id, the
// collection's user before its paging) are read by the handler with
// priceTarget / collectionInput, in the order the routes always checked them.

const usdcString = z.string().regex(/^-?\d+\.\d{6}$/).describe('USDC, 6 places ("12.500000")');
const micros = z.string().regex(/^\d+$/).describe("USDC micros");
const isoTime = z.iso.datetime();
const game = z.enum(GAMES);

// --- GET /mystery/catalog ----------------------------------------------------------

/** The mystery tiers' games (Pokémon only today), as the catalog names them; also the feed rows' game. */
const catalogGame = z.strictObject({ id: game, label: z.string() });

// Display metadata is null until a tier has a metadata row, the live reads
// (price, EV, slots, active) null while the pool read is unavailable (SDK Tier).
const tierSchema = z.strictObject({
  tier_id: z.number().int(),
  name: z.string().nullable(),
  slug: z.string().nullable(),
  description: z.string().nullable(),
  variant: z.literal("card").nullable(),
  game: catalogGame.nullable(),
  price_usdc: usdcString.nullable(),
  price_display: z.string().nullable(),
  price_micros: micros.nullable(),
  target_ev_usdc: usdcString.nullable(),
  slot_count: z.number().int().nullable(),
  active: z.boolean().nullable(),
  total_purchases: z.number().int(),
  last_active_at: isoTime.nullable(),
});

export const catalogRoute = {
  query: z.object({
    active: z.string().optional().transform((v) => v ?? null).describe('"true" or "false": only tiers that are (not) on sale'),
    game: z.string().optional().transform((v) => v ?? null).describe("Only this game's tiers (an unknown game is an empty list)"),
    variant: z.string().optional().transform((v) => v ?? null).describe('Only tiers that yield this (every tier yields "card" today)'),
    fresh: freshParam,
  }),
  responses: {
    200: { description: "The tiers on offer", data: z.strictObject({ tiers: z.array(tierSchema), games: z.array(catalogGame) }) },
    400: { description: "fresh is not true or false", codes: ["invalid_value"] },
  },
} satisfies RouteSchema;

// --- GET /mystery/catalog/:tier_id/odds -----------------------------------------------

const onchainOdds = z.strictObject({
  scope: z.literal("onchain"),
  tier_id: z.number().int(),
  currency: z.literal("USDC"),
  tier_price_usdc: usdcString,
  target_ev_usdc: usdcString,
  slot_count: z.number().int(),
  active: z.boolean(),
  rarity_groups: z.array(
    z.strictObject({
      group_id: z.number().int(),
      name: z.string(),
      tier_label: z.string().nullable(),
      color: z.string().nullable(),
      min_price: usdcString.nullable(),
      max_price: usdcString.nullable(),
      avg_price: usdcString.nullable(),
      weight: z.string(),
      probability: z.number(),
      available_count: z.number().int(),
    }),
  ),
  slots: z.array(
    z.strictObject({
      slot_index: z.number().int(),
      slot_type: z.string(),
      min_value_usdc: usdcString,
      max_value_usdc: usdcString,
      groups: z.array(z.strictObject({ group_id: z.number().int(), weight: z.string(), probability: z.number() })),
    }),
  ),
});

/** Without the pool's weights (the chain unreachable): availability-derived, no slots. */
const inventoryOdds = z.strictObject({
  scope: z.literal("inventory_fallback"),
  tier_id: z.number().int(),
  currency: z.literal("USDC"),
  total_available: z.number().int(),
  average_item_value: usdcString,
  rarity_groups: z.array(
    z.strictObject({
      group_id: z.number().int(),
      name: z.string(),
      tier_label: z.string(),
      color: z.string(),
      min_price: usdcString,
      max_price: usdcString,
      avg_price: usdcString,
      available_count: z.number().int(),
      probability: z.number(),
    }),
  ),
});

const oddsSchema = z.discriminatedUnion("scope", [onchainOdds, inventoryOdds]);

export const oddsRoute = {
  params: z.object({ tier_id: z.string().transform((v) => tierParam(v)).meta({ description: "The tier's numeric id" }) }),
  query: z.object({ fresh: freshParam }),
  responses: {
    200: { description: "The tier's odds, per slot and per rarity group", data: oddsSchema },
    400: { description: "Not a tier id, or no such tier; fresh not true or false", codes: ["invalid_tier", "identifier_too_long", "invalid_value"] },
  },
} satisfies RouteSchema;

// --- GET /mystery/price -----------------------------------------------------------------

const pricedItemType = z.enum(["CARD", "GRADED_CARD"]);

const priceSchema = z.strictObject({
  card_id: z.string(),
  token_id: z.string().nullable(),
  item_type: pricedItemType,
  market_value_usdc: usdcString,
  buyback_price_usdc: usdcString,
  value_source: z.enum(["graded_market_price", "buyback_oracle", "card_raw_price"]),
  updated_at: z.string().nullable(),
});

/** The one of card_id / token_id a price query names (checked together, so by the handler). */
export function priceTarget(q: { card_id?: string; token_id?: string }): { token_id: string } | { card_id: string } {
  const cardId = q.card_id ?? "";
  const tokenId = q.token_id ?? "";
  if ((cardId === "") === (tokenId === "")) throw badRequest("invalid_price_query", "Send exactly one of card_id or token_id");
  if (tokenId) {
    // Checked before the chain is asked: viem throws on values past uint256.
    const id = tokenIdParam(tokenId, "token_id");
    if (id === null) throw badRequest("invalid_price_query", `token_id must be a token id: a uint256 in plain decimal (got "${tokenId.slice(0, 80)}")`);
    return { token_id: id };
  }
  checkIdLength(cardId, "card_id");
  return { card_id: cardId };
}

export const priceRoute = {
  query: z.object({
    card_id: z.string().optional().describe("A catalog card id (exactly one of card_id and token_id)"),
    token_id: z.string().optional().describe("A token id: uint256 in plain decimal"),
    item_type: z
      .string()
      .optional()
      .transform((v): "CARD" | "GRADED_CARD" | null => {
        if (v === undefined || v === "") return null;
        if (v === "CARD" || v === "GRADED_CARD") return v;
        throw badRequest("invalid_price_query", `item_type must be CARD or GRADED_CARD (got "${v.slice(0, 80)}")`);
      })
      .meta({ type: "string", enum: ["CARD", "GRADED_CARD"], description: "Price the item as this kind (a token that is not of this kind is 404)" }),
    fresh: freshParam,
  }),
  responses: {
    200: { description: "The market value and would-be buyback price (cached ~60 s)", data: priceSchema },
    400: { description: "Not exactly one valid card_id or token_id; fresh not true or false", codes: ["invalid_price_query", "identifier_too_long", "invalid_value"] },
    404: { description: "No such card or token, or no value for it", codes: ["not_found", "value_unknown"] },
  },
} satisfies RouteSchema;

// --- GET /mystery/stats -------------------------------------------------------------------

const statsSchema = z.strictObject({
  partner_slug: z.string().nullable(),
  currency: z.literal("USDC"),
  total_purchases: z.number().int(),
  fulfilled: z.number().int(),
  refunded: z.number().int(),
  failed: z.number().int(),
  total_volume: micros,
  total_volume_usdc: usdcString,
  by_tier: z.array(z.strictObject({ tier_id: z.number().int(), pulls: z.number().int(), volume: micros, volume_usdc: usdcString })),
  buyback: z.strictObject({ offers: z.number().int(), accepted: z.number().int(), offered_volume_usdc: usdcString, accepted_volume_usdc: usdcString }),
});

export const statsRoute = { responses: { 200: { description: "The account's purchase and buyback figures", data: statsSchema } } } satisfies RouteSchema;

// --- feeds ------------------------------------------------------------------------------------

const feedRowSchema = z.strictObject({
  token_id: z.string(),
  item_type: z.string(),
  card_name: z.string().nullable(),
  card_image_url: z.string().nullable(),
  card_price_usdc: usdcString.nullable(),
  tier_id: z.number().int(),
  revealed_at: isoTime,
  /** The tier's game; null for a tier without metadata. */
  game: catalogGame.nullable(),
});

export const feedRoute = {
  query: z.object({
    // Read first, as it always was (before the paging).
    scope: z
      .string()
      .optional()
      .transform((v): "all" | "mine" => {
        if (v === undefined || v === "" || v === "all") return "all";
        if (v === "mine") return "mine";
        throw badRequest("invalid_value", 'scope must be "mine" (or omitted for every partner\'s reveals)');
      })
      .meta({ description: '"mine": only this account\'s reveals (default: every partner\'s)' }),
    ...offsetPageQuery(),
    game: z.string().optional().transform((v) => v ?? null).describe("Only this game's reveals"),
    fresh: freshParam,
  }),
  responses: {
    200: { description: "Revealed items", data: z.strictObject({ items: z.array(feedRowSchema) }) },
    400: { description: "Invalid scope or paging", codes: ["invalid_value", "invalid_pagination"] },
  },
} satisfies RouteSchema;

// --- GET /mystery/collection ----------------------------------------------------------------------

const collectionItemSchema = z.strictObject({
  token_id: z.string(),
  item_type: z.string(),
  category: z.enum(["card", "product", "unknown"]),
  card_id: z.string().nullable(),
  name: z.string().nullable(),
  image_url: z.string().nullable(),
  value_usd: z.string().nullable(),
  rarity: z.string().nullable(),
  card_number: z.string().nullable(),
  set_id: z.string().nullable(),
  purchase_id: z.number().int(),
  tier_id: z.number().int(),
  acquired_at: isoTime,
  still_owned: z.boolean().nullable(),
});

const pageQuery = z.object(offsetPageQuery());

/** The collection's user, then its page: the user is checked first, as it always was (so by the handler). */
export function collectionInput(q: { external_user_id?: string; wallet_address?: string; limit?: string; offset?: string }) {
  return { who: identityOf(q), page: parsePart("query", pageQuery, { limit: q.limit, offset: q.offset }) };
}

export const collectionRoute = {
  query: z.object({
    external_user_id: z.string().optional().describe("The end user (this and/or wallet_address)"),
    wallet_address: z.string().optional().describe("The end user's wallet"),
    limit: z.string().optional().describe("Page size (default 50, at most 100)"),
    offset: z.string().optional().describe("Rows to skip (default 0)"),
  }),
  responses: {
    200: {
      description: "The user's revealed items, newest first",
      data: z.strictObject({
        user: z.strictObject({ external_user_id: z.string().nullable(), wallet_address: z.string().nullable() }),
        items: z.array(collectionItemSchema),
      }),
    },
    400: { description: "No or invalid user, or invalid paging", codes: ["missing_user_identifier", "invalid_wallet_address", "invalid_value", "identifier_too_long", "invalid_pagination"] },
  },
} satisfies RouteSchema;
