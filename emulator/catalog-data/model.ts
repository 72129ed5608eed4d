// Catalog records in the live service's shapes (service-facts §3.5).
// Card Data money is a JSON number; absent values are omitted, except the
// always-present nullable fields (`tcgplayer_id`, `pricing.market`, sealed
// `market`, graded `low`/`high`).

export const GAMES = ["pokemon", "onepiece", "azuki"] as const;
export type Game = (typeof GAMES)[number];

export const LANGUAGES = ["en", "ja", "zh", "zh-Hans", "zh-Hant"] as const;
export type LanguageCode = (typeof LANGUAGES)[number];

/** Languages printed per game (service-facts §3.1). */
export const GAME_LANGUAGES: Record<Game, LanguageCode[]> = {
  pokemon: ["en", "ja", "zh"],
  onepiece: ["en", "ja"],
  azuki: ["en"],
};

export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  en: "English",
  ja: "Japanese",
  zh: "Chinese",
  "zh-Hans": "Chinese (Simplified)",
  "zh-Hant": "Chinese (Traditional)",
};

export interface CardImage {
  type: "front";
  small: string;
  medium: string;
  large: string;
}

export interface Expansion {
  id: string;
  name: string;
  total: number;
  language: string;
  language_code: LanguageCode;
  series?: string;
  code?: string;
  printed_total?: number;
  /** `YYYY/MM/DD` */
  release_date?: string;
  logo?: string;
  symbol?: string;
  translation?: { en: { name: string } };
}

/** Internal expansion row: the wire object plus what search and listing need. */
export interface ExpansionRecord {
  game: Game;
  /** Unlisted sets (promo/tin/UPC) 404 on the expansion routes but stay inline on cards. */
  listed: boolean;
  series_id?: string;
  card_count: { total: number; official: number };
  expansion: Expansion;
}

export interface Trend {
  direction: "up" | "down" | "flat";
  percent: number;
}

export type Condition = "NM" | "LP" | "MP" | "HP" | "DMG";

export interface GradedPrice {
  company: string;
  grade: string;
  value: number;
  low: number | null;
  high: number | null;
  confidence: "low" | "med" | "high";
  value_kind: "sold" | "blended" | "feed";
  sold_count: number;
  trend?: Trend;
  /** prices route only */
  last_sold_at?: string;
  /** prices route only */
  band?: { median: number | null; recent_median: number | null; p10: number | null; p90: number | null; count: number };
}

export interface CardPricing {
  currency: "USD";
  market: number | null;
  market_updated_at?: string;
  is_stale: boolean;
  trend_7d?: Trend;
  conditions?: { condition: Condition; price: number }[];
  graded: GradedPrice[];
}

export interface Ability {
  type: string;
  name: string;
  text: string;
}
export interface Attack {
  cost: string[];
  converted_energy_cost: number;
  name: string;
  text?: string;
  damage?: string;
}
export interface TypeValue {
  type: string;
  value: string;
}

/** A catalog card as returned on the wire (without `pricing`, which is attached on read). */
export interface Card {
  id: string;
  name: string;
  number: string;
  printed_number?: string;
  /** Family code shared by every printing/language of the same card (drives `distinct=code` and printings). */
  code: string;
  images: CardImage[];
  expansion: Expansion;
  language: string;
  language_code: LanguageCode;
  /** TCGplayer product id, a string of digits (the SDK's type). */
  tcgplayer_id: string | null;
  variants: { name: string; images: CardImage[] }[];
  rarity?: string;
  artist?: string;
  // Pokémon
  supertype?: string;
  subtypes?: string[];
  types?: string[];
  hp?: string;
  abilities?: Ability[];
  attacks?: Attack[];
  weaknesses?: TypeValue[];
  resistances?: TypeValue[];
  // One Piece
  type?: string;
  // Stats are strings of digits on the wire ("5000"), as the SDK types them.
  cost?: string;
  power?: string;
  attribute?: string;
  colors?: string[];
  rules?: string[];
  block?: string;
  counter?: string;
  life?: string;
  /**
   * ISO-8601 UTC: when the service last refreshed this card's market data (interface
   * "Catalog records"). Always present; equal to `pricing.market_updated_at` when the
   * pricing has one.
   */
  market_updated_at: string;
}

/** Internal card row: the wire card plus search-only flags. */
export interface CardRecord {
  game: Game;
  card: Card;
  is_variant: boolean;
  is_holo: boolean;
  is_reverse: boolean;
  is_first_edition: boolean;
  /** Pricing, or undefined when the card has no price data at all. */
  pricing?: CardPricing;
}

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

export interface SealedPricing {
  currency: "USD";
  market: number | null;
  updated_at?: string;
  is_on_sale: boolean;
  sale_price?: number;
  trend_7d?: Trend;
  /** prices route only: one rung, `sealed` */
  conditions?: { condition: "sealed"; price: number }[];
  /** prices route only, capped */
  history?: { date: string; price: number; source: string }[];
}

export interface SealedProduct {
  id: string;
  name: string;
  expansion: Expansion;
  language: string;
  language_code: LanguageCode;
  images: CardImage[];
  product_type?: SealedProductType;
  release_date?: string;
  /** MSRP-priced products only (Azuki) */
  msrp?: number;
  pack_count?: number;
  cards_per_pack?: number;
  tcgplayer_id?: string;
}

export interface SealedRecord {
  game: Game;
  product: SealedProduct;
  pricing?: SealedPricing;
}

/** A graded certificate (PSA/BGS/CGC …) linked to a catalog card. */
export interface GradedCert {
  provider: string;
  cert_number: string;
  card_id: string;
  game: Game;
  grade: string;
  grade_label: string;
  graded_at: string;
  population: number;
  population_higher: number;
}

export interface Catalog {
  seed: number;
  size: "default" | "large";
  expansions: ExpansionRecord[];
  cards: CardRecord[];
  sealed: SealedRecord[];
  certs: GradedCert[];
}
