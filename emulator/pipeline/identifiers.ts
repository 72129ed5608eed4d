import { badRequest } from "./errors.ts";

export { MAX_IDENTIFIER } from "../../contract/index.ts";
import { MAX_IDENTIFIER } from "../../contract/index.ts";

/** Identifiers over 255 characters are 400 identifier_too_long. */
export function checkIdentifier(value: string, name: string): void {
  if (value.length > MAX_IDENTIFIER)
    throw badRequest(
      "identifier_too_long",
      `${name} is ${value.length} characters; identifiers are at most ${MAX_IDENTIFIER}`,
    );
}

/** A string or number id from a body, query or path over 255 characters is identifier_too_long (before any other check). */
export function checkIdLength(v: unknown, name: string): void {
  if (typeof v === "string") checkIdentifier(v, name);
  else if (typeof v === "number") checkIdentifier(String(v), name);
}

/** An integer in [min, max] given as a JSON number or canonical decimal string, else null. */
export function intIn(v: unknown, min: number, max: number): number | null {
  let n: number;
  if (typeof v === "number") n = v;
  else if (typeof v === "string" && /^(0|[1-9]\d{0,15})$/.test(v)) n = Number(v);
  else return null;
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

/**
 * Positive integer row ids (a purchase, an order, a withdrawal …) given as a
 * number or canonical digit string; null otherwise (the caller answers its
 * not-found). An id over 255 characters is identifier_too_long.
 */
export function intId(v: unknown, name = "id"): number | null {
  checkIdLength(v, name);
  return intIn(v, 1, Number.MAX_SAFE_INTEGER);
}
