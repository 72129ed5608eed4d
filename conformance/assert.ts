import { CheckFailure } from "./types.ts";
import { INFRA_ERROR_CODES } from "../contract/index.ts";
import type { HttpResult } from "../harness/http.ts";

// Assertions that explain what the target did, so a failing report is actionable.

export function ensure(cond: unknown, message: string): asserts cond {
  if (!cond) throw new CheckFailure(message);
}

/**
 * An answer read far enough to judge: the suite's HttpResult, or a supertest Response in the project's
 * own tests (they share these assertions, so an error is judged one way everywhere).
 */
export interface Answer {
  status: number;
  body: unknown;
  text?: string;
}

const textOf = (r: Answer) => r.text ?? JSON.stringify(r.body) ?? "";
const show = (r: Answer) => `${r.status} ${textOf(r).slice(0, 160)}`;

export function expectStatus(r: Answer, status: number, what = "answer"): void {
  ensure(r.status === status, `${what}: expected HTTP ${status}, got ${show(r)}`);
}

type Env = {
  success?: unknown;
  data?: unknown;
  message?: unknown;
  error?: unknown;
  details?: unknown;
  retryable?: unknown;
  code?: unknown;
};
export const env = (r: Answer): Env => (r.body && typeof r.body === "object" ? (r.body as Env) : {});

/** Partner/catalog error envelope `{success:false, message, error:<code>}` with the given status and machine code. */
export function expectError(r: Answer, status: number, code: string, what = "answer"): Env {
  expectStatus(r, status, what);
  const b = env(r);
  ensure(b.success === false, `${what}: error body must have success:false, got ${textOf(r).slice(0, 160)}`);
  ensure(typeof b.message === "string", `${what}: error body must carry a human message`);
  ensure(b.error === code, `${what}: expected error "${code}", got "${String(b.error)}"`);
  return b;
}

/**
 * Warehouse error envelope `{success:false, message, error:<human text>, code:<code>}`; for the codes of shared
 * infrastructure (rate limits, load shedding, timeouts, internal errors) `error` holds the same label as `code`.
 */
export function expectWarehouseError(r: Answer, status: number, code: string, what = "answer"): Env {
  expectStatus(r, status, what);
  const b = env(r);
  ensure(b.success === false, `${what}: error body must have success:false, got ${textOf(r).slice(0, 160)}`);
  ensure(
    typeof b.message === "string" && typeof b.error === "string",
    `${what}: warehouse errors carry a message and a human-readable error`,
  );
  ensure(
    b.code === code,
    `${what}: expected code "${code}", got code "${String(b.code)}" (error "${String(b.error)}")`,
  );
  if (INFRA_ERROR_CODES.has(code))
    ensure(
      b.error === code,
      `${what}: shared infrastructure's ${code} carries error "${code}", got "${String(b.error)}"`,
    );
  return b;
}

export function expectSuccess(r: Answer, what: string, status = 200): Env {
  expectStatus(r, status, what);
  const b = env(r);
  ensure(
    b.success === true && "data" in b,
    `${what}: success body must be {success:true, data}, got ${textOf(r).slice(0, 160)}`,
  );
  return b;
}

export function intHeader(r: HttpResult, name: string, what: string): number {
  const raw = r.headers[name.toLowerCase()];
  ensure(raw !== undefined, `${what}: missing ${name} header`);
  ensure(/^-?\d+$/.test(raw), `${what}: ${name} must be an integer, got "${raw}"`);
  return Number(raw);
}

export function expectNoHeader(r: HttpResult, name: string, what: string): void {
  ensure(
    r.headers[name.toLowerCase()] === undefined,
    `${what}: ${name} must be absent, got "${r.headers[name.toLowerCase()]}"`,
  );
}

/** One resource read through two routes: every field of `a` equals `b`'s (values compared as JSON), and neither has a field the other lacks. */
export function sameFields(byId: Record<string, unknown>, listed: Record<string, unknown>, what: string): void {
  for (const f of new Set([...Object.keys(byId), ...Object.keys(listed)]))
    ensure(
      JSON.stringify(byId[f]) === JSON.stringify(listed[f]),
      `${what}: ${f} fetched by id is ${JSON.stringify(byId[f])}, listed ${JSON.stringify(listed[f])}`,
    );
}

/** A decimal USDC string read as integer micros (no float: 8.296 is 8296000, exactly). */
export function usdcMicros(usdc: unknown): bigint {
  ensure(
    typeof usdc === "string" && /^\d+(\.\d{1,6})?$/.test(usdc),
    `expected a decimal USDC string, got ${JSON.stringify(usdc)}`,
  );
  const [i, f = ""] = usdc.split(".");
  return BigInt(i!) * 1_000_000n + BigInt(f.padEnd(6, "0"));
}

/** Rows ordered by a decimal USDC field, cheapest first, compared as integer micros. */
export const cheapestFirst =
  <T>(usdc: (row: T) => unknown) =>
  (a: T, b: T): number => {
    const d = usdcMicros(usdc(a)) - usdcMicros(usdc(b));
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  };

/** A check's declared spend (whole USDC) as micros. */
export const spendMicros = (wholeUsdc: number): bigint => BigInt(wholeUsdc) * 1_000_000n;

/** Integer micros as the shortest decimal USDC string (25, 4.99, 0.000001). */
export function usdcText(micros: bigint): string {
  const frac = (micros % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return `${micros / 1_000_000n}${frac ? `.${frac}` : ""}`;
}
