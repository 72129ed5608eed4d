import { ApiError } from "../../pipeline/errors.ts";
import { MAX_ID_ARRAY } from "../../pipeline/pagination.ts";
import { withCode, z, type RouteSchema } from "../../pipeline/schema.ts";
import { GAMES, LANGUAGES, SEALED_PRODUCT_TYPES } from "../../catalog-data/model.ts";
import type { Card, CardPricing, Expansion, SealedPricing, SealedProduct } from "../../catalog-data/model.ts";
import {
  MAX_DEPTH,
  MAX_ORDER_KEYS,
  MAX_QUERY_LENGTH,
  MAX_TERMS,
  QueryError,
  parseDistinct,
  parseInclude,
  parseLanguage,
  parseProductTypes,
  parseQuery,
  parseSelect,
  type QueryNode,
  type Resource,
} from "./query/index.ts";
import { catalogPageQuery } from "./paging.ts";

// What the Card Data routes take and answer (interface "Catalog", service-facts
// §3.3–3.6; field shapes from the live service's objects, model.ts).
//
// Query fields: every catalog query field is read by its parser inside the
// schema and THROWS its coded 400 (a QueryError keeps its code and
// details.position), rather than recording a zod issue: zod ends the parse at
// the first throw, so the first wrong field in declaration order answers, and
// the declaration order is the order the routes always checked them in.
// What depends on the game (q's field names and values, orderBy) or on a
// record (404) is checked by the handler, after the schema.

// --- query errors --------------------------------------------------------------

/** A query-layer failure as the API's 400: its code and details (position) unchanged. */
export function toApiError(err: unknown): unknown {
  if (err instanceof QueryError)
    return new ApiError(400, err.code, err.message, err.details ? { details: { ...err.details } } : {});
  return err;
}

/** Runs a query-layer parser, its QueryError thrown as the API's 400. */
export function guarded<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw toApiError(err);
  }
}

// --- wire objects ----------------------------------------------------------------

const int = z.number().int();
const isoTime = z.iso.datetime().describe("ISO-8601 UTC");
const slashDate = z.string().regex(/^\d{4}\/\d{2}\/\d{2}$/).describe("`YYYY/MM/DD`");
const languageCode = z.enum(LANGUAGES);
const languageName = z.string().describe('The language\'s name ("English")');

const image = z.strictObject({ type: z.literal("front"), small: z.url(), medium: z.url(), large: z.url() });

export const expansionSchema = z.strictObject({
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
  translation: z.strictObject({ en: z.strictObject({ name: z.string() }) }).optional().describe("The English name of a non-English set"),
});

const trend = z.strictObject({ direction: z.enum(["up", "down", "flat"]), percent: z.number() });
const typeValue = z.strictObject({ type: z.string(), value: z.string() });
const POKEMON = "Pokémon only";
/** One Piece stats are strings of digits on the wire ("5000"); q ranges and orderBy read them as numbers. */
const opStat = z.string();

/** A catalog card as the service sends it (without `pricing`): every game's fields, each optional where a game lacks it. */
export const cardSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  number: z.string(),
  printed_number: z.string().optional(),
  code: z.string().describe("Shared by every printing and language of the same card (distinct=code, printings)"),
  images: z.array(image),
  expansion: expansionSchema,
  language: languageName,
  language_code: languageCode,
  tcgplayer_id: z.string().nullable().describe("TCGplayer product id (digits), null when there is none"),
  variants: z.array(z.strictObject({ name: z.string(), images: z.array(image) })),
  rarity: z.string().optional(),
  artist: z.string().optional(),
  supertype: z.string().optional().describe(POKEMON),
  subtypes: z.array(z.string()).optional().describe(POKEMON),
  types: z.array(z.string()).optional().describe(POKEMON),
  hp: z.string().optional().describe(POKEMON),
  abilities: z.array(z.strictObject({ type: z.string(), name: z.string(), text: z.string() })).optional().describe(POKEMON),
  attacks: z
    .array(z.strictObject({ cost: z.array(z.string()), converted_energy_cost: int, name: z.string(), text: z.string().optional(), damage: z.string().optional() }))
    .optional()
    .describe(POKEMON),
  weaknesses: z.array(typeValue).optional().describe(POKEMON),
  resistances: z.array(typeValue).optional().describe(POKEMON),
  type: z.string().optional().describe("One Piece (Leader, Character, Event, Stage, DON!!) and Azuki"),
  cost: opStat.optional().describe("One Piece only: play cost"),
  power: opStat.optional().describe("One Piece only: battle power"),
  attribute: z.string().optional().describe("One Piece only"),
  colors: z.array(z.string()).optional().describe("One Piece and Azuki"),
  rules: z.array(z.string()).optional().describe("Rule texts (One Piece; Pokémon trainers and special cards)"),
  block: z.string().optional().describe("One Piece only (1–5 or X)"),
  counter: opStat.optional().describe("One Piece only: printed Counter value"),
  life: opStat.optional().describe("One Piece only: a Leader's Life"),
  market_updated_at: isoTime.describe("When the service last refreshed the card's market data (equals pricing.market_updated_at when that is present)"),
});

const gradedBase = {
  company: z.string(),
  grade: z.string(),
  value: z.number(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  confidence: z.enum(["low", "med", "high"]),
  value_kind: z.enum(["sold", "blended", "feed"]),
  sold_count: int,
  trend: trend.optional(),
  last_sold_at: isoTime.optional().describe("The prices route only (never with include=prices)"),
  band: z
    .strictObject({ median: z.number().nullable(), recent_median: z.number().nullable(), p10: z.number().nullable(), p90: z.number().nullable(), count: int })
    .optional()
    .describe("The prices route only (never with include=prices)"),
};
const cardPricingBase = {
  currency: z.literal("USD"),
  market: z.number().nullable(),
  market_updated_at: isoTime.optional(),
  is_stale: z.boolean(),
  trend_7d: trend.optional(),
  conditions: z.array(z.strictObject({ condition: z.enum(["NM", "LP", "MP", "HP", "DMG"]), price: z.number() })),
};

/**
 * One pricing shape for both answers (the SDK types one CardPricing): `include=prices` is always present
 * (`market: null` and empty lists without data) and leaves out graded band/last_sold_at; the prices route
 * returns strictly more.
 */
export const fullCardPricingSchema = z.strictObject({ ...cardPricingBase, graded: z.array(z.strictObject(gradedBase)) });
export const embeddedCardPricingSchema = fullCardPricingSchema;

export const sealedSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  expansion: expansionSchema,
  language: languageName,
  language_code: languageCode,
  images: z.array(image),
  product_type: z.enum(SEALED_PRODUCT_TYPES).optional(),
  release_date: slashDate.optional().describe("The expansion's"),
  msrp: z.number().optional().describe("MSRP-priced products only (Azuki)"),
  pack_count: int.optional(),
  cards_per_pack: int.optional(),
  tcgplayer_id: z.string().optional().describe("TCGplayer product id (digits), when there is one"),
});

const sealedPricingBase = {
  currency: z.literal("USD"),
  market: z.number().nullable(),
  updated_at: isoTime.optional(),
  is_on_sale: z.boolean(),
  sale_price: z.number().optional(),
  trend_7d: trend.optional(),
};
/** One shape for both answers (the SDK types one SealedPricing): conditions and history come from the prices route only. */
export const fullSealedPricingSchema = z.strictObject({
  ...sealedPricingBase,
  conditions: z.array(z.strictObject({ condition: z.literal("sealed"), price: z.number() })).optional().describe("The prices route only"),
  history: z
    .array(z.strictObject({ date: z.iso.date(), price: z.number(), source: z.string() }))
    .optional()
    .describe("The prices route only: the only sealed time series (capped)"),
});
export const embeddedSealedPricingSchema = fullSealedPricingSchema;

// pricing: typed nullable by the SDK; the emulator always sends the object with include=prices.
const withPrices = "With include=prices (then always an object; null is never sent)";
export const cardWireSchema = cardSchema.extend({ pricing: embeddedCardPricingSchema.nullable().optional().describe(withPrices) });
export const sealedWireSchema = sealedSchema.extend({ pricing: embeddedSealedPricingSchema.nullable().optional().describe(withPrices) });

export const certSchema = z.strictObject({
  provider: z.string().describe("Upper case (PSA, BGS, CGC …)"),
  cert_number: z.string(),
  grade: z.string(),
  grade_label: z.string(),
  graded_at: isoTime,
  population: int,
  population_higher: int,
  game: z.enum(GAMES),
  card_id: z.string(),
  card: cardSchema.optional().describe("The graded card, when it is in the catalog"),
});

const certBatchSchema = z.strictObject({
  results: z.array(
    z.discriminatedUnion("found", [
      z.strictObject({ provider: z.string(), cert_number: z.string(), found: z.literal(true), cert: certSchema }),
      z.strictObject({ provider: z.string(), cert_number: z.string(), found: z.literal(false) }),
    ]),
  ),
  found: int,
  not_found: int,
});

export type CardWire = z.output<typeof cardWireSchema>;
export type SealedWire = z.output<typeof sealedWireSchema>;
export type EmbeddedCardPricing = z.output<typeof embeddedCardPricingSchema>;
export type FullCardPricing = z.output<typeof fullCardPricingSchema>;
export type EmbeddedSealedPricing = z.output<typeof embeddedSealedPricingSchema>;
export type FullSealedPricing = z.output<typeof fullSealedPricingSchema>;
export type CertWire = z.output<typeof certSchema>;

// The catalog's records are model.ts types (the fixtures build them); these
// fail to compile when a schema and its record type disagree on any field.
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Every key made required, at every depth: an optional field one side lacks breaks the match. */
type AllKeys<T> = T extends readonly (infer E)[] ? AllKeys<E>[] : T extends object ? { [K in keyof T]-?: AllKeys<T[K]> } : T;
type Same<A, B> = Mutual<A, B> extends true ? Mutual<AllKeys<A>, AllKeys<B>> : false;
type Holds<T extends true> = T;
export type CatalogSchemasMatchModel = [
  Holds<Same<z.output<typeof cardSchema>, Card>>,
  Holds<Same<z.output<typeof expansionSchema>, Expansion>>,
  Holds<Same<z.output<typeof sealedSchema>, SealedProduct>>,
  Holds<FullCardPricing extends CardPricing ? true : false>,
  Holds<FullSealedPricing extends SealedPricing ? true : false>,
];

/** With `select`: the selected top-level fields only (`id` always). */
const selected = <S extends z.ZodObject>(schema: S) => schema.partial().extend({ id: z.string() });
const SELECTED = "With select: each object has only the selected top-level fields (id always)";
/** A 200 whose `data` is the full object; `select=` answers the declared partial variant instead. */
const answer = <S extends z.ZodObject>(description: string, schema: S) => ({
  description,
  data: schema,
  variant: { query: "select", description: SELECTED, data: selected(schema) },
});
/** A page of full objects, the page fields beside `data`; `select=` answers the partial variant. */
const answerPage = <S extends z.ZodObject>(description: string, schema: S) => ({
  description,
  data: z.array(schema),
  top: pageTop,
  variant: { query: "select", description: SELECTED, data: z.array(selected(schema)) },
});
/** A Card Data page's fields beside `data` (search.ts pageReply). */
const pageTop = z.strictObject({
  page: int.describe("1-based page number"),
  page_size: int.describe("Rows per page in force (a route's cap applies)"),
  total_count: int.describe("Rows of the whole result set (cards with distinct=code)"),
  language: z.string().describe("The language scope applied: a comma list of codes, or `all`"),
});

// --- query fields -------------------------------------------------------------

/** A query field read by its parser; a failure throws (see the top of this file). */
const parsed = <T>(description: string, parse: (v: string | undefined) => T) =>
  z.string().describe(description).optional().transform((v) => guarded(() => parse(v)));

const include = (resource: Resource) =>
  parsed("`prices` embeds the current pricing (no extra credit); 400 invalid_include for anything else", (v) => parseInclude(v, resource));
const noInclude = parsed("Not supported here: any non-blank value is 400 invalid_include", (v) => parseInclude(v, "expansions"));
const select = (resource: Resource) =>
  parsed("Comma list of top-level fields to keep (`id` always kept); 400 invalid_select for an unknown one", (v) => parseSelect(v, resource));
const language = (byDefault: string) =>
  parsed(`Comma list of language codes (${LANGUAGES.join(", ")}) or \`all\`; ${byDefault}; 400 invalid_language`, parseLanguage);

/** q after its syntax: the text (result-cache key) and its AST; field names and values are checked per game by the handler. */
export interface ParsedQ {
  text: string | undefined;
  ast: QueryNode | null;
}
const q = parsed(
  `Search: field:value terms, OR, parentheses, -exclusion, !exact, ranges [a TO b] / {a TO b}. Caps: ${MAX_QUERY_LENGTH} characters, ` +
    `${MAX_TERMS} terms, ${MAX_DEPTH} levels (query_too_complex); parse_error, unknown_field and invalid_value carry details.position`,
  (v): ParsedQ => ({ text: v, ast: v === undefined ? null : parseQuery(v) }),
);
/** orderBy's keys depend on the game (hp, cost …): the handler compiles it. */
const orderBy = z
  .string()
  .describe(`Comma list of at most ${MAX_ORDER_KEYS} keys, \`-\` for descending; unknown_field / invalid_value carry details.position`)
  .optional();
const distinct = parsed("`code`: one row per card (its own printing first); 400 invalid_distinct for anything else", (v) => parseDistinct(v));
const noDistinct = parsed("Not supported here: any value is 400 invalid_distinct", (v): null => {
  if (v !== undefined) throw new QueryError("invalid_distinct", "distinct is only supported on card searches");
  return null;
});
const productType = parsed(
  `Comma list of ${SEALED_PRODUCT_TYPES.join(", ")}; 400 invalid_value (with details.position) for another`,
  parseProductTypes,
);

const DEFAULT_EN = "default en (a positive language:, id: or expansion.id: term in q lifts it)";
const cardsQuery = z.object({
  include: include("cards"),
  select: select("cards"),
  ...catalogPageQuery(),
  q,
  language: language(DEFAULT_EN),
  distinct,
  orderBy,
});
/** The query fields a search reads (search.ts). */
export type SearchQuery = z.output<typeof cardsQuery>;

// --- routes -------------------------------------------------------------------

const game = z.enum(GAMES);
const pathId = (description: string) => withCode(z.string().max(255).describe(description), "identifier_too_long");
const gameOnly = z.object({ game });
const gameAnd = (description: string) => z.object({ game, id: pathId(description) });

const position = z.object({ position: int.describe("0-based offset into q, orderBy or product_type") }).describe("parse_error, unknown_field and invalid_value only");
const listCodes = ["invalid_include", "invalid_select", "invalid_pagination", "parse_error", "unknown_field", "invalid_value", "query_too_complex", "invalid_language", "invalid_distinct"] as const;
const badList = { description: "A query parameter is invalid (the first in the order they are listed)", codes: listCodes, details: position };
const notFound = (what: string) => ({ description: `No ${what} with that id in this game`, codes: ["not_found"] });
const PAGE = "A numbered page; page, page_size, total_count and language (the scope applied) sit beside data, and pagination too";

export const SCHEMAS = {
  cards: {
    params: gameOnly,
    query: cardsQuery,
    responses: { 200: answerPage(PAGE, cardWireSchema), 400: badList },
  },
  card: {
    params: gameAnd("Card id (case-insensitive)"),
    query: z.object({ include: include("cards"), select: select("cards") }),
    responses: {
      200: answer("The card (its stored id spelling)", cardWireSchema),
      400: { description: "include or select is invalid", codes: ["invalid_include", "invalid_select", "identifier_too_long"] },
      404: notFound("card"),
    },
  },
  cardPrices: {
    params: gameAnd("Card id"),
    responses: {
      200: { description: "The card's full pricing (graded bands, last_sold_at)", data: z.strictObject({ card_id: z.string(), pricing: fullCardPricingSchema }) },
      400: { description: "The id is too long", codes: ["identifier_too_long"] },
      404: notFound("card"),
    },
  },
  printings: {
    params: gameAnd("Any printing's card id"),
    query: z.object({
      include: include("cards"),
      select: select("cards"),
      ...catalogPageQuery(),
      language: language("not defaulted: every language when absent"),
    }),
    responses: {
      200: answerPage(`${PAGE}. Every printing sharing the card's code, the anchor's language first; at most 50 per page`, cardWireSchema),
      400: { description: "A query parameter is invalid", codes: ["invalid_include", "invalid_select", "invalid_pagination", "invalid_language", "identifier_too_long"] },
      404: notFound("card"),
    },
  },
  priceHistory: {
    params: gameAnd("Card id"),
    responses: { 404: { description: "Announced, not live yet: always 404, costs nothing", codes: ["not_found"] } },
  },
  expansions: {
    params: gameOnly,
    query: z.object({
      include: noInclude,
      select: select("expansions"),
      ...catalogPageQuery(),
      q,
      language: language(DEFAULT_EN),
      distinct: noDistinct,
      orderBy,
    }),
    responses: { 200: answerPage(PAGE, expansionSchema), 400: badList },
  },
  expansion: {
    params: gameAnd("Expansion id"),
    query: z.object({ include: noInclude, select: select("expansions") }),
    responses: {
      200: answer("The expansion (promo, tin and UPC sets are not listed: 404)", expansionSchema),
      400: { description: "include given, or select is invalid", codes: ["invalid_include", "invalid_select", "identifier_too_long"] },
      404: notFound("listed expansion"),
    },
  },
  expansionCards: {
    params: gameAnd("Listed expansion id"),
    query: cardsQuery.extend({ language: language("not defaulted: every language when absent") }),
    responses: {
      200: answerPage(`${PAGE}. The cards whose home is the expansion`, cardWireSchema),
      400: { ...badList, codes: [...listCodes, "identifier_too_long"] },
      404: notFound("listed expansion"),
    },
  },
  sealed: {
    params: gameOnly,
    query: z.object({
      product_type: productType,
      include: include("sealed"),
      select: select("sealed"),
      ...catalogPageQuery(),
      q,
      language: language(DEFAULT_EN),
      distinct: noDistinct,
      orderBy,
    }),
    responses: { 200: answerPage(PAGE, sealedWireSchema), 400: badList },
  },
  sealedOne: {
    params: gameAnd("Sealed product id"),
    query: z.object({ include: include("sealed"), select: select("sealed") }),
    responses: {
      200: answer("The sealed product", sealedWireSchema),
      400: { description: "include or select is invalid", codes: ["invalid_include", "invalid_select", "identifier_too_long"] },
      404: notFound("sealed product"),
    },
  },
  sealedPrices: {
    params: gameAnd("Sealed product id"),
    responses: {
      200: { description: "The product's full pricing (the `sealed` condition rung, price history)", data: z.strictObject({ product_id: z.string(), pricing: fullSealedPricingSchema }) },
      400: { description: "The id is too long", codes: ["identifier_too_long"] },
      404: notFound("sealed product"),
    },
  },
  certBatchGet: {
    query: z.object({ certs: certsParam() }),
    responses: {
      200: { description: "One result per requested certificate, found or not", data: certBatchSchema },
      400: { description: `certs missing, malformed, empty or over ${MAX_ID_ARRAY} entries, or a cert number too long`, codes: ["invalid_value", "invalid_pagination", "identifier_too_long"] },
    },
  },
  certBatchPost: {
    body: z.object({
      certs: withCode(
        z.array(z.object({ provider: z.string(), cert_number: z.string() }), { error: 'must be a list of {"provider":"PSA","cert_number":"12345678"}' }),
        "invalid_value",
      ).describe(`At most ${MAX_ID_ARRAY} certificates`),
    }),
    responses: {
      200: { description: "One result per requested certificate, found or not", data: certBatchSchema },
      400: { description: `certs missing, malformed, empty or over ${MAX_ID_ARRAY} entries, or a cert number too long`, codes: ["invalid_json", "invalid_value", "invalid_pagination", "identifier_too_long"] },
      413: { description: "The body is too large", codes: ["payload_too_large"] },
    },
  },
  cert: {
    params: z.object({ provider: pathId("Grading company, case-insensitive (PSA, BGS, CGC …)"), certNumber: pathId("Certificate number") }),
    responses: {
      200: { description: "The certificate, with its card", data: certSchema },
      400: { description: "An id is too long", codes: ["identifier_too_long"] },
      404: { description: "No such certificate", codes: ["not_found"] },
    },
  },
} satisfies Record<string, RouteSchema>;

export interface CertRef {
  provider: string;
  cert_number: string;
}

/** `?certs=PSA:12345678,BGS:0012345` → the certificates (blank entries skipped; a count over the cap is the handler's). */
function certsParam() {
  return withCode(
    z
      .string({ error: 'pass certs as ?certs=PSA:12345678,BGS:0012345 or POST {"certs":[{"provider","cert_number"}]}' })
      .describe(`Comma list of PROVIDER:CERT_NUMBER, at most ${MAX_ID_ARRAY}`)
      .transform((raw, ctx): CertRef[] => {
        const refs: CertRef[] = [];
        for (const pair of raw.split(",")) {
          if (!pair.trim()) continue;
          const [provider, cert_number] = pair.split(":");
          if (!provider || !cert_number) {
            ctx.issues.push({ code: "custom", input: raw, message: `"${pair}" is not PROVIDER:CERT_NUMBER` });
            return z.NEVER;
          }
          refs.push({ provider: provider.trim(), cert_number: cert_number.trim() });
        }
        return refs;
      }),
    "invalid_value",
  );
}
