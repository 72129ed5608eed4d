// Small text helpers shared by the query compiler and the sorter.

// Edit distance, did-you-mean and whitespace are the contract's (the request schemas use them too).
export { closest, isSpace, levenshtein } from "../../../../contract/catalog/query-text.ts";

// ---------------------------------------------------------------------------
// Dates. The catalog stores `YYYY/MM/DD`; queries accept `YYYY/MM/DD` or
// `YYYY-MM-DD`, and also a partial `YYYY` / `YYYY/MM` (`-` or `/`) meaning the
// whole year / month. Dates are compared as integers yyyymmdd.
// ---------------------------------------------------------------------------

function digits(s: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Full date `YYYY/MM/DD` or `YYYY-MM-DD` → yyyymmdd, else undefined. Used on stored values. */
export function dateNumber(s: string | undefined): number | undefined {
  if (s === undefined || s.length !== 10) return undefined;
  const sep = s.charCodeAt(4);
  if ((sep !== 47 && sep !== 45) || s.charCodeAt(7) !== sep) return undefined;
  const y = digits(s, 0, 4);
  const m = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  if (y < 0 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return undefined;
  return y * 10000 + m * 100 + d;
}

/** A query date, full or partial, as the inclusive span [start, end] of yyyymmdd, else undefined. */
export function dateSpan(s: string): { start: number; end: number } | undefined {
  if (s.length === 4) {
    const y = digits(s, 0, 4);
    return y < 0 ? undefined : { start: y * 10000 + 101, end: y * 10000 + 1231 };
  }
  if (s.length === 7) {
    const sep = s.charCodeAt(4);
    if (sep !== 47 && sep !== 45) return undefined;
    const y = digits(s, 0, 4);
    const m = digits(s, 5, 2);
    if (y < 0 || m < 1 || m > 12) return undefined;
    return { start: y * 10000 + m * 100 + 1, end: y * 10000 + m * 100 + daysInMonth(y, m) };
  }
  const n = dateNumber(s);
  return n === undefined ? undefined : { start: n, end: n };
}

/** Strict decimal number (optional sign, optional fraction), else undefined. */
export function parseNumber(s: string): number | undefined {
  let i = 0;
  const n = s.length;
  if (i < n && (s.charCodeAt(i) === 45 || s.charCodeAt(i) === 43)) i++;
  let intDigits = 0;
  while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) {
    i++;
    intDigits++;
  }
  let fracDigits = 0;
  if (i < n && s.charCodeAt(i) === 46) {
    i++;
    while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) {
      i++;
      fracDigits++;
    }
    if (fracDigits === 0) return undefined;
  }
  if (i !== n || intDigits === 0) return undefined;
  return Number(s);
}

// ---------------------------------------------------------------------------
// Natural order (card numbers: "2" < "10" < "TG01" …) as a plain string key:
// lower-cased, and every digit run replaced by a length marker plus the digits
// without leading zeros, so code-unit comparison orders numbers numerically
// and digits before letters ("SV001" and "SV1" compare equal).
// ---------------------------------------------------------------------------

export function naturalSortKey(s: string): string {
  const lower = s.toLowerCase();
  let out = "";
  let i = 0;
  while (i < lower.length) {
    const c = lower.charCodeAt(i);
    if (c < 48 || c > 57) {
      out += lower[i];
      i++;
      continue;
    }
    const start = i;
    while (i < lower.length && lower.charCodeAt(i) >= 48 && lower.charCodeAt(i) <= 57) i++;
    let z = start;
    while (z < i - 1 && lower.charCodeAt(z) === 48) z++;
    const run = lower.charCodeAt(z) === 48 ? "" : lower.slice(z, i);
    out += String.fromCharCode(48 + Math.min(run.length, 40)) + run;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Lower-casing cache: catalog records are long-lived, so each searchable
// string is lower-cased once per record and reused across requests. The
// cached entry is validated against the source value's identity, so a
// replaced value is recomputed.
// ---------------------------------------------------------------------------

interface CacheEntry<S, L> {
  src: S;
  lower: L;
}

const toLower = (s: string): string => s.toLowerCase();

export class LowerCache<R extends object> {
  private readonly strings = new WeakMap<R, CacheEntry<string, string>>();
  private readonly lists = new WeakMap<R, CacheEntry<unknown, readonly string[]>>();

  /** `transform` defaults to lower-casing (the sorter also caches natural sort keys). */
  constructor(private readonly transform: (s: string) => string = toLower) {}

  string(rec: R, value: string): string {
    const hit = this.strings.get(rec);
    if (hit !== undefined && hit.src === value) return hit.lower;
    const lower = this.transform(value);
    this.strings.set(rec, { src: value, lower });
    return lower;
  }

  /** `src` is the object the list is derived from (its identity validates the entry). */
  list(rec: R, src: unknown, compute: () => readonly string[] | undefined): readonly string[] | undefined {
    if (src === undefined || src === null) return undefined;
    const hit = this.lists.get(rec);
    if (hit !== undefined && hit.src === src) return hit.lower;
    const values = compute();
    if (values === undefined) return undefined;
    const lower = values.map(this.transform);
    this.lists.set(rec, { src, lower });
    return lower;
  }
}
