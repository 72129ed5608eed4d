import { getAddress, isAddress } from "viem";
import { badRequest } from "../../pipeline/errors.ts";
import { checkIdentifier, checkIdLength, intIn } from "../../pipeline/identifiers.ts";
import { tupleKey } from "../../state/tuple-key.ts";

// Small helpers shared by the mystery routes: partner money strings and body
// readers with clear 400s (events go through emulator/events/publish.ts, payloads in ./payloads.ts).

export { MAX_USDC_MICROS, parseUsdc, usd2, usdc } from "../../../contract/money.ts";

export const MAX_UINT256 = 2n ** 256n - 1n;

export type Body = Record<string, unknown>;

export const isTxHash = (v: unknown): v is `0x${string}` => typeof v === "string" && /^0x[0-9a-fA-F]{64}$/.test(v);

/** Accepts any 0x address whose checksum is right when mixed-case (viem strict isAddress). */
export function checksummed(v: unknown): `0x${string}` | null {
  if (typeof v !== "string" || !isAddress(v, { strict: true })) return null;
  return getAddress(v);
}

export function walletParam(v: unknown, code = "invalid_wallet_address"): `0x${string}` {
  const a = checksummed(v);
  if (!a)
    throw badRequest(
      code,
      "wallet_address must be a 0x-prefixed 20-byte EVM address (EIP-55 checksum when mixed-case)",
    );
  return a;
}

/** Tier ids are numbers (a numeric string is accepted); anything else is invalid_tier. */
export function tierParam(v: unknown, name = "tier_id"): number {
  checkIdLength(v, name);
  const n = intIn(v, 1, Number.MAX_SAFE_INTEGER);
  if (n === null)
    throw badRequest("invalid_tier", `${name} must be the numeric id of a tier (see GET /mystery/catalog)`);
  return n;
}

export function optIdentifier(b: Body, name: string): string | null {
  const v = b[name];
  if (v === undefined || v === null || v === "") return null;
  if (typeof v !== "string" && typeof v !== "number") throw badRequest("invalid_value", `${name} must be a string`);
  const s = String(v);
  checkIdentifier(s, name);
  return s;
}

/**
 * Token ids are uint256 in canonical decimal (a string, or a JSON number that is
 * a safe integer): no sign, fraction, exponent, hex, leading zeros, blanks or
 * values past 2^256 − 1 (viem would throw on those before the chain is asked).
 */
export function tokenIdOf(v: unknown): string | null {
  if (typeof v === "number") return Number.isSafeInteger(v) && v >= 0 ? String(v) : null;
  if (typeof v !== "string" || !/^(0|[1-9]\d{0,77})$/.test(v)) return null;
  return BigInt(v) <= MAX_UINT256 ? v : null;
}

/** tokenIdOf for request input: over 255 characters is identifier_too_long first. */
export function tokenIdParam(v: unknown, name = "token_id"): string | null {
  checkIdLength(v, name);
  return tokenIdOf(v);
}

/**
 * Keys for pipeline/key-lock.ts: what the area's check-await-write handlers
 * are exclusive on. A transaction hash is one key whichever route submits it.
 */
export const txLockKey = (hash: string) => `mystery:tx:${hash.toLowerCase()}`;
/** One purchase's chain-side steps (settle, refund, shortfall): whoever triggers them, they run one at a time. */
export const purchaseLockKey = (id: number) => `mystery:purchase:${id}`;
export const tokenLockKey = (what: "redemption" | "offer", accountId: string, tokenId: string) =>
  tupleKey(`mystery:${what}-token`, accountId, tokenId);

/** How a worker job reports a failure (logged; the worker goes on and re-arms). */
export type JobErrorHandler = (job: string, err: unknown) => void;
/** A job that failed is not due again for this long (the worker must not spin on it). */
export const JOB_RETRY_MS = 60 * 1000;
