import { expect } from "vitest";
import { QueryError, type QueryErrorCode } from "../../emulator/areas/catalog/query/index.ts";

/** Runs fn, asserts it throws QueryError with the code (and position when given); returns the error. */
export function expectQueryError(fn: () => unknown, code: QueryErrorCode, position?: number): QueryError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, "expected a QueryError").toBeInstanceOf(QueryError);
  const err = caught as QueryError;
  expect(err.code).toBe(code);
  expect(err.status).toBe(400);
  if (position === undefined) {
    expect(err.details).toBeUndefined();
  } else {
    expect(err.details).toEqual({ position });
  }
  return err;
}
