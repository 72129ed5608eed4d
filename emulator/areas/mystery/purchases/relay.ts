import { encodeFunctionData, type TransactionReceipt } from "viem";
import { mysteryPoolAbi } from "../../../../chain/index.ts";
import type { Services } from "../../../pipeline/services.ts";
import { receiptOf, sendAs } from "../chain-io.ts";
import { mystery, type PurchaseRow } from "../state.ts";
import type { JobErrorHandler } from "../util.ts";
import { endUser } from "../wallet/end-users.ts";
import { ledgerRelease, ledgerSettle } from "../wallet/ledger.ts";
import { emitPurchase } from "./events.ts";
import { purchaseRequestedIn } from "./purchases.ts";
import { pushShortfall } from "./shortfall.ts";

// The relayer's side of a custodial purchase, taken by the area's worker on the
// virtual clock (each step is a due time stored on the row, so it survives
// snapshot/restore and never waits on wall time):
//
//   RESERVED  --RELAY_PICKUP_MS-->  SUBMITTING  --RELAY_CONFIRM_MS-->  SUBMITTED  --VRF reveal-->  FULFILLED
//      |                             (purchaseFor broadcast,           (mined: hold settled,
//      | relayer off                  transaction_hash known)           onchain_request_id known)
//      v
//   PENDING (hold kept) --relayer on--> SUBMITTING;  --PENDING_TIMEOUT_MS still off--> FAILED (hold released)
//
// A broadcast that fails or reverts is FAILED (a pre-broadcast error for the
// partner: nothing was bought) and releases the hold.

/** The relayer picks a held purchase up this long after the 202. */
export const RELAY_PICKUP_MS = 2_000;
/** The relayer's transaction confirms this long after the broadcast. */
export const RELAY_CONFIRM_MS = 2_000;
/** A purchase held while the relayer is off fails (hold released) this long after it was reserved. */
export const PENDING_TIMEOUT_MS = 60 * 60 * 1000;

export const relayerOn = (s: Services) => mystery(s).relayer !== "off";

/** 503 relayer_disabled (retryable), shared with the other areas the relayer serves. */
export { relayerDisabled } from "../../../pipeline/relayer-port.ts";

const userOf = (s: Services, p: PurchaseRow) => endUser(s, p.account_id, { external_user_id: p.external_user_id, wallet_address: p.purchaser_address });

/** What the purchase holds on the balance: its price cap (max_price_usdc, default the tier's price). */
export const holdOf = (p: PurchaseRow): bigint => BigInt(p.max_price_micros ?? p.price_micros);

/** FAILED: the hold goes back to the end user's available balance (HOLD_RELEASE), purchase.failed. */
function fail(s: Services, p: PurchaseRow, reason: string): void {
  const user = userOf(s, p);
  const hold = holdOf(p);
  user.reserved_micros = String(BigInt(user.reserved_micros) - hold);
  ledgerRelease(s, p.account_id, user, p.id, hold);
  p.status = "FAILED";
  p.failure_reason = reason;
  p.next_step_at = null;
  emitPurchase(s, p, "purchase.failed");
}

/**
 * SUBMITTED: the relayer's transaction is mined; the end user is debited what the pool actually
 * charged (HOLD_SETTLE) and any remainder of the hold returns to available (HOLD_RELEASE), as
 * docs/reference/live-service.md “Purchases” says of max_price_usdc; purchase.submitted.
 */
function settle(s: Services, p: PurchaseRow, requestId: bigint, charged: bigint): void {
  const user = userOf(s, p);
  const held = holdOf(p);
  // The pool never charges above the cap the relayer sent (PriceAboveMax), so this is the charge.
  const price = charged < held ? charged : held;
  user.reserved_micros = String(BigInt(user.reserved_micros) - price);
  user.balance_micros = String(BigInt(user.balance_micros) - price);
  ledgerSettle(s, p.account_id, user, p.id, price);
  if (held > price) {
    user.reserved_micros = String(BigInt(user.reserved_micros) - (held - price));
    ledgerRelease(s, p.account_id, user, p.id, held - price);
  }
  p.price_micros = price.toString();
  p.status = "SUBMITTED";
  p.submitted_at = s.clock.nowIso();
  p.onchain_request_id = requestId.toString();
  p.next_step_at = null;
  emitPurchase(s, p, "purchase.submitted");
}

/** The relayer signs and sends purchaseFor: SUBMITTING with the hash, or FAILED. */
async function broadcast(s: Services, id: number): Promise<void> {
  const chain = s.chain!.chain;
  const first = mystery(s).purchases[id]!;
  first.status = "SUBMITTING";
  // Worker runs are serial, so nothing else steps it while in flight; a state snapshotted
  // mid-flight (no hash yet) broadcasts again when this comes due.
  first.next_step_at = s.clock.now() + RELAY_CONFIRM_MS;
  const data = encodeFunctionData({
    abi: mysteryPoolAbi,
    functionName: "purchaseFor",
    args: [first.purchaser_address as `0x${string}`, first.tier_id, BigInt(first.max_price_micros ?? first.price_micros)],
  });
  let receipt: TransactionReceipt | null = null;
  let error: string | null = null;
  try {
    receipt = await sendAs(chain, chain.relayer, chain.addresses.mysteryPool, data);
    if (receipt.status !== "success") error = "relayer transaction reverted";
  } catch (err) {
    error = `relayer could not broadcast: ${(err as Error).message.split("\n")[0]}`;
  }
  const row = mystery(s).purchases[id];
  if (!row || row.status !== "SUBMITTING") return;
  if (error || !receipt || !purchaseRequestedIn(s, receipt)) return fail(s, row, error ?? "no PurchaseRequested log in the relayer transaction");
  row.transaction_hash = receipt.transactionHash;
  row.next_step_at = s.clock.now() + RELAY_CONFIRM_MS;
  await pushShortfall(s, id, purchaseRequestedIn(s, receipt)!.requestId);
}

/** The broadcast transaction confirmed: SUBMITTED with its VRF request id. */
async function confirm(s: Services, id: number): Promise<void> {
  const chain = s.chain!.chain;
  const hash = mystery(s).purchases[id]!.transaction_hash as `0x${string}` | null;
  const receipt = hash ? await receiptOf(chain, hash) : null;
  const requested = receipt && receipt.status === "success" ? purchaseRequestedIn(s, receipt) : undefined;
  const row = mystery(s).purchases[id];
  if (!row || row.status !== "SUBMITTING") return;
  if (!requested) return fail(s, row, "the relayer transaction is not on the chain");
  settle(s, row, requested.requestId, requested.price);
}

/** Takes one due step of a custodial purchase. */
export async function stepCustodial(s: Services, id: number): Promise<void> {
  const p = mystery(s).purchases[id];
  if (!p || p.custody !== "CUSTODIAL" || p.next_step_at === null || p.next_step_at === undefined || p.next_step_at > s.clock.now()) return;
  if (p.status === "RESERVED" || p.status === "PENDING") {
    if (relayerOn(s)) return broadcast(s, id);
    if (p.status === "RESERVED") {
      // The relayer is off: the purchase waits with its hold until it is back, or until the timeout.
      p.status = "PENDING";
      p.next_step_at = Date.parse(p.reserved_at ?? p.created_at) + PENDING_TIMEOUT_MS;
      return;
    }
    return fail(s, p, "relayer_unavailable: the relayer stayed off; the hold was released");
  }
  if (p.status === "SUBMITTING") return p.transaction_hash ? confirm(s, id) : broadcast(s, id);
  p.next_step_at = null;
}

/** When the next custodial step is due (the worker arms its timer for the earliest). */
export function custodialDue(p: PurchaseRow): number | null {
  return p.custody === "CUSTODIAL" && (p.status === "RESERVED" || p.status === "PENDING" || p.status === "SUBMITTING") ? (p.next_step_at ?? null) : null;
}

/** Takes every due custodial step, earliest first; with `onError` one failure is reported and the rest go on. */
export async function runDueCustodial(s: Services, onError: JobErrorHandler): Promise<void> {
  const now = s.clock.now();
  const due = Object.values(mystery(s).purchases)
    .filter((p) => {
      const at = custodialDue(p);
      return at !== null && at <= now;
    })
    .sort((a, b) => (a.next_step_at ?? 0) - (b.next_step_at ?? 0) || a.id - b.id)
    .map((p) => p.id);
  for (const id of due) await stepCustodial(s, id).catch((err: unknown) => onError(`custodial purchase ${id}`, err));
}

/** The relayer is back: every PENDING purchase is picked up now. */
export function resumePending(s: Services): number {
  let n = 0;
  for (const p of Object.values(mystery(s).purchases))
    if (p.custody === "CUSTODIAL" && p.status === "PENDING") {
      p.next_step_at = s.clock.now();
      n++;
    }
  return n;
}
