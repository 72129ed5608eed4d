// Partner money (docs/reference/live-service.md “Money, ids and time”: partner money is a string): integer micros on the
// wire as `*_micros`/`price`, decimal USDC with 6 places as `*_usdc`. Shared by
// every partner-commerce area (mystery, instant).

/** Integer micros → "12.500000". */
export function usdc(micros: bigint | string | number): string {
  const m = BigInt(micros);
  const neg = m < 0n;
  const abs = neg ? -m : m;
  return `${neg ? "-" : ""}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, "0")}`;
}

/** Integer micros → USD with cents ("12.50"), rounded half away from zero in integers. */
export function usd2(micros: bigint | string): string {
  const m = BigInt(micros);
  const cents = (m < 0n ? m - 5_000n : m + 5_000n) / 10_000n;
  const abs = cents < 0n ? -cents : cents;
  return `${cents < 0n ? "-" : ""}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
}

/** A quote's USD decimal text ("5.40") → micros; anything parseUsdc refuses throws (the emulator wrote it). */
export function microsOfDecimal(amount: string): bigint {
  const micros = parseUsdc(amount);
  if (micros === null) throw new RangeError(`not a USD amount: ${amount}`);
  return micros;
}

/** The largest USDC amount a partner route takes: 10^12 USDC (far above any price, far below uint256). */
export const MAX_USDC_MICROS = 10n ** 18n;

/**
 * "12.5" | 12.5 → micros, or null unless a plain non-negative decimal with at
 * most 6 places and at most MAX_USDC_MICROS: no sign, exponent, hex, leading
 * zeros ("007"), blanks, bare dot or empty string.
 */
export function parseUsdc(v: unknown): bigint | null {
  let s: string;
  if (typeof v === "number") {
    if (!Number.isFinite(v) || v < 0) return null;
    s = String(v); // 1e21 → "1e+21", 1e-7 → "1e-7": both refused below
  } else if (typeof v === "string") s = v;
  else return null;
  const m = /^(0|[1-9]\d{0,17})(?:\.(\d{1,6}))?$/.exec(s);
  if (!m) return null;
  const micros = BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? "").padEnd(6, "0"));
  return micros <= MAX_USDC_MICROS ? micros : null;
}

/**
 * A catalog price in dollars (a JS number, as Card Data answers it) → micros, through its decimal text
 * rounded to 6 places: no float arithmetic on the amount.
 */
export function microsOfUsd(usd: number): bigint {
  const micros = parseUsdc(usd.toFixed(6));
  if (micros === null) throw new RangeError(`not a dollar amount: ${usd}`);
  return micros;
}
