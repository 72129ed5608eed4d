import { encodeFunctionData } from "../../../../chain/viem-late.ts";
import { mysteryPoolAbi } from "../../../../chain/index.ts";
import { conflict } from "../../../pipeline/errors.ts";
import type { Services } from "../../../pipeline/services.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import { chainOf, mysteryPoolPurchase, MYSTERY_POOL_STATUS, receiptOf, sendAs, tierSlotCount } from "../chain-io.ts";
import { mystery, type PurchaseRow } from "../state.ts";
import { purchaseLockKey } from "../locks.ts";
import { purchaseRequestedIn } from "./purchases.ts";

// An operator shortfall (POST /_emulator/mystery/purchases/:id/shortfall) goes on
// chain (MysteryPool.setShortfall) as soon as the purchase has a VRF request, so
// the reveal itself mints only the delivered items and pays the undelivered
// share back to the payer: no token of it reaches the buyer and the refund is
// paid once, by the chain. Before the request exists (a custodial purchase not
// yet mined) the count waits on the row and the relayer sends it once mined.

const WAITING: readonly string[] = ["RESERVED", "PENDING", "SUBMITTING", "SUBMITTED"];

/** The VRF request of a purchase whose transaction is mined, else null. */
async function requestIdOf(s: Services, row: PurchaseRow): Promise<bigint | null> {
  if (row.onchain_request_id) return BigInt(row.onchain_request_id);
  if (!row.transaction_hash) return null;
  const receipt = await receiptOf(chainOf(s), row.transaction_hash as `0x${string}`);
  return receipt && receipt.status === "success" ? (purchaseRequestedIn(s, receipt)?.requestId ?? null) : null;
}

/** Sends the row's shortfall for its pending request; false when the chain no longer has it pending (revealed or refunded). */
async function send(s: Services, requestId: bigint, items: number): Promise<boolean> {
  const chain = chainOf(s);
  const onChain = await mysteryPoolPurchase(chain, requestId);
  if (onChain.status !== MYSTERY_POOL_STATUS.REQUESTED) return false;
  // At least one item is delivered: the count is capped at the tier's slots − 1.
  const slots = await tierSlotCount(chain, Number(onChain.tierId));
  const data = encodeFunctionData({
    abi: mysteryPoolAbi,
    functionName: "setShortfall",
    args: [requestId, Math.min(items, slots - 1)],
  });
  const receipt = await sendAs(chain, chain.operator, chain.addresses.mysteryPool, data).catch(() => null);
  return receipt?.status === "success";
}

/** The operator action: marks the purchase, on chain when it can be; 409 invalid_status once it revealed or ended. */
export function markShortfall(s: Services, id: number, items: number): Promise<PurchaseRow> {
  return withKeyLock(s, purchaseLockKey(id), async () => {
    const row = mystery(s).purchases[id]!;
    const ended = () =>
      conflict(
        "invalid_status",
        `Purchase ${id} is ${mystery(s).purchases[id]?.status ?? "gone"}; a shortfall applies only before the reveal`,
      );
    if (!WAITING.includes(row.status)) throw ended();
    const requestId = s.chainHost ? await requestIdOf(s, row) : null;
    if (requestId !== null && !(await send(s, requestId, items)))
      throw conflict(
        "invalid_status",
        `Purchase ${id} has revealed or been refunded on chain; a shortfall applies only before the reveal`,
      );
    const now = mystery(s).purchases[id];
    if (!now || !WAITING.includes(now.status)) throw ended();
    now.shortfall = items;
    return now;
  });
}

/**
 * The relayer's purchase of this row is mined with `requestId`: a shortfall marked
 * before then goes on chain now. Under the purchase's lock, so a mark in flight
 * either lands before (and is sent here) or sees the request (and sends it itself).
 */
export function pushShortfall(s: Services, id: number, requestId: bigint): Promise<void> {
  return withKeyLock(s, purchaseLockKey(id), async () => {
    const items = mystery(s).purchases[id]?.shortfall;
    if (!items) return;
    // The reveal came first (a VRF answered at once): it delivered everything; the row says so.
    if (!(await send(s, requestId, items))) {
      const row = mystery(s).purchases[id];
      if (row) delete row.shortfall;
    }
  });
}
