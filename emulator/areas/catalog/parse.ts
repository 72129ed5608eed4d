import { ApiError } from "../../pipeline/errors.ts";
import { z } from "../../pipeline/schema.ts";
import {
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

// How the server reads the Card Data query fields (contract/catalog/operations.ts
// declares them): each is read by its parser inside the schema and THROWS its
// coded 400 (a QueryError keeps its code and details.position) rather than
// recording a zod issue: zod ends the parse at the first throw, so the first
// wrong field in declaration order answers, and the declaration order is the
// contract's. What depends on the game (q's field names and values, orderBy)
// or on a record (404) is checked by the handler, after the schema.

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

/** A query field read by its parser; a failure throws (see the top of this file). */
const parsed = <T>(parse: (v: string | undefined) => T) =>
  z
    .string()
    .optional()
    .transform((v) => guarded(() => parse(v)));

const include = (resource: Resource) => parsed((v) => parseInclude(v, resource));
const noInclude = parsed((v) => parseInclude(v, "expansions"));
const select = (resource: Resource) => parsed((v) => parseSelect(v, resource));
const language = parsed(parseLanguage);

/** q after its syntax: the text (result-cache key) and its AST; field names and values are checked per game by the handler. */
export interface ParsedQ {
  text: string | undefined;
  ast: QueryNode | null;
}
const q = parsed((v): ParsedQ => ({ text: v, ast: v === undefined ? null : parseQuery(v) }));
/** orderBy's keys depend on the game (hp, cost …): the handler compiles it. */
const orderBy = z.string().optional();
const distinct = parsed((v) => parseDistinct(v));
const noDistinct = parsed((v): null => {
  if (v !== undefined) throw new QueryError("invalid_distinct", "distinct is only supported on card searches");
  return null;
});

const cardsQuery = z.object({
  include: include("cards"),
  select: select("cards"),
  ...catalogPageQuery(),
  q,
  language,
  distinct,
  orderBy,
});

/** The server's query parser of each Card Data operation that takes a query, fields in the contract's order. */
export const QUERIES = {
  cards: cardsQuery,
  card: z.object({ include: include("cards"), select: select("cards") }),
  printings: z.object({ include: include("cards"), select: select("cards"), ...catalogPageQuery(), language }),
  expansions: z.object({
    include: noInclude,
    select: select("expansions"),
    ...catalogPageQuery(),
    q,
    language,
    distinct: noDistinct,
    orderBy,
  }),
  expansion: z.object({ include: noInclude, select: select("expansions") }),
  expansionCards: cardsQuery,
  sealed: z.object({
    product_type: parsed(parseProductTypes),
    include: include("sealed"),
    select: select("sealed"),
    ...catalogPageQuery(),
    q,
    language,
    distinct: noDistinct,
    orderBy,
  }),
  sealedOne: z.object({ include: include("sealed"), select: select("sealed") }),
};
