import { GAMES } from "../games.ts";
import { z } from "../zod.ts";
import { isoTime as isoInstant } from "../primitives.ts";

// The Card Data records as the service sends them (README "Card Data catalog",
// docs/decisions.md "Card Data"), named as
// the official SDK names them (Card, Expansion, SealedProduct, CardPricing …).
// Card Data money is a JSON number; absent values are omitted, except the
// always-present nullable fields (`tcgplayer_id`, `pricing.market`, graded
// `low`/`high`).

/** Catalog language codes, as `language_code` and the `language=` filter spell them. */
export const LANGUAGES = ["en", "ja", "zh", "zh-Hans", "zh-Hant"] as const;
export type LanguageCode = (typeof LANGUAGES)[number];

/** The `language` field beside `language_code`: the language's name. */
export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  en: "English",
  ja: "Japanese",
  zh: "Chinese",
  "zh-Hans": "Chinese (Simplified)",
  "zh-Hant": "Chinese (Traditional)",
};

/** A sealed product's `product_type` (and the sealed search's `product_type=` filter). */
export const SEALED_PRODUCT_TYPES = [
  "booster_pack",
  "sleeved_pack",
  "booster_box",
  "booster_pack_case",
  "bundle",
  "pack_art_bundle",
  "blister_pack",
  "three_pack_blister_pack",
  "elite_trainer_box",
  "ultra_premium_collection",
  "collection_box",
  "special_box",
  "tin",
  "other",
] as const;
export type SealedProductType = (typeof SEALED_PRODUCT_TYPES)[number];

/** Raw card conditions of `pricing.conditions`, best first. */
export const CONDITIONS = ["NM", "LP", "MP", "HP", "DMG"] as const;
export type Condition = (typeof CONDITIONS)[number];

const int = z.number().int();
const isoTime = isoInstant.describe("ISO-8601 UTC");
const slashDate = z
  .string()
  .regex(/^\d{4}\/\d{2}\/\d{2}$/)
  .describe("`YYYY/MM/DD`");
const languageCode = z.enum(LANGUAGES);
const languageName = z.string().describe('The language\'s name ("English")');

export const CardImage = z.strictObject({ type: z.literal("front"), small: z.url(), medium: z.url(), large: z.url() });
export type CardImage = z.output<typeof CardImage>;

export const Expansion = z.strictObject({
  id: z.string(),
  name: z.string(),
  total: int,
  language: languageName,
  language_code: languageCode,
  series: z.string().optional(),
  code: z.string().optional(),
  printed_total: int.optional(),
  release_date: slashDate.optional(),
  logo: z.url().optional(),
  symbol: z.url().optional(),
  translation: z
    .strictObject({ en: z.strictObject({ name: z.string() }) })
    .optional()
    .describe("The English name of a non-English set"),
});
export type Expansion = z.output<typeof Expansion>;

export const PriceTrend = z.strictObject({ direction: z.enum(["up", "down", "flat"]), percent: z.number() });
export type PriceTrend = z.output<typeof PriceTrend>;
export const CardTypeValue = z.strictObject({ type: z.string(), value: z.string() });
export type CardTypeValue = z.output<typeof CardTypeValue>;
export const CardAbility = z.strictObject({ type: z.string(), name: z.string(), text: z.string() });
export type CardAbility = z.output<typeof CardAbility>;
export const CardAttack = z.strictObject({
  cost: z.array(z.string()),
  converted_energy_cost: int,
  name: z.string(),
  text: z.string().optional(),
  damage: z.string().optional(),
});
export type CardAttack = z.output<typeof CardAttack>;

const POKEMON = "Pokémon only";
/** One Piece stats are strings of digits on the wire ("5000"); q ranges and orderBy read them as numbers. */
const opStat = z.string();

/** A catalog card without `pricing`: every game's fields, each optional where a game lacks it (a certificate's `card`). */
export const CardBase = z.strictObject({
  id: z.string(),
  name: z.string(),
  number: z.string(),
  printed_number: z.string().optional(),
  code: z.string().describe("Shared by every printing and language of the same card (distinct=code, printings)"),
  images: z.array(CardImage),
  expansion: Expansion,
  language: languageName,
  language_code: languageCode,
  tcgplayer_id: z.string().nullable().describe("TCGplayer product id (digits), null when there is none"),
  variants: z.array(z.strictObject({ name: z.string(), images: z.array(CardImage) })),
  rarity: z.string().optional(),
  artist: z.string().optional(),
  supertype: z.string().optional().describe(POKEMON),
  subtypes: z.array(z.string()).optional().describe(POKEMON),
  types: z.array(z.string()).optional().describe(POKEMON),
  hp: z.string().optional().describe(POKEMON),
  abilities: z.array(CardAbility).optional().describe(POKEMON),
  attacks: z.array(CardAttack).optional().describe(POKEMON),
  weaknesses: z.array(CardTypeValue).optional().describe(POKEMON),
  resistances: z.array(CardTypeValue).optional().describe(POKEMON),
  type: z.string().optional().describe("One Piece (Leader, Character, Event, Stage, DON!!) and Azuki"),
  cost: opStat.optional().describe("One Piece only: play cost"),
  power: opStat.optional().describe("One Piece only: battle power"),
  attribute: z.string().optional().describe("One Piece only"),
  colors: z.array(z.string()).optional().describe("One Piece and Azuki"),
  rules: z.array(z.string()).optional().describe("Rule texts (One Piece; Pokémon trainers and special cards)"),
  block: z.string().optional().describe("One Piece only (1–5 or X)"),
  counter: opStat.optional().describe("One Piece only: printed Counter value"),
  life: opStat.optional().describe("One Piece only: a Leader's Life"),
  market_updated_at: isoTime.describe(
    "When the service last refreshed the card's market data (equals pricing.market_updated_at when that is present)",
  ),
});
export type CardBase = z.output<typeof CardBase>;

export const CardGradedBand = z.strictObject({
  median: z.number().nullable(),
  recent_median: z.number().nullable(),
  p10: z.number().nullable(),
  p90: z.number().nullable(),
  count: int,
});
export const CardGradedPrice = z.strictObject({
  company: z.string(),
  grade: z.string(),
  value: z.number(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  confidence: z.enum(["low", "med", "high"]),
  value_kind: z.enum(["sold", "blended", "feed"]),
  sold_count: int,
  trend: PriceTrend.optional(),
  last_sold_at: isoTime.optional().describe("The prices route only (never with include=prices)"),
  band: CardGradedBand.optional().describe("The prices route only (never with include=prices)"),
});
export type CardGradedPrice = z.output<typeof CardGradedPrice>;

/**
 * One pricing shape for both answers (the SDK types one CardPricing): `include=prices` is always present
 * (`market: null` and empty lists without data) and leaves out graded band/last_sold_at; the prices route
 * returns strictly more.
 */
export const CardPricing = z.strictObject({
  currency: z.literal("USD"),
  market: z.number().nullable(),
  market_updated_at: isoTime.optional(),
  is_stale: z.boolean(),
  trend_7d: PriceTrend.optional(),
  conditions: z.array(z.strictObject({ condition: z.enum(CONDITIONS), price: z.number() })),
  graded: z.array(CardGradedPrice),
});
export type CardPricing = z.output<typeof CardPricing>;

export const SealedPricePoint = z.strictObject({ date: z.iso.date(), price: z.number(), source: z.string() });
/** One shape for both answers (the SDK types one SealedPricing): conditions and history come from the prices route only. */
export const SealedPricing = z.strictObject({
  currency: z.literal("USD"),
  market: z.number().nullable(),
  updated_at: isoTime.optional(),
  is_on_sale: z.boolean(),
  sale_price: z.number().optional(),
  trend_7d: PriceTrend.optional(),
  conditions: z
    .array(z.strictObject({ condition: z.literal("sealed"), price: z.number() }))
    .optional()
    .describe("The prices route only"),
  history: z.array(SealedPricePoint).optional().describe("The prices route only: the only sealed time series (capped)"),
});
export type SealedPricing = z.output<typeof SealedPricing>;

/** A sealed product without `pricing`. */
export const SealedProductBase = z.strictObject({
  id: z.string(),
  name: z.string(),
  expansion: Expansion,
  language: languageName,
  language_code: languageCode,
  images: z.array(CardImage),
  product_type: z.enum(SEALED_PRODUCT_TYPES).optional(),
  release_date: slashDate.optional().describe("The expansion's"),
  msrp: z.number().optional().describe("MSRP-priced products only (Azuki)"),
  pack_count: int.optional(),
  cards_per_pack: int.optional(),
  tcgplayer_id: z.string().optional().describe("TCGplayer product id (digits), when there is one"),
});
export type SealedProductBase = z.output<typeof SealedProductBase>;

// pricing: typed nullable by the SDK; the emulator always sends the object with include=prices.
const WITH_PRICES = "With include=prices (then always an object; null is never sent)";
/** A card as the card routes answer it: `pricing` with include=prices. */
export const Card = CardBase.extend({ pricing: CardPricing.nullable().optional().describe(WITH_PRICES) });
export type Card = z.output<typeof Card>;
export const SealedProduct = SealedProductBase.extend({
  pricing: SealedPricing.nullable().optional().describe(WITH_PRICES),
});
export type SealedProduct = z.output<typeof SealedProduct>;

/** GET …/cards/:id/prices. */
export const CardPrices = z.strictObject({ card_id: z.string(), pricing: CardPricing });
export type CardPrices = z.output<typeof CardPrices>;
/** GET …/sealed/:id/prices. */
export const SealedPrices = z.strictObject({ product_id: z.string(), pricing: SealedPricing });
export type SealedPrices = z.output<typeof SealedPrices>;

/** A graded certificate (PSA, BGS, CGC …) and the catalog card it grades. */
export const GradedCert = z.strictObject({
  provider: z.string().describe("Upper case (PSA, BGS, CGC …)"),
  cert_number: z.string(),
  grade: z.string(),
  grade_label: z.string(),
  graded_at: isoTime,
  population: int,
  population_higher: int,
  game: z.enum(GAMES),
  card_id: z.string(),
  card: CardBase.optional().describe("The graded card, when it is in the catalog"),
});
export type GradedCert = z.output<typeof GradedCert>;

/** One result of the batch lookup per requested certificate, found or not. */
export const GradedCertResult = z.discriminatedUnion("found", [
  z.strictObject({ provider: z.string(), cert_number: z.string(), found: z.literal(true), cert: GradedCert }),
  z.strictObject({ provider: z.string(), cert_number: z.string(), found: z.literal(false) }),
]);
export type GradedCertResult = z.output<typeof GradedCertResult>;
export const GradedCertBatch = z.strictObject({ results: z.array(GradedCertResult), found: int, not_found: int });
export type GradedCertBatch = z.output<typeof GradedCertBatch>;
