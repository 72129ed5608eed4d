import { getAddress } from "../../../chain/evm.ts";
import { isEvmAddress, tokenIdText } from "../../../contract/index.ts";
import { tupleKey } from "../../state/tuple-key.ts";

// Small helpers shared by the mystery routes: partner money strings, the
// contract's wallet and token id rules for the rules and the control plane
// (requests are checked by the contract alone; events go through emulator/events/publish.ts).

export { MAX_USDC_MICROS, parseUsdc, usd2, usdc } from "../../../contract/money.ts";

export { MAX_UINT256 } from "../../../contract/index.ts";

export const isTxHash = (v: unknown): v is `0x${string}` => typeof v === "string" && /^0x[0-9a-fA-F]{64}$/.test(v);

/** The contract's wallet rule (contract/input-fields.ts): the checksummed address, or null. */
export function checksummed(v: unknown): `0x${string}` | null {
  return isEvmAddress(v) ? getAddress(v) : null;
}

/** Token ids are uint256 in canonical decimal (the contract's rule, contract/input-fields.ts). */
export const tokenIdOf = tokenIdText;

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
