import EXAMPLE_FILE from "./examples.json" with { type: "json" };

// One real answer per operation (contract/examples.json, written by scripts/openapi-examples.mts):
// the OpenAPI document shows it on the operation's success response.

/** A success answer: its status, `data`, and any fields beside `data` (pagination, Card Data's page fields). */
export interface Example {
  status: number;
  data?: unknown;
  [field: string]: unknown;
}

/** Arrays cut to their first `max` items, at every depth, so the committed file stays small. */
export function trimExample<T>(v: T, max = 2): T {
  if (Array.isArray(v)) return v.slice(0, max).map((x) => trimExample(x, max)) as T;
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trimExample(x, max)])) as T;
}

/** Operations with a declared success the examples cannot show, and why. */
export const NO_EXAMPLE: Readonly<Record<string, string>> = {
  "cards.priceHistory": "announced, not yet served: every call answers 404 (its 200 is declared for the future shape)",
};

/** The committed examples, by operation id. */
export const EXAMPLES: Readonly<Record<string, Example>> = EXAMPLE_FILE as Record<string, Example>;
