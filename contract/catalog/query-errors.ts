// Errors of the Card Data query parameters (README "Card Data catalog"), raised by the `q` grammar,
// the parameter parsers (contract/catalog/query.ts makes them issues of the request schema) and the
// emulator's binding of q and orderBy to a game. All are HTTP 400.

export type QueryErrorCode =
  | "parse_error"
  | "unknown_field"
  | "invalid_value"
  | "query_too_complex"
  | "invalid_select"
  | "invalid_include"
  | "invalid_language"
  | "invalid_distinct"
  | "invalid_pagination";

export interface QueryErrorDetails {
  position: number;
}

export class QueryError extends Error {
  readonly code: QueryErrorCode;
  readonly details?: QueryErrorDetails;
  /** Every catalog query error is a 400. */
  readonly status = 400 as const;

  constructor(code: QueryErrorCode, message: string, details?: QueryErrorDetails) {
    super(message);
    this.name = "QueryError";
    this.code = code;
    if (details !== undefined) this.details = details;
  }
}

export function parseError(message: string, position: number): QueryError {
  return new QueryError("parse_error", message, { position });
}

export function invalidValue(message: string, position: number): QueryError {
  return new QueryError("invalid_value", message, { position });
}

export function tooComplex(message: string): QueryError {
  return new QueryError("query_too_complex", message);
}
