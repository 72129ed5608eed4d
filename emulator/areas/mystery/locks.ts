import { tupleKey } from "../../state/tuple-key.ts";

/**
 * Keys for pipeline/key-lock.ts: what the area's check-await-write handlers
 * are exclusive on. A transaction hash is one key whichever route submits it.
 */
export const txLockKey = (hash: string) => `mystery:tx:${hash.toLowerCase()}`;
/** One purchase's chain-side steps (settle, refund, shortfall): whoever triggers them, they run one at a time. */
export const purchaseLockKey = (id: number) => `mystery:purchase:${id}`;
export const tokenLockKey = (what: "redemption" | "offer", accountId: string, tokenId: string) =>
  tupleKey(`mystery:${what}-token`, accountId, tokenId);
