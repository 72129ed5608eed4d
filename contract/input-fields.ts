import { eip55 } from "./keccak.ts";
import { parseUsdc } from "./money.ts";
import { identifier, z } from "./zod.ts";

// Request fields more than one operation reads, each with its one rule.
//
// A wallet: the one rule for a 0x wallet address a request names (docs/decisions.md
// "One wallet rule"): 0x and 40 hex digits; all one case is accepted as sent,
// mixed case must carry its EIP-55 checksum, as EIP-55 and ethers read it. The
// service checksums wallets:
// docs/reference/live-service.md "Buyback offers and the pool wallet".
// The parsed value is the checksummed form (contract/keccak.ts: node:crypto has no keccak).

export type EvmAddress = `0x${string}`;

/** What every route says of a wallet it cannot take. */
export const EVM_ADDRESS_RULE = "a 0x-prefixed 20-byte EVM address (EIP-55 checksum when mixed-case)";

/** True when `v` passes the wallet rule: all one case, or mixed case that is its EIP-55 checksum. */
export const isEvmAddress = (v: unknown): v is EvmAddress =>
  typeof v === "string" &&
  /^0x[0-9a-fA-F]{40}$/.test(v) &&
  (v.slice(2) === v.slice(2).toUpperCase() || v.slice(2) === v.slice(2).toLowerCase() || eip55(v) === v);

/**
 * A wallet address a request names: a 0x-prefixed 40-hex string, EIP-55 checksummed when mixed-case; parses
 * to its checksummed form. `missing` is the message for a value that is no string (absent when required).
 */
export const evmAddress = (missing = `must be ${EVM_ADDRESS_RULE}`) =>
  z
    .string({ error: missing })
    .regex(/^0x[0-9a-fA-F]{40}$/, `must be ${EVM_ADDRESS_RULE}`)
    .refine(isEvmAddress, `must be ${EVM_ADDRESS_RULE}: its EIP-55 checksum is wrong`)
    .transform((v): EvmAddress => eip55(v));

/**
 * A USDC amount a request names: a plain non-negative decimal with at most 6 places (a string, or a JSON
 * number) up to MAX_USDC_MICROS; parses to bigint micros (contract/money.ts `parseUsdc`). `message` says
 * what the field is when it is anything else.
 */
export const usdcAmount = (message: string) =>
  z
    .union([z.string().regex(/^(0|[1-9]\d{0,17})(\.\d{1,6})?$/, message), z.number().nonnegative(message)], {
      error: message,
    })
    .refine((v) => parseUsdc(v) !== null, message)
    .transform((v): bigint => parseUsdc(v)!)
    .meta({ description: 'Decimal USDC with at most 6 places ("25.00")' });

/** The largest token id: a uint256. */
export const MAX_UINT256 = 2n ** 256n - 1n;

/**
 * A token id in canonical decimal, or null: a uint256 as a string, or a JSON number that is a safe integer; no
 * sign, fraction, exponent, hex, leading zeros, blanks or values past 2^256 − 1 (viem would throw on those
 * before the chain is asked).
 */
export function tokenIdText(v: unknown): string | null {
  if (typeof v === "number") return Number.isSafeInteger(v) && v >= 0 ? String(v) : null;
  if (typeof v !== "string" || !/^(0|[1-9]\d{0,77})$/.test(v)) return null;
  return BigInt(v) <= MAX_UINT256 ? v : null;
}

/** A purchase list's end-user filters: `external_user_id` (an identifier) and `wallet_address` (matched lower-cased). */
export const endUserFilters = () => ({
  external_user_id: identifier()
    .optional()
    .transform((v) => v ?? null),
  wallet_address: z
    .string()
    .optional()
    .transform((v) => v?.toLowerCase() ?? null),
});

/** A purchase's path (`/…/purchase/:id`): its id, at most 255 characters. */
export const purchasePath = () => z.object({ id: identifier().describe("The purchase id") });

/** The answers of a read by purchase id that are not the purchase (`what`: "instant purchase"). */
export const purchaseByIdErrors = (what: string) =>
  ({
    400: { description: "Identifier too long", codes: ["identifier_too_long"] },
    404: { description: `No such ${what} on this account`, codes: ["not_found"] },
  }) as const;
