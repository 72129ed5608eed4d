import type { TransactionReceipt } from "viem";
import { encodeFunctionData } from "../../../../chain/viem-late.ts";
import { mysteryPoolAbi } from "../../../../chain/index.ts";
import type { Services } from "../../../pipeline/services.ts";
import { contentAt, contentKey, receiptOf, sendAs } from "../chain-io.ts";
import { mystery, type PurchaseRow } from "../state.ts";
import type { JobErrorHandler } from "../jobs.ts";
import type { RelayerTrigger } from "../../../../contract/lifecycles/purchases.ts";
import { isHeld, relayHeld, resumeHeld } from "../../../pipeline/relayer.ts";
import { holdOf, stepPurchase } from "./lifecycle.ts";
import { noteWaiting, purchaseRequestedIn } from "./purchases.ts";
import { runtimeSlot } from "../../../pipeline/runtime.ts";
import { pushShortfall } from "./shortfall.ts";

// The relayer's side of a custodial purchase, taken by the area's worker on the
// virtual clock (each step is a due time stored on the row, so it survives
// snapshot/restore and never waits on wall time). The moves, their ledger
// movements, events and due times are the table's (contract/lifecycles/purchases.ts,
// drawn in docs/mystery.md); the relayer switch is the shared one (pipeline/relayer.ts).
// A broadcast that fails or reverts is FAILED (a pre-broadcast error for the
// partner: nothing was bought) and releases the hold.

export const relayerOn = (s: Services) => mystery(s).relayer !== "off";

/** 503 relayer_disabled (retryable), shared with the other areas the relayer serves. */
export { relayerDisabled } from "../../../pipeline/relayer-port.ts";

/** The relayer signs and sends purchaseFor: SUBMITTING with the hash, or FAILED. */
async function broadcast(s: Services, id: number): Promise<void> {
  const chain = s.chainHost!.gateway;
  // Worker runs are serial, so nothing else steps it while in flight; a state snapshotted
  // mid-flight (no hash yet) broadcasts again when this comes due.
  const first = stepPurchase(s, mystery(s).purchases[id]!, "broadcast");
  const data = encodeFunctionData({
    abi: mysteryPoolAbi,
    functionName: "purchaseFor",
    args: [
      first.purchaser_address as `0x${string}`,
      first.tier_id,
      BigInt(first.max_price_micros ?? first.price_micros),
    ],
  });
  let receipt: TransactionReceipt | null = null;
  let error: string | null = null;
  // The chain's content key and head, read together once the receipt is in (the journal moves both in one step).
  let at: { key: string; head: string } | null = null;
  try {
    receipt = await sendAs(chain, chain.relayer, chain.addresses.mysteryPool, data);
    at = contentAt(chain);
    if (receipt.status !== "success") error = "relayer transaction reverted";
  } catch (err) {
    error = `relayer could not broadcast: ${(err as Error).message.split("\n")[0]}`;
  }
  const row = mystery(s).purchases[id];
  if (!row || row.status !== "SUBMITTING") return;
  if (error || !receipt || !purchaseRequestedIn(s, receipt))
    return fail(s, row, error ?? "no PurchaseRequested log in the relayer transaction");
  stepPurchase(s, row, "sent", {
    transaction_hash: receipt.transactionHash,
    block_number: Number(receipt.blockNumber),
  });
  // The head was this transaction's block: the chain's contents at that key are what it left (its request waits).
  if (at && at.head === receipt.blockHash) s.runtime.of(SENT).set(id, { receipt, key: at.key });
  await pushShortfall(s, id, purchaseRequestedIn(s, receipt)!.requestId);
}

/**
 * Purchase id → its broadcast's receipt and the content key (`Chain.contentKey`) right after its transaction. While
 * the key stays, nothing was sent, edited or taken back since: the confirm step needs no receipt read (a restore,
 * an import or a revert in between moves the key, and the receipt is read again, as before).
 */
const SENT = runtimeSlot("custodial broadcasts", () => new Map<number, { receipt: TransactionReceipt; key: string }>());

/** The broadcast transaction confirmed: SUBMITTED with its VRF request id. */
async function confirm(s: Services, id: number): Promise<void> {
  const chain = s.chainHost!.gateway;
  const hash = mystery(s).purchases[id]!.transaction_hash as `0x${string}` | null;
  const sent = s.runtime.of(SENT).get(id);
  s.runtime.of(SENT).delete(id);
  const kept = sent && sent.receipt.transactionHash === hash && contentKey(chain) === sent.key ? sent : null;
  const receipt = kept ? kept.receipt : hash ? await receiptOf(chain, hash) : null;
  const requested = receipt && receipt.status === "success" ? purchaseRequestedIn(s, receipt) : undefined;
  const row = mystery(s).purchases[id];
  if (!row || row.status !== "SUBMITTING") return;
  if (!requested) return fail(s, row, "the relayer transaction is not on the chain");
  // The MysteryPool never charges above the cap the relayer sent (PriceAboveMax): that is spent, the rest released.
  const cap = holdOf(row);
  const charged = requested.price < cap ? requested.price : cap;
  const patch = {
    price_micros: charged.toString(),
    submitted_at: s.clock.nowIso(),
    onchain_request_id: requested.requestId.toString(),
  };
  stepPurchase(s, row, "confirm", patch, { charged });
  // Nothing changed since the request was made, so it waits: the reconciler's first look waits for a change.
  if (kept) noteWaiting(s, patch.onchain_request_id, kept.key);
}

/** FAILED: the hold goes back to the end user's available balance, purchase.failed. */
const fail = (s: Services, p: PurchaseRow, reason: string): void =>
  void stepPurchase(s, p, "relay_failed", { failure_reason: reason });

/** The row as the shared relayer fires on it. */
const held = (s: Services, p: PurchaseRow) => ({
  status: p.status,
  fire: (trigger: RelayerTrigger, reason?: string) =>
    void stepPurchase(s, p, trigger, reason ? { failure_reason: reason } : undefined),
  send: () => broadcast(s, p.id),
});

/** Takes one due step of a custodial purchase. */
export async function stepCustodial(s: Services, id: number): Promise<void> {
  const p = mystery(s).purchases[id];
  if (!p || p.custody !== "CUSTODIAL" || (p.due_at_ms ?? Infinity) > s.clock.now()) return;
  if (isHeld(p.status)) return relayHeld(s, held(s, p));
  if (p.status === "SUBMITTING") return p.transaction_hash ? confirm(s, id) : broadcast(s, id);
  p.due_at_ms = null;
}

/** When the next custodial step is due (the worker arms its timer for the earliest). */
export function custodialDue(p: PurchaseRow): number | null {
  return p.custody === "CUSTODIAL" && (isHeld(p.status) || p.status === "SUBMITTING") ? (p.due_at_ms ?? null) : null;
}

/** Takes every due custodial step, earliest first; with `onError` one failure is reported and the rest go on. */
export async function runDueCustodial(s: Services, onError: JobErrorHandler): Promise<void> {
  const now = s.clock.now();
  const due = Object.values(mystery(s).purchases)
    .filter((p) => {
      const at = custodialDue(p);
      return at !== null && at <= now;
    })
    .sort((a, b) => (a.due_at_ms ?? 0) - (b.due_at_ms ?? 0) || a.id - b.id)
    .map((p) => p.id);
  for (const id of due) await stepCustodial(s, id).catch((err: unknown) => onError(`custodial purchase ${id}`, err));
}

/** The relayer is back: every PENDING purchase is picked up now. */
export function resumePending(s: Services): number {
  const custodial = Object.values(mystery(s).purchases).filter((p) => p.custody === "CUSTODIAL");
  return resumeHeld(custodial.map((p) => held(s, p)));
}
