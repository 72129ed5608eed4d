import { leadingInt, MAX_OFFSET, MAX_PAGE_SIZE } from "../paging.ts";
import { withCode, z, type IssueParams } from "../zod.ts";
import { QueryError } from "./query-errors.ts";
import { MAX_DEPTH, MAX_QUERY_LENGTH, MAX_TERMS, parseQuery, type QueryNode } from "./query-grammar.ts";
import {
  parseDistinct,
  parseInclude,
  parseLanguage,
  parseProductTypes,
  parseSelect,
  type CatalogResource,
} from "./query-params.ts";
import { LANGUAGES, SEALED_PRODUCT_TYPES } from "./shapes.ts";

// The query fields of the Card Data reads: the contract is their only validator. Each
// field is read as sent (a string) by its parser (query-params.ts, the `q` grammar in
// query-grammar.ts) into what the server uses, and a wrong value is that field's issue
// with its own code (and details.position for parse_error / invalid_value). The request
// answers the first issue in declaration order, so the order the fields are listed in
// is the order they are checked. What depends on the game (q's field names and values,
// orderBy's keys) or on a record (404) is checked by the server after these.

/** `orderBy`: at most this many keys. */
export const MAX_ORDER_KEYS = 3;
/** Printings: the default and the largest page. */
export const PRINTINGS_CAP = 50;

/** A query field read by `parse`: a QueryError it throws is the field's issue, with the error's code and details. */
function parsed<T>(code: string, description: string, parse: (v: string | undefined) => T) {
  return withCode(
    z
      .string()
      .optional()
      .transform((v, ctx): T => {
        try {
          return parse(v);
        } catch (err) {
          if (!(err instanceof QueryError)) throw err;
          // Card Data errors carry details only where the service gives them (details.position).
          const params: IssueParams = { code: err.code, details: err.details ? { ...err.details } : null };
          ctx.issues.push({ code: "custom", input: v, message: err.message, params });
          return z.NEVER;
        }
      })
      .describe(description),
    code,
  );
}

/** A paging field's 400 (no details, as the service answers it). */
function pagingIssue(message: string): never {
  throw new QueryError("invalid_pagination", message);
}

/** What `include` accepts where it is supported: a comma list of `prices` (blank items skipped). */
export const INCLUDE_PATTERN = String.raw`^\s*(prices\s*)?(,\s*(prices\s*)?)*$`;
/** What a card search's `distinct` accepts: `code` or blank. */
export const DISTINCT_PATTERN = String.raw`^\s*(code\s*)?$`;

const include = (resource: CatalogResource) =>
  parsed(
    "invalid_include",
    "`prices` embeds the current pricing (no extra credit); 400 invalid_include for anything else",
    (v) => parseInclude(v, resource),
  ).meta({ pattern: INCLUDE_PATTERN });
const noInclude = parsed("invalid_include", "Not supported here: any non-blank value is 400 invalid_include", (v) =>
  parseInclude(v, "expansions"),
);
const select = (resource: CatalogResource) =>
  parsed(
    "invalid_select",
    "Comma list of top-level fields to keep (`id` always kept); 400 invalid_select for an unknown one",
    (v) => parseSelect(v, resource),
  );
const language = (byDefault: string) =>
  parsed(
    "invalid_language",
    `Comma list of language codes (${LANGUAGES.join(", ")}) or \`all\`; ${byDefault}; 400 invalid_language`,
    parseLanguage,
  );

/** `q` after its syntax: the text (the result cache's key) and its AST; field names and values are bound per game by the server. */
export interface ParsedQ {
  text: string | undefined;
  ast: QueryNode | null;
}
const q = parsed(
  "parse_error",
  `Search: field:value terms, OR, parentheses, -exclusion, !exact, ranges [a TO b] / {a TO b}. Caps: ${MAX_QUERY_LENGTH} characters, ` +
    `${MAX_TERMS} terms, ${MAX_DEPTH} levels (query_too_complex); parse_error, unknown_field and invalid_value carry details.position`,
  (v): ParsedQ => ({ text: v, ast: v === undefined ? null : parseQuery(v) }),
).meta({ maxLength: MAX_QUERY_LENGTH });
/** orderBy's keys depend on the game (hp, cost …): the server compiles it. */
const orderBy = z
  .string()
  .describe(
    `Comma list of at most ${MAX_ORDER_KEYS} keys, \`-\` for descending; unknown_field / invalid_value carry details.position`,
  )
  .optional();
const distinct = parsed(
  "invalid_distinct",
  "`code`: one row per card (its own printing first); 400 invalid_distinct for anything else",
  (v) => parseDistinct(v),
).meta({ pattern: DISTINCT_PATTERN });
const noDistinct = parsed("invalid_distinct", "Not supported here: any value is 400 invalid_distinct", (v): null => {
  if (v !== undefined) throw new QueryError("invalid_distinct", "distinct is only supported on card searches");
  return null;
});
const productType = parsed(
  "invalid_value",
  `Comma list of ${SEALED_PRODUCT_TYPES.join(", ")}; 400 invalid_value (with details.position) for another`,
  parseProductTypes,
);

// --- paging -------------------------------------------------------------------

/** The paging fields as the server reads them. */
export interface PageFields {
  page_size?: number;
  page?: number;
  limit?: number;
  offset?: number;
}

/** The page in force. */
export interface CatalogPage {
  limit: number;
  offset: number;
  page: number;
  page_size: number;
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
/** What `page` and `page_size` accept before their range: digits, blanks around them. */
export const PAGE_NUMBER_PATTERN = String.raw`^\s*\d+\s*$`;
const STRICT_INT = new RegExp(PAGE_NUMBER_PATTERN);

/** The live service's strict `page`/`page_size`: digits only, out of range is 400 (never clamped). */
function strictInt(description: string, lo: number, hi: number) {
  return parsed("invalid_pagination", description, (raw) => {
    if (raw === undefined) return undefined;
    if (!STRICT_INT.test(raw)) pagingIssue("must be an integer");
    const n = Number.parseInt(raw, 10);
    if (n < lo || n > hi) pagingIssue(`must be between ${lo} and ${hi}`);
    return n;
  }).meta({ pattern: PAGE_NUMBER_PATTERN });
}

/** The interface's `limit`/`offset`: a leading integer, clamped; no integer at all is 400. */
function looseInt(description: string, lo: number, hi: number) {
  return parsed("invalid_pagination", description, (raw) => {
    if (raw === undefined) return undefined;
    const n = leadingInt(raw);
    if (n === null) pagingIssue(`must be an integer (got "${raw.slice(0, 40)}")`);
    return clamp(n, lo, hi);
  });
}

/** Card Data paging: strict `page`/`page_size` and the loose, clamped `limit`/`offset`; in the order they are checked. */
export const CATALOG_PAGING = {
  page_size: strictInt(
    `Rows per page, 1 to ${MAX_PAGE_SIZE} (a route with a smaller cap serves at most its cap)`,
    1,
    MAX_PAGE_SIZE,
  ),
  page: strictInt(
    `1-based page number; page × the page size in force (a route's cap applies) at most ${MAX_OFFSET}`,
    1,
    MAX_OFFSET,
  ),
  limit: looseInt(
    `Rows per page (leading integer, clamped to 1..${MAX_PAGE_SIZE}); wins over page_size`,
    1,
    MAX_PAGE_SIZE,
  ),
  offset: looseInt(`First row (leading integer, clamped to 0..${MAX_OFFSET}); wins over page`, 0, MAX_OFFSET),
};

/**
 * The page in force. A route with a smaller server cap (`maxSize`, e.g. printings' 50; also its
 * default size) serves at most that many rows and reports the size in force, so page arithmetic
 * stays consistent. `page` counts only when `offset` is absent.
 */
export function catalogPage(q: PageFields, maxSize = MAX_PAGE_SIZE): CatalogPage {
  const size = Math.min(maxSize, q.limit ?? q.page_size ?? maxSize);
  if (q.page !== undefined && q.offset === undefined)
    return { limit: size, offset: (q.page - 1) * size, page: q.page, page_size: size };
  const offset = q.offset ?? 0;
  return { limit: size, offset, page: Math.floor(offset / size) + 1, page_size: size };
}

/** The one rule across fields, once each field is valid: `page` × the size in force stays within the offset cap. */
const withinOffsetCap =
  (maxSize: number) =>
  (v: PageFields, ctx: z.RefinementCtx): void => {
    if (v.page === undefined || v.offset !== undefined) return;
    if (v.page * catalogPage(v, maxSize).limit <= MAX_OFFSET) return;
    ctx.addIssue({
      code: "custom",
      path: ["page"],
      message: `page × page_size must not exceed ${MAX_OFFSET}`,
      params: { code: "invalid_pagination", details: null } satisfies IssueParams,
    });
  };

/** The paging fields alone with the route's cap (what a list's query checks of its page). */
export const catalogPagingQuery = (maxSize = MAX_PAGE_SIZE) =>
  z.object(CATALOG_PAGING).superRefine(withinOffsetCap(maxSize));

// --- each operation's query -----------------------------------------------------

const DEFAULT_EN = "default en (a positive language:, id: or expansion.id: term in q lifts it)";
const NOT_DEFAULTED = "not defaulted: every language when absent";

const cardsQuery = (byDefault: string) =>
  z
    .object({
      include: include("cards"),
      select: select("cards"),
      ...CATALOG_PAGING,
      q,
      language: language(byDefault),
      distinct,
      orderBy,
    })
    .superRefine(withinOffsetCap(MAX_PAGE_SIZE));

/** The query of each Card Data read that takes one, fields in the order they are checked. */
export const CATALOG_QUERIES = {
  cards: cardsQuery(DEFAULT_EN),
  card: z.object({ include: include("cards"), select: select("cards") }),
  printings: z
    .object({
      include: include("cards"),
      select: select("cards"),
      ...CATALOG_PAGING,
      language: language(NOT_DEFAULTED),
    })
    .superRefine(withinOffsetCap(PRINTINGS_CAP)),
  expansions: z
    .object({
      include: noInclude,
      select: select("expansions"),
      ...CATALOG_PAGING,
      q,
      language: language(DEFAULT_EN),
      distinct: noDistinct,
      orderBy,
    })
    .superRefine(withinOffsetCap(MAX_PAGE_SIZE)),
  expansion: z.object({ include: noInclude, select: select("expansions") }),
  expansionCards: cardsQuery(NOT_DEFAULTED),
  sealed: z
    .object({
      product_type: productType,
      include: include("sealed"),
      select: select("sealed"),
      ...CATALOG_PAGING,
      q,
      language: language(DEFAULT_EN),
      distinct: noDistinct,
      orderBy,
    })
    .superRefine(withinOffsetCap(MAX_PAGE_SIZE)),
  sealedOne: z.object({ include: include("sealed"), select: select("sealed") }),
};
