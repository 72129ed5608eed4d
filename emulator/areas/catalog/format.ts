import type { CardPricing, CardRecord, GradedCert, SealedPricing, SealedRecord } from "../../catalog-data/model.ts";
import type {
  Card,
  CardPricing as WireCardPricing,
  GradedCert as WireGradedCert,
  SealedPricing as WireSealedPricing,
  SealedProduct,
} from "../../../contract/index.ts";

// Wire formatters. `include=prices` embeds the current pricing (always present,
// `market:null` and empty arrays when there is no data); the prices routes
// return strictly more (graded `band`/`last_sold_at`, sealed `conditions`/`history`).
// Their return types are the contract's (contract/catalog/shapes.ts), so the two cannot drift.

const EMPTY_CARD_PRICING = { currency: "USD", market: null, is_stale: false } as const;

export function embeddedCardPricing(p: CardPricing | undefined): WireCardPricing {
  if (!p) return { ...EMPTY_CARD_PRICING, conditions: [], graded: [] };
  return {
    ...p,
    conditions: p.conditions ?? [],
    graded: p.graded.map(({ last_sold_at: _l, band: _b, ...rest }) => rest),
  };
}

export function fullCardPricing(p: CardPricing | undefined): WireCardPricing {
  if (!p) return { ...EMPTY_CARD_PRICING, conditions: [], graded: [] };
  return { ...p, conditions: p.conditions ?? [] };
}

export function catalogCardWire(rec: CardRecord, withPrices: boolean): Card {
  return withPrices ? { ...rec.card, pricing: embeddedCardPricing(rec.pricing) } : rec.card;
}

const emptySealed = (): WireSealedPricing => ({ currency: "USD", market: null, is_on_sale: false });

export function embeddedSealedPricing(p: SealedPricing | undefined): WireSealedPricing {
  if (!p) return emptySealed();
  const { conditions: _c, history: _h, ...rest } = p;
  return rest;
}

export function fullSealedPricing(p: SealedPricing | undefined): WireSealedPricing {
  return p ? { ...p } : emptySealed();
}

export function sealedWire(rec: SealedRecord, withPrices: boolean): SealedProduct {
  return withPrices ? { ...rec.product, pricing: embeddedSealedPricing(rec.pricing) } : rec.product;
}

export function certWire(cert: GradedCert, card: CardRecord | undefined): WireGradedCert {
  return {
    provider: cert.provider,
    cert_number: cert.cert_number,
    grade: cert.grade,
    grade_label: cert.grade_label,
    graded_at: cert.graded_at,
    population: cert.population,
    population_higher: cert.population_higher,
    game: cert.game,
    card_id: cert.card_id,
    ...(card ? { card: card.card } : {}),
  };
}
