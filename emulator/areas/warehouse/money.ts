import { usd, usdCents } from "../../../fixtures/warehouse/index.ts";

// Warehouse money, in one place. Amounts the warehouse bills or declares are
// integer USD cents (declared values, service credits, invoice arithmetic);
// amounts it shows as prices are USD decimal strings ("12.50": card prices,
// rates, invoice lines). The fixtures build prices with the same formatters.

export { usd, usdCents };

/**
 * A USD decimal string ("12.50", "-3.4", "7") in integer cents, read digit by
 * digit (never through a float); a number is taken as its shortest decimal text.
 */
export function toCents(amount: string | number): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(typeof amount === "number" ? String(amount) : amount);
  if (!m) throw new Error(`not a USD amount with at most two decimals: ${amount}`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? "").padEnd(2, "0"));
  return m[1] ? -cents : cents;
}

/** A count table's key (integer cents written as text, "540") back to cents; anything else throws. */
export function centsOfKey(key: string): number {
  if (!/^-?\d{1,15}$/.test(key)) throw new Error(`not integer cents: ${key}`);
  return Number(key);
}

/** Insured value: 110% of the market price, rounded half up to the cent, in integers. */
export const insuredCents = (cents: number): number => Math.floor((cents * 11 + 5) / 10);
