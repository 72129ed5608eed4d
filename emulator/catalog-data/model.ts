// Catalog records: the wire shapes of contract/catalog/shapes.ts and the rows
// the catalog keeps around them (search flags, listing, stored pricing).

import type {
  CardAttack,
  CardBase,
  CardGradedPrice,
  CardImage as WireCardImage,
  CardPricing as WireCardPricing,
  CardTypeValue,
  Expansion as WireExpansion,
  GradedCert as WireGradedCert,
  LanguageCode,
  PriceTrend,
  SealedPricing as WireSealedPricing,
  SealedProductBase,
  Game,
} from "../../contract/index.ts";

export { GAMES, LANGUAGES, LANGUAGE_NAMES, SEALED_PRODUCT_TYPES, CONDITIONS } from "../../contract/index.ts";
export type { Game, LanguageCode, SealedProductType, Condition } from "../../contract/index.ts";

/** Languages printed per game. */
export const GAME_LANGUAGES: Record<Game, LanguageCode[]> = {
  pokemon: ["en", "ja", "zh"],
  onepiece: ["en", "ja"],
  azuki: ["en"],
};

export type CardImage = WireCardImage;
export type Expansion = WireExpansion;

/** Internal expansion row: the wire object plus what search and listing need. */
export interface ExpansionRecord {
  game: Game;
  /** Unlisted sets (promo/tin/UPC) 404 on the expansion routes but stay inline on cards. */
  listed: boolean;
  series_id?: string;
  card_count: { total: number; official: number };
  expansion: Expansion;
}

export type Trend = PriceTrend;
export type GradedPrice = CardGradedPrice;
/** A card's stored pricing: the wire's, its `conditions` absent without data (the answers send `[]`). */
export type CardPricing = Omit<WireCardPricing, "conditions"> & { conditions?: WireCardPricing["conditions"] };
export type Attack = CardAttack;
export type TypeValue = CardTypeValue;
/** A catalog card as returned on the wire (without `pricing`, which is attached on read). */
export type Card = CardBase;

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

export type SealedPricing = WireSealedPricing;
export type SealedProduct = SealedProductBase;

export interface SealedRecord {
  game: Game;
  product: SealedProduct;
  pricing?: SealedPricing;
}

/** A graded certificate (PSA/BGS/CGC …) linked to a catalog card: the wire's without the card. */
export type GradedCert = Omit<WireGradedCert, "card">;

export interface Catalog {
  seed: number;
  size: "default" | "large";
  expansions: ExpansionRecord[];
  cards: CardRecord[];
  sealed: SealedRecord[];
  certs: GradedCert[];
}
