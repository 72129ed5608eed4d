import { GAMES } from "../games.ts";
import { operation } from "../operation.ts";
import { MAX_ID_ARRAY } from "../paging.ts";
import { identifier, MAX_IDENTIFIER, withCode, z, type IssueParams } from "../zod.ts";
import { CardPrices, Card, Expansion, GradedCert, GradedCertBatch, SealedPrices, SealedProduct } from "./shapes.ts";
import { CATALOG_QUERIES, PRINTINGS_CAP } from "./query.ts";

// The Card Data operations (README "Card Data catalog"): every read costs 1
// credit (`include=prices` is free), the price history none. Their query fields
// (query.ts) are read as sent and parsed there, each wrong one answering its own
// code, in the order they are listed, the first wrong one answering.

export { MAX_DEPTH, MAX_QUERY_LENGTH, MAX_TERMS } from "./query-grammar.ts";

const int = z.number().int();

const game = z.enum(GAMES);
/** A path id: over 255 characters identifier_too_long (identifier()), before anything else is read. */
const pathId = (description: string) => identifier().describe(description);
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

/**
 * A batch's rules once its entries are well formed, in the order they were always checked: at most
 * MAX_ID_ARRAY entries (400 invalid_pagination), not empty (invalid_value), each cert number an
 * identifier (identifier_too_long).
 */
function batchRules(refs: readonly CertRef[], ctx: z.RefinementCtx): void {
  const issue = (code: string, message: string, path: PropertyKey[] = []) =>
    ctx.addIssue({ code: "custom", input: refs, path, message, params: { code } satisfies IssueParams });
  if (refs.length > MAX_ID_ARRAY)
    return issue("invalid_pagination", `has ${refs.length} entries; at most ${MAX_ID_ARRAY} are allowed`);
  if (refs.length === 0) return issue("invalid_value", "is empty");
  const long = refs.findIndex((r) => r.cert_number.length > MAX_IDENTIFIER);
  if (long >= 0)
    issue(
      "identifier_too_long",
      `is ${refs[long]!.cert_number.length} characters; identifiers are at most ${MAX_IDENTIFIER}`,
      [long, "cert_number"],
    );
}

/** `?certs=PSA:12345678,BGS:0012345` → the certificates (blank entries skipped), then the batch's rules. */
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
    })
    .superRefine(batchRules),
  "invalid_value",
);
const certsBody = z.object({
  certs: withCode(
    z
      .array(z.object({ provider: z.string(), cert_number: z.string() }), {
        error: 'must be a list of {"provider":"PSA","cert_number":"12345678"}',
      })
      .superRefine(batchRules),
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
    schema: {
      params: gameOnly,
      query: CATALOG_QUERIES.cards,
      responses: { 200: answerPage(PAGE, Card), 400: badList },
    },
  }),
  cardsGet: operation({
    id: "cards.get",
    method: "GET",
    path: `/${G}/cards/:id`,
    summary: "One card by id (case-insensitive), optionally with its pricing",
    ...common,
    schema: {
      params: gameAnd("Card id (case-insensitive)"),
      query: CATALOG_QUERIES.card,
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
      query: CATALOG_QUERIES.printings,
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
      query: CATALOG_QUERIES.expansions,
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
      query: CATALOG_QUERIES.expansion,
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
      query: CATALOG_QUERIES.expansionCards,
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
      query: CATALOG_QUERIES.sealed,
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
      query: CATALOG_QUERIES.sealedOne,
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
