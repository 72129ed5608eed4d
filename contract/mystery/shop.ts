import { GAMES } from "../games.ts";
import { operation, partnerScoped } from "../operation.ts";
import { offsetPageQuery } from "../paging.ts";
import { tokenIdText } from "../input-fields.ts";
import { identifier, MAX_IDENTIFIER, withCode, z, type IssueParams } from "../zod.ts";
import { isoTime, micros, USER_CODES, usdcString, userPageQuery } from "./fields.ts";

// The mystery shop's reads (the wire's /mystery/catalog routes, docs/mystery.md): tiers, odds, the would-be
// buyback price, partner stats, the reveal feeds and an end user's collection,
// as the official SDK types them (Tier, TierOdds, PriceQuote, PartnerStats,
// FeedRow, CollectionItem). Fields checked together (price's card_id/token_id,
// the collection's user before its paging) are rules of the handler.

/** `fresh` of the cached reads (sent as `String(boolean)`): recompute instead of the short response cache (docs/mystery.md). */
export const freshQuery = z
  .enum(["true", "false", "1", "0"], { error: 'fresh must be "true" or "false"' })
  .optional()
  .describe(
    '"true": recompute instead of the short response cache (budget: 10 calls per minute per key, then 429 rate_limited)',
  );

const game = z.enum(GAMES);

/** A mystery tier's game (Pokémon only today), as the catalog names it; also the feed rows' game. */
export const GachaGameRef = z.strictObject({ id: game, label: z.string() });
export type GachaGameRef = z.output<typeof GachaGameRef>;

// Display metadata is null until a tier has a metadata row, the live reads
// (price, EV, slots, active) null while the pool read is unavailable.
export const Tier = z.strictObject({
  tier_id: z.number().int(),
  name: z.string().nullable(),
  slug: z.string().nullable(),
  description: z.string().nullable(),
  variant: z.literal("card").nullable(),
  game: GachaGameRef.nullable(),
  price_usdc: usdcString.nullable(),
  price_display: z.string().nullable(),
  price_micros: micros.nullable(),
  target_ev_usdc: usdcString.nullable(),
  slot_count: z.number().int().nullable(),
  active: z.boolean().nullable(),
  total_purchases: z.number().int(),
  last_active_at: isoTime.nullable(),
});
export type Tier = z.output<typeof Tier>;

/** The shop listing (`GET /mystery/catalog`); its name is the answer's OpenAPI component, as published. */
export const TierCatalog = z.strictObject({ tiers: z.array(Tier), games: z.array(GachaGameRef) });
export type TierCatalog = z.output<typeof TierCatalog>;

/** The odds the pool's own weights govern, per rarity group and per slot. */
export const OnchainOdds = z.strictObject({
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
export type OnchainOdds = z.output<typeof OnchainOdds>;

/** Without the pool's weights (the chain unreachable): availability-derived, no slots. */
export const InventoryOdds = z.strictObject({
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
export type InventoryOdds = z.output<typeof InventoryOdds>;

export const TierOdds = z.discriminatedUnion("scope", [OnchainOdds, InventoryOdds]);
export type TierOdds = z.output<typeof TierOdds>;

export const PRICED_ITEM_TYPES = ["CARD", "GRADED_CARD"] as const;
export type PricedItemType = (typeof PRICED_ITEM_TYPES)[number];

export const PriceQuote = z.strictObject({
  card_id: z.string(),
  token_id: z.string().nullable(),
  item_type: z.enum(PRICED_ITEM_TYPES),
  market_value_usdc: usdcString,
  buyback_price_usdc: usdcString,
  value_source: z.enum(["graded_market_price", "buyback_oracle", "card_raw_price"]),
  updated_at: z.string().nullable(),
});
export type PriceQuote = z.output<typeof PriceQuote>;

export const PartnerStats = z.strictObject({
  partner_slug: z.string().nullable(),
  currency: z.literal("USDC"),
  total_purchases: z.number().int(),
  fulfilled: z.number().int(),
  refunded: z.number().int(),
  failed: z.number().int(),
  total_volume: micros,
  total_volume_usdc: usdcString,
  by_tier: z.array(
    z.strictObject({ tier_id: z.number().int(), pulls: z.number().int(), volume: micros, volume_usdc: usdcString }),
  ),
  buyback: z.strictObject({
    offers: z.number().int(),
    accepted: z.number().int(),
    offered_volume_usdc: usdcString,
    accepted_volume_usdc: usdcString,
  }),
});
export type PartnerStats = z.output<typeof PartnerStats>;

export const FeedRow = z.strictObject({
  token_id: z.string(),
  item_type: z.string(),
  card_name: z.string().nullable(),
  card_image_url: z.string().nullable(),
  card_price_usdc: usdcString.nullable(),
  tier_id: z.number().int(),
  revealed_at: isoTime,
  /** The tier's game; null for a tier without metadata. */
  game: GachaGameRef.nullable(),
});
export type FeedRow = z.output<typeof FeedRow>;

export const CollectionItem = z.strictObject({
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
export type CollectionItem = z.output<typeof CollectionItem>;

export const CollectionUser = z.strictObject({
  external_user_id: z.string().nullable(),
  wallet_address: z.string().nullable(),
});
export type CollectionUser = z.output<typeof CollectionUser>;

// --- requests ---------------------------------------------------------------------

/** A tier id in a path: a positive integer (over 255 characters identifier_too_long). */
const tierIdParam = withCode(
  identifier()
    .meta({ pattern: "^[1-9]\\d{0,15}$" })
    // Its length first (identifier_too_long), then the digits.
    .pipe(z.string().regex(/^[1-9]\d{0,15}$/, "must be the numeric id of a tier (see GET /mystery/catalog)"))
    .transform(Number)
    .refine(Number.isSafeInteger, "must be the numeric id of a tier (see GET /mystery/catalog)")
    .meta({ description: "The tier's numeric id" }),
  "invalid_tier",
);

const feedQuery = z.object({
  scope: withCode(
    z
      .enum(["all", "mine", ""])
      .optional()
      .transform((v): "all" | "mine" => (v === "mine" ? "mine" : "all"))
      .meta({ description: "\"mine\": only this account's reveals (default: every partner's)" }),
    "invalid_value",
  ),
  ...offsetPageQuery(),
  game: z
    .string()
    .optional()
    .transform((v) => v ?? null)
    .describe("Only this game's reveals"),
  fresh: freshQuery,
});

/** A price query names exactly one of card_id and token_id (a token id a uint256 in plain decimal), checked after its fields. */
function exactlyOneTarget(q: { card_id?: string | undefined; token_id?: string | undefined }, ctx: z.RefinementCtx) {
  const card = q.card_id ?? "";
  const token = q.token_id ?? "";
  const fail = (path: string[], message: string, code: string) =>
    ctx.addIssue({ code: "custom", input: q, path, message, params: { code } satisfies IssueParams });
  if ((card === "") === (token === "")) fail([], "Send exactly one of card_id or token_id", "invalid_price_query");
  else if (token.length > MAX_IDENTIFIER || card.length > MAX_IDENTIFIER)
    fail(
      [token ? "token_id" : "card_id"],
      `is ${(token || card).length} characters; identifiers are at most ${MAX_IDENTIFIER}`,
      "identifier_too_long",
    );
  // Checked before the chain is asked: viem throws on values past uint256.
  else if (token && tokenIdText(token) === null)
    fail(
      ["token_id"],
      `must be a token id: a uint256 in plain decimal (got "${token.slice(0, 80)}")`,
      "invalid_price_query",
    );
}

const read = partnerScoped("read:catalog");
const packsRead = partnerScoped("packs:read");
const badFresh = "fresh not true or false";

const feed = (which: "recent" | "winners") =>
  operation({
    id: `gacha.feed.${which}`,
    method: "GET",
    path: `/mystery/feed/${which}`,
    summary:
      which === "recent"
        ? "Most recently revealed items across the pool, newest first (with scope=mine, only this key's reveals: gacha.feed.mine)"
        : "Revealed items ordered by value, biggest wins first",
    ...read,
    schema: {
      query: feedQuery,
      responses: {
        200: { description: "Revealed items", data: z.strictObject({ items: z.array(FeedRow) }) },
        400: { description: "Invalid scope or paging", codes: ["invalid_value", "invalid_pagination"] },
      },
    },
  });

export const MYSTERY_SHOP = {
  catalog: operation({
    id: "gacha.catalog",
    method: "GET",
    path: "/mystery/catalog",
    summary: "The mystery-pack tiers on offer, with the games they cover (gacha.games reads the same call's games)",
    ...read,
    schema: {
      query: z.object({
        active: z
          .string()
          .optional()
          .transform((v) => v ?? null)
          .describe('"true" or "false": only tiers that are (not) on sale'),
        game: z
          .string()
          .optional()
          .transform((v) => v ?? null)
          .describe("Only this game's tiers (an unknown game is an empty list)"),
        variant: z
          .string()
          .optional()
          .transform((v) => v ?? null)
          .describe('Only tiers that yield this (every tier yields "card" today)'),
        fresh: freshQuery,
      }),
      responses: {
        200: { description: "The tiers on offer", data: TierCatalog },
        400: { description: "fresh is not true or false", codes: ["invalid_value"] },
      },
    },
  }),
  odds: operation({
    id: "gacha.odds",
    method: "GET",
    path: "/mystery/catalog/:tier_id/odds",
    summary: "One tier's odds per rarity group and per slot (inventory_fallback while the chain is unreachable)",
    ...read,
    schema: {
      params: z.object({ tier_id: tierIdParam }),
      query: z.object({ fresh: freshQuery }),
      responses: {
        200: { description: "The tier's odds, per slot and per rarity group", data: TierOdds },
        400: {
          description: `Not a tier id, or no such tier; ${badFresh}`,
          codes: ["invalid_tier", "identifier_too_long", "invalid_value"],
        },
      },
    },
  }),
  price: operation({
    id: "gacha.price",
    method: "GET",
    path: "/mystery/price",
    summary: "A card's or token's market value and what the pool would pay to buy it back",
    ...read,
    schema: {
      query: z
        .object({
          card_id: z.string().optional().describe("A catalog card id (exactly one of card_id and token_id)"),
          token_id: z.string().optional().describe("A token id: uint256 in plain decimal"),
          item_type: withCode(
            z
              .enum([...PRICED_ITEM_TYPES, ""])
              .optional()
              .transform((v): PricedItemType | null => v || null)
              .meta({
                type: "string",
                enum: [...PRICED_ITEM_TYPES],
                description: "Price the item as this kind (a token that is not of this kind is 404)",
              }),
            "invalid_price_query",
          ),
          fresh: freshQuery,
        })
        .superRefine(exactlyOneTarget),
      responses: {
        200: { description: "The market value and would-be buyback price (cached ~60 s)", data: PriceQuote },
        400: {
          description: `Not exactly one valid card_id or token_id; ${badFresh}`,
          codes: ["invalid_price_query", "identifier_too_long", "invalid_value"],
        },
        404: { description: "No such card or token, or no value for it", codes: ["not_found", "value_unknown"] },
      },
    },
  }),
  stats: operation({
    id: "gacha.stats",
    method: "GET",
    path: "/mystery/stats",
    summary: "This account's pulls by outcome, volume overall and per tier, and buyback activity",
    ...packsRead,
    schema: { responses: { 200: { description: "The account's purchase and buyback figures", data: PartnerStats } } },
  }),
  feedRecent: feed("recent"),
  feedWinners: feed("winners"),
  collection: operation({
    id: "gacha.collection",
    method: "GET",
    path: "/mystery/collection",
    summary: "Everything delivered to one end user through this account's purchases, newest first",
    ...packsRead,
    schema: {
      // The user is checked before the paging, so both are read by the handler.
      query: userPageQuery,
      responses: {
        200: {
          description: "The user's revealed items, newest first",
          data: z.strictObject({ user: CollectionUser, items: z.array(CollectionItem) }),
        },
        400: { description: "No or invalid user, or invalid paging", codes: [...USER_CODES, "invalid_pagination"] },
      },
    },
  }),
};
