import { z } from "./zod.ts";

// The wire's field formats, declared once for every contract file (docs/reference/sdk-shapes.md,
// "Money"; docs/decisions.md, "One declaration of the contract's primitives"): USDC as a 6-place
// decimal string beside its integer micros, a reveal's USD value, instants, addresses, hex.

/** USDC as the wire writes it, always 6 places ("12.500000"); a ledger movement carries a sign. */
export const usdcString = z
  .string()
  .regex(/^-?\d+\.\d{6}$/)
  .describe('USDC, 6 places ("12.500000")');
/** A market value in USD (a reveal's `value_usd`): a decimal string, its places as the price feed gives them. */
export const usdDecimal = z
  .string()
  .regex(/^-?\d+\.\d+$/)
  .describe('USD, a decimal string ("312.45")');
/** Integer USDC micros as a string. */
export const micros = z.string().regex(/^\d+$/).describe("USDC micros");
/** Signed integer USDC micros (ledger movements). */
export const signedMicros = z
  .string()
  .regex(/^-?\d+$/)
  .describe("USDC micros");
/** An instant, ISO-8601 in UTC. */
export const isoTime = z.iso.datetime();
/** A 20-byte 0x address. */
export const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
/** A 32-byte 0x hash (transaction hashes). */
export const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
/** 0x-prefixed hex of any length (calldata, signatures). */
export const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
