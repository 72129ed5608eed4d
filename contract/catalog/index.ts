// Card Data: cards, expansions, sealed products, prices, printings and graded certificates.
export * from "./shapes.ts";
export * from "./operations.ts";
export * from "./query.ts";
export { QueryError, type QueryErrorCode, type QueryErrorDetails } from "./query-errors.ts";
export { forEachTerm, parseQuery, type QueryNode, type TermNode } from "./query-grammar.ts";
