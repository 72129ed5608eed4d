// Defensive readers for invariants: a value of the wrong shape reads as null (the schema reports it).

export type Obj = Record<string, unknown>;

/** Every operation whose answer carries a mystery or instant purchase (one or a list of them). */
export const PURCHASE_ANSWERS = [
  "gacha.purchase",
  "gacha.submit",
  "gacha.getPurchase",
  "gacha.listPurchases",
  "instant.submit",
  "instant.getPurchase",
  "instant.listPurchases",
] as const;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
export const obj = (v: unknown): Obj | null => (isObj(v) ? v : null);

/** Integer micros written as a string ("12500000"), as bigint. */
export function micros(v: unknown): bigint | null {
  return typeof v === "string" && /^-?\d+$/.test(v) ? BigInt(v) : null;
}

/** A 6-decimal USDC string ("12.500000") as bigint micros. */
export function usdc(v: unknown): bigint | null {
  if (typeof v !== "string") return null;
  const m = /^(-?)(\d+)\.(\d{6})$/.exec(v);
  return m ? (m[1] ? -1n : 1n) * (BigInt(m[2]!) * 1_000_000n + BigInt(m[3]!)) : null;
}

/** Micros as the wire's 6-decimal USDC string. */
export function usdcText(n: bigint): string {
  const neg = n < 0n;
  const a = neg ? -n : n;
  return `${neg ? "-" : ""}${a / 1_000_000n}.${(a % 1_000_000n).toString().padStart(6, "0")}`;
}

/** A USD decimal string ("12.34", "-0.10") as integer cents; more than two decimals reads as null. */
export function cents(v: unknown): bigint | null {
  if (typeof v !== "string") return null;
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(v);
  return m ? (m[1] ? -1n : 1n) * (BigInt(m[2]!) * 100n + BigInt((m[3] ?? "0").padEnd(2, "0"))) : null;
}

export const centsText = (n: bigint): string => {
  const a = n < 0n ? -n : n;
  return `${n < 0n ? "-" : ""}${a / 100n}.${(a % 100n).toString().padStart(2, "0")}`;
};

/** The rows of a list answer: `data` itself, or its one array-valued field, with the rows' pointer. */
export function rowsOf(data: unknown): { rows: unknown[]; at: string } | null {
  if (Array.isArray(data)) return { rows: data, at: "/data" };
  if (!isObj(data)) return null;
  const arrays = Object.entries(data).filter(([, v]) => Array.isArray(v));
  return arrays.length === 1 ? { rows: arrays[0]![1] as unknown[], at: `/data/${arrays[0]![0]}` } : null;
}

export const shownValue = (v: unknown): string => (v === undefined ? "nothing" : JSON.stringify(v));
