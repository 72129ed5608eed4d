import { GAMES } from "../games.ts";
import { operation } from "../operation.ts";
import { MAX_ID_ARRAY, MAX_OFFSET, MAX_PAGE_SIZE } from "../paging.ts";
import { withCode, z } from "../zod.ts";
import {
  CardPrices,
  Card,
  Expansion,
  GradedCert,
  GradedCertBatch,
  LANGUAGES,
  SEALED_PRODUCT_TYPES,
  SealedPrices,
  SealedProduct,
} from "./shapes.ts";

// The Card Data operations (README "Card Data catalog"): every read costs 1
// credit (`include=prices` is free), the price history none. Query fields are
// declared as sent (strings) with the code each answers: the server reads
// them with its query parser (the `q` grammar, select against the resource's
// fields), in the order they are listed here, the first wrong one answering.

/** `q`: at most this many characters, terms and nesting levels (400 query_too_complex). */
export const MAX_QUERY_LENGTH = 512;
export const MAX_TERMS = 20;
export const MAX_DEPTH = 5;
/** `orderBy`: at most this many keys. */
export const MAX_ORDER_KEYS = 3;
/** Printings: the default and the largest page. */
export const PRINTINGS_CAP = 50;

const int = z.number().int();
const field = (code: string, description: string) => withCode(z.string().describe(description).optional(), code);

const include = field(
  "invalid_include",
  "`prices` embeds the current pricing (no extra credit); 400 invalid_include for anything else",
);
const noInclude = field("invalid_include", "Not supported here: any non-blank value is 400 invalid_include");
const select = field(
  "invalid_select",
  "Comma list of top-level fields to keep (`id` always kept); 400 invalid_select for an unknown one",
);
const language = (byDefault: string) =>
  field(
    "invalid_language",
    `Comma list of language codes (${LANGUAGES.join(", ")}) or \`all\`; ${byDefault}; 400 invalid_language`,
  );
const q = field(
  "parse_error",
  `Search: field:value terms, OR, parentheses, -exclusion, !exact, ranges [a TO b] / {a TO b}. Caps: ${MAX_QUERY_LENGTH} characters, ` +
    `${MAX_TERMS} terms, ${MAX_DEPTH} levels (query_too_complex); parse_error, unknown_field and invalid_value carry details.position`,
);
const orderBy = field(
  "invalid_value",
  `Comma list of at most ${MAX_ORDER_KEYS} keys, \`-\` for descending; unknown_field / invalid_value carry details.position`,
);
const distinct = field(
  "invalid_distinct",
  "`code`: one row per card (its own printing first); 400 invalid_distinct for anything else",
);
const noDistinct = field("invalid_distinct", "Not supported here: any value is 400 invalid_distinct");
const productType = field(
  "invalid_value",
  `Comma list of ${SEALED_PRODUCT_TYPES.join(", ")}; 400 invalid_value (with details.position) for another`,
);

/** Card Data paging: strict `page`/`page_size` (out of range is 400) and the loose, clamped `limit`/`offset`; in the order they are checked. */
const paging = {
  page_size: field(
    "invalid_pagination",
    `Rows per page, 1 to ${MAX_PAGE_SIZE} (a route with a smaller cap serves at most its cap)`,
  ),
  page: field("invalid_pagination", `1-based page number; page × page_size at most ${MAX_OFFSET}`),
  limit: field(
    "invalid_pagination",
    `Rows per page (leading integer, clamped to 1..${MAX_PAGE_SIZE}); wins over page_size`,
  ),
  offset: field("invalid_pagination", `First row (leading integer, clamped to 0..${MAX_OFFSET}); wins over page`),
};

const DEFAULT_EN = "default en (a positive language:, id: or expansion.id: term in q lifts it)";
const NOT_DEFAULTED = "not defaulted: every language when absent";
const cardsQuery = z.object({ include, select, ...paging, q, language: language(DEFAULT_EN), distinct, orderBy });
const oneQuery = z.object({ include, select });

const game = z.enum(GAMES);
const pathId = (description: string) => withCode(z.string().max(255).describe(description), "identifier_too_long");
const gameOnly = z.object({ game });
const gameAnd = (description: string) => z.object({ game, id: pathId(description) });

/** With `select`: the selected top-level fields only (`id` always). */
const selected = <S extends z.ZodObject>(schema: S) => schema.partial().extend({ id: z.string() });
const SELECTED = "With select: each object has only the selected top-level fields (id always)";
/** A 200 whose `data` is the full object; `select=` answers the declared partial variant instead. */
const answer = <S extends z.ZodObject>(description: string, schema: S) => ({
  description,
  data: schema,
  variant: { query: "select", description: SELECTED, data: selected(schema) },
});
/** A Card Data page's fields beside `data`. */
export const CatalogPageFields = z.strictObject({
  page: int.describe("1-based page number"),
  page_size: int.describe("Rows per page in force (a route's cap applies)"),
  total_count: int.describe("Rows of the whole result set (cards with distinct=code)"),
  language: z.string().describe("The language scope applied: a comma list of codes, or `all`"),
});
export type CatalogPageFields = z.output<typeof CatalogPageFields>;
/** A page of full objects, the page fields beside `data`; `select=` answers the partial variant. */
const answerPage = <S extends z.ZodObject>(description: string, schema: S) => ({
  description,
  data: z.array(schema),
  top: CatalogPageFields,
  variant: { query: "select", description: SELECTED, data: z.array(selected(schema)) },
});

const position = z
  .object({ position: int.describe("0-based offset into q, orderBy or product_type") })
  .describe("parse_error, unknown_field and invalid_value only");
const listCodes = [
  "invalid_include",
  "invalid_select",
  "invalid_pagination",
  "parse_error",
  "unknown_field",
  "invalid_value",
  "query_too_complex",
  "invalid_language",
  "invalid_distinct",
] as const;
const badList = {
  description: "A query parameter is invalid (the first in the order they are listed)",
  codes: listCodes,
  details: position,
};
const badOne = {
  description: "include or select is invalid",
  codes: ["invalid_include", "invalid_select", "identifier_too_long"],
};
const tooLong = { description: "The id is too long", codes: ["identifier_too_long"] };
const notFound = (what: string) => ({ description: `No ${what} with that id in this game`, codes: ["not_found"] });
const PAGE =
  "A numbered page; page, page_size, total_count and language (the scope applied) sit beside data, and pagination too";

/** A certificate a batch names. */
export interface CertRef {
  provider: string;
  cert_number: string;
}

/** `?certs=PSA:12345678,BGS:0012345` → the certificates (blank entries skipped; the count cap and each number's length are the server's rule). */
const certsParam = withCode(
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
const certsBody = z.object({
  certs: withCode(
    z.array(z.object({ provider: z.string(), cert_number: z.string() }), {
      error: 'must be a list of {"provider":"PSA","cert_number":"12345678"}',
    }),
    "invalid_value",
  ).describe(`At most ${MAX_ID_ARRAY} certificates`),
});
const BATCH = `certs missing, malformed, empty or over ${MAX_ID_ARRAY} entries, or a cert number too long`;

/** Card Data keys: partner and legacy, scope read:catalog. */
const common = {
  access: { kinds: ["partner", "legacy"], scopes: ["read:catalog"] },
  envelope: "partner",
  cost: 1,
} as const;
const G = ":game{pokemon|onepiece|azuki}";

export const CATALOG = {
  cardsSearch: operation({
    id: "cards.search",
    method: "GET",
    path: `/${G}/cards`,
    summary: "Search a game's cards (q, language, distinct=code, orderBy, paging)",
    ...common,
    schema: { params: gameOnly, query: cardsQuery, responses: { 200: answerPage(PAGE, Card), 400: badList } },
  }),
  cardsGet: operation({
    id: "cards.get",
    method: "GET",
    path: `/${G}/cards/:id`,
    summary: "One card by id (case-insensitive), optionally with its pricing",
    ...common,
    schema: {
      params: gameAnd("Card id (case-insensitive)"),
      query: oneQuery,
      responses: { 200: answer("The card (its stored id spelling)", Card), 400: badOne, 404: notFound("card") },
    },
  }),
  cardsPrices: operation({
    id: "cards.prices",
    method: "GET",
    path: `/${G}/cards/:id/prices`,
    summary: "A card's full pricing: conditions, graded bands, last sales",
    ...common,
    schema: {
      params: gameAnd("Card id"),
      responses: {
        200: { description: "The card's full pricing (graded bands, last_sold_at)", data: CardPrices },
        400: tooLong,
        404: notFound("card"),
      },
    },
  }),
  cardsPrintings: operation({
    id: "cards.printings",
    method: "GET",
    path: `/${G}/cards/:id/printings`,
    summary: "Every printing of a card (same code), in every language unless filtered",
    ...common,
    schema: {
      params: gameAnd("Any printing's card id"),
      query: z.object({ include, select, ...paging, language: language(NOT_DEFAULTED) }),
      responses: {
        200: answerPage(
          `${PAGE}. Every printing sharing the card's code, the anchor's language first; at most ${PRINTINGS_CAP} per page`,
          Card,
        ),
        400: {
          description: "A query parameter is invalid",
          codes: ["invalid_include", "invalid_select", "invalid_pagination", "invalid_language", "identifier_too_long"],
        },
        404: notFound("card"),
      },
    },
  }),
  cardsPriceHistory: operation({
    id: "cards.priceHistory",
    method: "GET",
    path: `/${G}/cards/:id/price-history`,
    summary: "A card's price history: announced, not live yet (always 404, free)",
    access: common.access,
    envelope: common.envelope,
    schema: {
      params: gameAnd("Card id"),
      responses: { 404: { description: "Announced, not live yet: always 404, costs nothing", codes: ["not_found"] } },
    },
  }),
  expansionsSearch: operation({
    id: "expansions.search",
    method: "GET",
    path: `/${G}/expansions`,
    summary: "Search a game's listed expansions",
    ...common,
    schema: {
      params: gameOnly,
      query: z.object({
        include: noInclude,
        select,
        ...paging,
        q,
        language: language(DEFAULT_EN),
        distinct: noDistinct,
        orderBy,
      }),
      responses: { 200: answerPage(PAGE, Expansion), 400: badList },
    },
  }),
  expansionsGet: operation({
    id: "expansions.get",
    method: "GET",
    path: `/${G}/expansions/:id`,
    summary: "One listed expansion by id",
    ...common,
    schema: {
      params: gameAnd("Expansion id"),
      query: z.object({ include: noInclude, select }),
      responses: {
        200: answer("The expansion (promo, tin and UPC sets are not listed: 404)", Expansion),
        400: {
          description: "include given, or select is invalid",
          codes: ["invalid_include", "invalid_select", "identifier_too_long"],
        },
        404: notFound("listed expansion"),
      },
    },
  }),
  expansionsCards: operation({
    id: "expansions.cards",
    method: "GET",
    path: `/${G}/expansions/:id/cards`,
    summary: "Search the cards of one expansion",
    ...common,
    schema: {
      params: gameAnd("Listed expansion id"),
      query: cardsQuery.extend({ language: language(NOT_DEFAULTED) }),
      responses: {
        200: answerPage(`${PAGE}. The cards whose home is the expansion`, Card),
        400: { ...badList, codes: [...listCodes, "identifier_too_long"] },
        404: notFound("listed expansion"),
      },
    },
  }),
  sealedSearch: operation({
    id: "sealed.search",
    method: "GET",
    path: `/${G}/sealed`,
    summary: "Search a game's sealed products (product_type shorthand)",
    ...common,
    schema: {
      params: gameOnly,
      query: z.object({
        product_type: productType,
        include,
        select,
        ...paging,
        q,
        language: language(DEFAULT_EN),
        distinct: noDistinct,
        orderBy,
      }),
      responses: { 200: answerPage(PAGE, SealedProduct), 400: badList },
    },
  }),
  sealedGet: operation({
    id: "sealed.get",
    method: "GET",
    path: `/${G}/sealed/:id`,
    summary: "One sealed product by id, optionally with its pricing",
    ...common,
    schema: {
      params: gameAnd("Sealed product id"),
      query: oneQuery,
      responses: { 200: answer("The sealed product", SealedProduct), 400: badOne, 404: notFound("sealed product") },
    },
  }),
  sealedPrices: operation({
    id: "sealed.prices",
    method: "GET",
    path: `/${G}/sealed/:id/prices`,
    summary: "A sealed product's full pricing and price history",
    ...common,
    schema: {
      params: gameAnd("Sealed product id"),
      responses: {
        200: {
          description: "The product's full pricing (the `sealed` condition rung, price history)",
          data: SealedPrices,
        },
        400: tooLong,
        404: notFound("sealed product"),
      },
    },
  }),
  // Before `/grading/certs/:provider/:certNumber`: a path of its own.
  certsBatch: operation({
    id: "grading.certs.batch",
    method: "GET",
    path: "/grading/certs/batch",
    summary: "Look up many graded certificates at once (query form)",
    ...common,
    schema: {
      query: z.object({ certs: certsParam }),
      responses: {
        200: { description: "One result per requested certificate, found or not", data: GradedCertBatch },
        400: { description: BATCH, codes: ["invalid_value", "invalid_pagination", "identifier_too_long"] },
      },
    },
  }),
  certsBatchPost: operation({
    id: "grading.certs.batchPost",
    method: "POST",
    path: "/grading/certs/batch",
    summary: "Look up many graded certificates at once (body form)",
    ...common,
    schema: {
      body: certsBody,
      responses: {
        200: { description: "One result per requested certificate, found or not", data: GradedCertBatch },
        400: {
          description: BATCH,
          codes: ["invalid_json", "invalid_value", "invalid_pagination", "identifier_too_long"],
        },
        413: { description: "The body is too large", codes: ["payload_too_large"] },
      },
    },
  }),
  certsGet: operation({
    id: "grading.certs.get",
    method: "GET",
    path: "/grading/certs/:provider/:certNumber",
    summary: "One graded certificate and the card it grades",
    ...common,
    schema: {
      params: z.object({
        provider: pathId("Grading company, case-insensitive (PSA, BGS, CGC …)"),
        certNumber: pathId("Certificate number"),
      }),
      responses: {
        200: { description: "The certificate, with its card", data: GradedCert },
        400: { description: "An id is too long", codes: ["identifier_too_long"] },
        404: { description: "No such certificate", codes: ["not_found"] },
      },
    },
  }),
};
