// Small hand-built catalog records for the query-layer tests.
import type {
  Card,
  CardRecord,
  Expansion,
  ExpansionRecord,
  Game,
  LanguageCode,
  SealedProduct,
  SealedRecord,
} from "../../emulator/catalog-data/model.ts";
import { LANGUAGE_NAMES } from "../../emulator/catalog-data/model.ts";

export function expansion(over: Partial<Expansion> = {}): Expansion {
  const language_code = over.language_code ?? "en";
  return {
    id: "sv1",
    name: "Scarlet & Violet",
    total: 258,
    language: LANGUAGE_NAMES[language_code],
    language_code,
    series: "Scarlet & Violet",
    release_date: "2023/03/31",
    ...over,
  };
}

export function card(over: Partial<Card> & { id: string }, extra: Partial<Omit<CardRecord, "card">> = {}): CardRecord {
  const language_code: LanguageCode = over.language_code ?? "en";
  const { id, ...rest } = over;
  const c: Card = {
    id,
    name: "Pikachu",
    number: "1",
    code: id.replace(/-(en|ja|zh)$/, ""),
    images: [],
    expansion: expansion(),
    language: LANGUAGE_NAMES[language_code],
    language_code,
    tcgplayer_id: null,
    variants: [{ name: "normal", images: [] }],
    ...rest,
    market_updated_at: rest.market_updated_at ?? "2026-01-15T00:00:00.000Z",
  };
  return {
    game: extra.game ?? "pokemon",
    card: c,
    is_variant: false,
    is_holo: false,
    is_reverse: false,
    is_first_edition: false,
    ...extra,
  };
}

export function priced(market: number | null): Pick<CardRecord, "pricing"> {
  return { pricing: { currency: "USD", market, is_stale: false, graded: [] } };
}

export function expansionRecord(
  over: Partial<Expansion> & { id: string },
  extra: Partial<Omit<ExpansionRecord, "expansion">> = {},
): ExpansionRecord {
  return {
    game: "pokemon",
    listed: true,
    card_count: { total: 100, official: 90 },
    ...extra,
    expansion: expansion(over),
  };
}

export function sealed(
  over: Partial<SealedProduct> & { id: string },
  extra: Partial<Omit<SealedRecord, "product">> = {},
  game: Game = "pokemon",
): SealedRecord {
  const language_code: LanguageCode = over.language_code ?? "en";
  return {
    game,
    product: {
      name: "Booster Pack",
      expansion: expansion(),
      language: LANGUAGE_NAMES[language_code],
      language_code,
      images: [],
      ...over,
    },
    ...extra,
  };
}
