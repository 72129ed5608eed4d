import type { TransactionReceipt } from "viem";
import { encodeFunctionData, parseEventLogs } from "../../../../chain/viem-late.ts";
import { mysteryPoolAbi } from "../../../../chain/index.ts";
import { notFound } from "../../../pipeline/errors.ts";
import type { Services } from "../../../pipeline/services.ts";
import { generation, replaced } from "../../../pipeline/generation.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import { own } from "../../../state/own.ts";
import type { Purchase, RevealItem } from "../../../../contract/index.ts";
import { partnerOf } from "../partners.ts";
import { mystery, type ItemRow, type PurchaseRow, type PurchaseStatus } from "../state.ts";
import { chainOf, mysteryPoolPurchase, revealedRecords, revealLogs, MYSTERY_POOL_STATUS, sendAs } from "../chain-io.ts";
import { hydrate, groupOf } from "../shop/items.ts";
import { steeredCard } from "../steer.ts";
import { purchaseLockKey } from "../locks.ts";
import { usdc } from "../../../../contract/money.ts";
import { type JobErrorHandler } from "../jobs.ts";
import { emitItemsPulled } from "./events.ts";
import { beginPurchase, stepPurchase } from "./lifecycle.ts";
import { MYSTERY_PURCHASE } from "../../../../contract/lifecycles/purchases.ts";
import { startState } from "../../../pipeline/lifecycle.ts";
import { COUNTERS } from "../../../state/ids.ts";
import { runtimeSlot } from "../../../pipeline/runtime.ts";
import type { Chain } from "../../../../chain/index.ts";

// Purchase rows and their lifecycle (the table in contract/lifecycles/purchases.ts):
// RESERVED (custodial hold) → SUBMITTING → SUBMITTED (transaction mined, VRF
// requested; relay.ts takes the custodial steps) → FULFILLED (VRF revealed the
// items) or PARTIALLY_FULFILLED (an operator shortfall), or PENDING / FAILED /
// REFUNDED. The reveal is read from the chain, never assumed.

/** The statuses whose price counts as volume (docs/reference/live-service.md “Purchases” stats): the pack was bought on chain. */
export const VOLUME_STATUSES: ReadonlySet<PurchaseStatus> = new Set<PurchaseStatus>([
  "SUBMITTED",
  "FULFILLED",
  "PARTIALLY_FULFILLED",
]);

/** A revealed item on the wire: an unknown token names card_id null, a card's missing rarity is null. */
function itemWire({ group_id: _g, ...item }: ItemRow): RevealItem {
  if (item.category === "unknown") return { ...item, card_id: null };
  if (item.category === "card") return { ...item, rarity: item.rarity ?? null };
  return item;
}

/**
 * The wire shape of a purchase row. `slug` is its partner's, as the slice keeps it (`purchaseWire` reads it); the
 * default, the account id, is what an account without seeded facts has (partners.ts).
 */
export function formatPurchase(p: PurchaseRow, slug: string = p.account_id): Purchase {
  return {
    id: p.id,
    memo: `${slug}-${p.id}`,
    status: p.status,
    custody: p.custody,
    tier_id: p.tier_id,
    quantity: 1,
    price: p.price_micros,
    price_usdc: usdc(p.price_micros),
    volume_usdc: VOLUME_STATUSES.has(p.status) ? usdc(p.price_micros) : "0.000000",
    onchain_request_id: p.onchain_request_id,
    transaction_hash: p.transaction_hash,
    purchaser_address: p.purchaser_address,
    external_user_id: p.external_user_id,
    failure_reason: p.failure_reason,
    reserved_at: p.reserved_at,
    submitted_at: p.submitted_at,
    fulfilled_at: p.fulfilled_at,
    created_at: p.created_at,
    ...(p.items ? { items: p.items.map(itemWire) } : {}),
  };
}

/** A purchase as answered: the wire shape with its partner's slug read from the slice (seeded, seed.ts). */
export const purchaseWire = (s: Services, p: PurchaseRow): Purchase =>
  formatPurchase(p, partnerOf(s, p.account_id).slug);

export type NewPurchase = Pick<
  PurchaseRow,
  "account_id" | "custody" | "tier_id" | "price_micros" | "purchaser_address" | "external_user_id"
> &
  Partial<Pick<PurchaseRow, "onchain_request_id" | "transaction_hash" | "max_price_micros" | "block_number">>;

/**
 * A new row, through its table's first move: a custodial purchase is reserved (its hold taken, purchase.reserved,
 * due for the relayer), a non-custodial one submitted (its transaction is mined, purchase.submitted).
 */
export function newPurchase(s: Services, init: NewPurchase): PurchaseRow {
  const now = s.clock.nowIso();
  const custodial = init.custody === "CUSTODIAL";
  const trigger = custodial ? "reserve" : "submit";
  const row: PurchaseRow = {
    account_id: init.account_id,
    custody: init.custody,
    status: startState(MYSTERY_PURCHASE, trigger),
    tier_id: init.tier_id,
    price_micros: init.price_micros,
    onchain_request_id: init.onchain_request_id ?? null,
    transaction_hash: init.transaction_hash ?? null,
    purchaser_address: init.purchaser_address,
    external_user_id: init.external_user_id,
    reserved_at: custodial ? now : null,
    submitted_at: custodial ? null : now,
    id: s.store.nextId(COUNTERS.mysteryPurchase),
    created_at: s.clock.nowIso(),
    items: null,
    failure_reason: null,
    fulfilled_at: null,
    ...(init.max_price_micros === undefined ? {} : { max_price_micros: init.max_price_micros }),
    ...(init.block_number === undefined ? {} : { block_number: init.block_number }),
  };
  mystery(s).purchases[row.id] = row;
  return beginPurchase(s, row, trigger);
}

/** The PurchaseRequested log of the MysteryPool contract in a receipt. */
export function purchaseRequestedIn(s: Services, receipt: TransactionReceipt) {
  const mysteryPool = chainOf(s).addresses.mysteryPool.toLowerCase();
  const logs = receipt.logs.filter((l) => l.address.toLowerCase() === mysteryPool);
  return parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRequested", logs })[0]?.args;
}

// ---------------------------------------------------------------- reveal

/**
 * Reads the pool for a submitted purchase and moves it to FULFILLED / PARTIALLY_FULFILLED /
 * REFUNDED when the chain says so. Exclusive per purchase (the worker, a submit and operator
 * actions may all trigger it; a read never does): the second caller waits and finds the row settled.
 */
export function settleFromChain(s: Services, purchaseId: number): Promise<void> {
  return withKeyLock(s, purchaseLockKey(purchaseId), () => settleLocked(s, purchaseId));
}

/** settleFromChain with the purchase's lock held. Sends no transaction except the refund of a failed reveal. */
async function settleLocked(s: Services, purchaseId: number): Promise<void> {
  // A reveal read from the chain a restore replaced is not written into the restored books (pipeline/generation.ts).
  const since = generation(s);
  const before = mystery(s).purchases[purchaseId];
  if (!before || before.status !== "SUBMITTED" || !before.onchain_request_id || !s.chainHost) return;
  const chain = s.chainHost.gateway;
  const requestId = BigInt(before.onchain_request_id);
  // A request found waiting is not read again until a transaction (or a state edit) changes the chain's contents.
  const looked = s.runtime.of(LOOKED);
  const at = chain.contentKey();
  if (at !== null && looked.get(before.onchain_request_id) === at) return;
  const onChain = await mysteryPoolPurchase(chain, requestId);
  if (onChain.status !== MYSTERY_POOL_STATUS.REQUESTED) looked.delete(before.onchain_request_id);
  if (onChain.status === MYSTERY_POOL_STATUS.REVEALED) {
    // Every record of the reveal in one multicall; its transaction as the VRF scan saw the fulfilment (the pool
    // reveals only in the coordinator's callback), else its log searched from the purchase's own block.
    const { tokens, short, refund } = await revealedRecords(chain, requestId, onChain.tokenIds);
    const revealTx =
      chain.fulfilmentOf(requestId) ??
      (await revealLogs(chain, requestId, purchaseBlock(chain, before)))[0]?.transactionHash ??
      null;
    const items = [];
    for (const [index, tokenId] of onChain.tokenIds.entries()) {
      const { rec, item } = tokens[index]!;
      const type =
        groupOf(rec.groupId)?.itemType ??
        (["CARD", "GRADED_CARD", "PACKET", "SEALED_PRODUCT"] as const)[item.itemType] ??
        "CARD";
      items.push(
        hydrate(
          s.catalog,
          {
            tokenId: tokenId.toString(),
            groupId: rec.groupId,
            itemType: type,
            valueMicros: item.value,
          },
          steeredCard(s, before.onchain_request_id, index),
        ),
      );
    }
    // An operator shortfall (purchases/shortfall.ts) is on chain: the reveal minted only the
    // delivered items and paid the undelivered share back to the payer in the same call (`short`, `refund`).
    const row = mystery(s).purchases[purchaseId];
    if (!row || row.status !== "SUBMITTED" || replaced(s, since)) return;
    const patch = { fulfilled_at: s.clock.nowIso(), items };
    if (short > 0) {
      const undelivered = `${short} of ${items.length + short} items could not be delivered`;
      const reason = `partially_fulfilled: ${undelivered}; ${usdc(refund)} USDC was refunded`;
      // Custodial: the pool paid the relayer back; the end user gets it on the balance (the table's REFUND_CREDIT).
      const partial = { ...patch, refunded_micros: refund.toString(), failure_reason: reason };
      stepPurchase(s, row, "reveal_short", partial, { refund });
    } else stepPurchase(s, row, "reveal", patch);
    emitItemsPulled(s, row, { cardContract: chain.addresses.cardNft, revealTx });
  } else if (onChain.status === MYSTERY_POOL_STATUS.REFUNDED) {
    const row = mystery(s).purchases[purchaseId];
    if (!row || row.status !== "SUBMITTED" || replaced(s, since)) return;
    // The pool paid the price back to the payer: the end user's wallet, or the
    // relayer for a custodial purchase, whose end user gets the balance back.
    const reason = { failure_reason: row.failure_reason ?? "refunded on chain" };
    stepPurchase(s, row, "refund", reason, { refund: BigInt(row.price_micros) });
  } else if (!replaced(s, since) && onChain.status === MYSTERY_POOL_STATUS.REQUESTED) {
    if ((await chain.pendingVrfRequests()).includes(requestId)) {
      // Still waiting, and nothing changed while it was read: the empty blocks of the clock need no look again.
      if (at !== null && chain.contentKey() === at) looked.set(before.onchain_request_id, at);
      return;
    }
    // The coordinator answered but the pool's callback reverted (RandomWordsFulfilled
    // success=false): the reveal can never happen, so the operator refunds it.
    if (await refundLocked(s, purchaseId, "reveal_failed: the VRF callback reverted; the price was refunded"))
      await settleLocked(s, purchaseId);
  }
}

/** Request id → the chain's contents (`Chain.contentKey`) with which the request was last found waiting. */
const LOOKED = runtimeSlot("mystery reveals looked at", () => new Map<string, string>());

/**
 * The request is known to wait at content key `key` without reading it (the relayer's own transaction made it and
 * nothing changed since): the reconciler reads it first when the chain's contents change.
 */
export function noteWaiting(s: Services, requestId: string, key: string): void {
  s.runtime.of(LOOKED).set(requestId, key);
}

/** The block of the purchase's transaction (where its reveal log search starts); older rows: the deployment's. */
function purchaseBlock(chain: Chain, p: PurchaseRow): bigint {
  return p.block_number === undefined ? chain.deployBlock : BigInt(p.block_number);
}

/**
 * The operator refunds a purchase whose reveal has not happened (MysteryPool.refundPurchase),
 * then the row follows the chain to REFUNDED. False when the chain no longer has it pending.
 */
export function refundOnChain(s: Services, purchaseId: number, reason: string): Promise<boolean> {
  // Exclusive per purchase: an operator action and the worker may both find the failed
  // reveal; the second one waits, sees it refunded on chain and sends nothing.
  return withKeyLock(s, purchaseLockKey(purchaseId), async () => {
    const sent = await refundLocked(s, purchaseId, reason);
    if (sent) await settleLocked(s, purchaseId);
    return sent;
  });
}

async function refundLocked(s: Services, purchaseId: number, reason: string): Promise<boolean> {
  const since = generation(s);
  const chain = chainOf(s);
  const p = mystery(s).purchases[purchaseId];
  if (!p || p.status !== "SUBMITTED" || !p.onchain_request_id) return false;
  const requestId = BigInt(p.onchain_request_id);
  if ((await mysteryPoolPurchase(chain, requestId)).status !== MYSTERY_POOL_STATUS.REQUESTED) return false;
  const data = encodeFunctionData({ abi: mysteryPoolAbi, functionName: "refundPurchase", args: [requestId] });
  const receipt = await sendAs(chain, chain.operator, chain.addresses.mysteryPool, data).catch(() => null);
  if (!receipt || receipt.status !== "success" || replaced(s, since)) return false;
  const row = mystery(s).purchases[purchaseId];
  if (row && row.status === "SUBMITTED") row.failure_reason = reason;
  return true;
}

/** Settles every SUBMITTED purchase; with `onError` (the worker) one failing purchase is reported and the rest go on. */
export async function settleAllFromChain(s: Services, onError?: JobErrorHandler): Promise<void> {
  const ids = Object.values(mystery(s).purchases)
    .filter((p) => p.status === "SUBMITTED")
    .map((p) => p.id);
  for (const id of ids)
    if (!onError) await settleFromChain(s, id);
    else await settleFromChain(s, id).catch((err: unknown) => onError(`purchase ${id} reveal`, err));
}

// ---------------------------------------------------------------- reads

/**
 * A purchase of the account (others' are 404, labelled as asked), as the books hold it: the reconciler settled
 * every reveal mined before the request (pipeline/reconcile.ts); a read never settles.
 */
export function readPurchase(s: Services, accountId: string, id: number | null, label: string): PurchaseRow {
  const row = id === null ? undefined : own(mystery(s).purchases, String(id));
  if (!row || row.account_id !== accountId) throw notFound(`No purchase ${label} on this account`);
  return row;
}

export interface PurchaseFilter {
  status: PurchaseStatus | null;
  external_user_id: string | null;
  /** Lower-case purchaser address. */
  wallet: string | null;
}

/** The account's purchases, newest first, as the books hold them (a read never settles: pipeline/reconcile.ts). */
export function listPurchases(s: Services, accountId: string, f: PurchaseFilter): PurchaseRow[] {
  return Object.values(mystery(s).purchases)
    .filter((p) => p.account_id === accountId)
    .filter((p) => !f.status || p.status === f.status)
    .filter((p) => !f.external_user_id || p.external_user_id === f.external_user_id)
    .filter((p) => !f.wallet || p.purchaser_address.toLowerCase() === f.wallet)
    .sort((a, b) => b.id - a.id);
}
