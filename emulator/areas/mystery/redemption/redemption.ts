import { encodeFunctionData, parseEventLogs } from "viem";
import { BURN_TYPES, BURN_TYPE_LABELS, cardNftAbi } from "../../../../chain/index.ts";
import { badRequest, conflict, notFound } from "../../../pipeline/errors.ts";
import type { HandlerContext } from "../../../pipeline/route.ts";
import type { Services } from "../../../pipeline/services.ts";
import { burnState, chainOf, ownerOf, receiptOf, sendAs } from "../chain-io.ts";
import { settleFromChain } from "../purchases/purchases.ts";
import { LIVE_REDEMPTION, mystery, type ItemRow, type PurchaseRow, type RedemptionRow } from "../state.ts";
import { intId } from "../../../pipeline/identifiers.ts";
import { emit, isoAt, JOB_RETRY_MS, tokenIdParam, type Body, type JobErrorHandler } from "../util.ts";

// Physical redemption, "burn on dispatch" (interface; service-facts §4.7
// generation A with KYC): AWAITING_KYC → PREPARED → BURN_SUBMITTED →
// IN_FULFILLMENT → COMPLETED. The burn is initiated by the holder and
// finalised by the operator when the warehouse dispatches the item.

export const FULFILLMENT_DELAY_MS = 60 * 60 * 1000; // BURN_SUBMITTED → IN_FULFILLMENT (auto mode)
export const DISPATCH_DELAY_MS = 24 * 60 * 60 * 1000; // IN_FULFILLMENT → COMPLETED (auto mode)
export const PREPARE_TTL_MS = 24 * 60 * 60 * 1000;

export interface Target {
  purchase: PurchaseRow;
  item: ItemRow;
}

const isLive = (r: RedemptionRow) => LIVE_REDEMPTION.includes(r.status);

export function liveRedemptionFor(s: Services, accountId: string, tokenId: string): RedemptionRow | undefined {
  return Object.values(mystery(s).redemptions).find((r) => r.account_id === accountId && r.token_id === tokenId && isLive(r));
}

/** purchase_id (+ token_id when several items qualify) or token_id alone → the item to redeem. */
export async function resolveTarget(c: HandlerContext, b: Body): Promise<Target> {
  const acct = c.key!.account_id;
  const purchaseId = b.purchase_id === undefined || b.purchase_id === null ? null : intId(b.purchase_id, "purchase_id");
  const rawToken = b.token_id;
  const hasToken = rawToken !== undefined && rawToken !== null && rawToken !== "";
  const tokenId = hasToken ? tokenIdParam(rawToken, "token_id") : null;
  if (b.purchase_id !== undefined && b.purchase_id !== null && purchaseId === null) throw notFound(`No purchase ${String(b.purchase_id)} on this account`);
  if (purchaseId === null && !hasToken) throw badRequest("purchase_or_token_required", "Send purchase_id (and token_id when the purchase has several items) or token_id");
  let purchase: PurchaseRow | undefined;
  if (purchaseId !== null) {
    purchase = mystery(c.services).purchases[purchaseId];
    if (!purchase || purchase.account_id !== acct) throw notFound(`No purchase ${purchaseId} on this account`);
  } else {
    if (tokenId === null) throw conflict("invalid_token_id", `token_id ${String(rawToken)} is not a token id`);
    purchase = Object.values(mystery(c.services).purchases).find((p) => p.account_id === acct && p.items?.some((i) => i.token_id === tokenId));
    if (!purchase) throw notFound(`No token ${tokenId} from this account's purchases`, "token_not_found");
  }
  await settleFromChain(c.services, purchase.id);
  purchase = mystery(c.services).purchases[purchase.id]!;
  if (purchase.status !== "FULFILLED" || !purchase.items) throw conflict("not_fulfilled", `Purchase ${purchase.id} is ${purchase.status}; it can be redeemed once FULFILLED`);
  let item: ItemRow | undefined;
  if (hasToken) {
    if (tokenId === null) throw conflict("invalid_token_id", `token_id ${String(rawToken)} is not a token id`);
    item = purchase.items.find((i) => i.token_id === tokenId);
    if (!item) throw conflict("invalid_token_id", `Token ${tokenId} is not an item of purchase ${purchase.id}`, { details: { token_ids: purchase.items.map((i) => i.token_id) } });
  } else {
    const open = purchase.items.filter((i) => i.item_type !== "PACKET" && !Object.values(mystery(c.services).redemptions).some((r) => r.token_id === i.token_id && (isLive(r) || r.status === "COMPLETED")));
    if (open.length === 0) throw conflict("no_items", `Purchase ${purchase.id} has no items left to redeem`);
    if (open.length > 1) throw badRequest("token_required", `Purchase ${purchase.id} has ${open.length} redeemable items; send token_id`, { details: { token_ids: open.map((i) => i.token_id) } });
    item = open[0]!;
  }
  if (item.item_type === "PACKET") throw badRequest("unsupported_item", "PACKET items are opened on chain, not shipped; redeem cards, graded cards or sealed products");
  return { purchase, item };
}

/** The holder must still hold the token (not burned, not moved, not frozen by another burn). */
export async function checkHolder(s: Services, t: Target, forPrepare: boolean): Promise<`0x${string}`> {
  const chain = chainOf(s);
  const id = BigInt(t.item.token_id);
  const owner = await ownerOf(chain, id);
  if (!owner) throw conflict("no_holder", `Token ${t.item.token_id} has no holder (burned or never minted)`);
  if (!forPrepare) return owner;
  const burn = await burnState(chain, id);
  if (burn.pending) throw conflict("not_burnable", `Token ${t.item.token_id} already has a pending ${BURN_TYPE_LABELS[burn.burnType]} burn`);
  if (owner.toLowerCase() !== t.purchase.purchaser_address.toLowerCase())
    throw conflict("not_owner", `Token ${t.item.token_id} moved: it is held by ${owner}, not the purchaser ${t.purchase.purchaser_address}`);
  return owner;
}

export const burnTypeOf = (item: ItemRow) => (item.item_type === "SEALED_PRODUCT" ? BURN_TYPES.REDEEM_PRODUCT : BURN_TYPES.REDEEM_CARD);

export function formatRedemption(s: Services, r: RedemptionRow, withCalls = false): Record<string, unknown> {
  const burning = r.status === "BURN_SUBMITTED" || r.status === "IN_FULFILLMENT";
  const out: Record<string, unknown> = {
    redemption_id: r.redemption_id,
    purchase_id: r.purchase_id,
    token_id: r.token_id,
    item_type: r.item_type,
    status: r.status,
    failure_reason: r.failure_reason,
    kyc: { status: r.kyc_status, kyc_url: r.kyc_status === "PENDING" ? kycUrl(r) : null },
    burn: {
      db_status: r.is_burned ? "REDEEMED" : burning ? "PENDING_REDEEM" : "NONE",
      is_burned: r.is_burned,
      burn_type: r.burn_type,
      burn_type_label: BURN_TYPE_LABELS[r.burn_type],
      label: BURN_TYPE_LABELS[r.burn_type],
    },
    queue: { status: r.status === "IN_FULFILLMENT" ? "PICKING" : r.status === "COMPLETED" ? "SHIPPED" : burning ? "QUEUED" : "NONE" },
    order: { status: r.status === "COMPLETED" ? "SHIPPED" : r.status === "IN_FULFILLMENT" ? "PROCESSING" : "PENDING", tracking_number: r.tracking_number },
    burn_tx_hash: r.burn_tx_hash,
    shipping_quote: r.shipping_quote,
    shipping_address: r.shipping_address,
    expires_at: r.expires_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
  if (withCalls) out.unsigned = r.status === "PREPARED" ? unsignedCalls(s, r) : null;
  return out;
}

const kycUrl = (r: RedemptionRow) => `https://kyc.emulator.test/verify/${r.account_id}/${r.redemption_id}`;

function unsignedCalls(s: Services, r: RedemptionRow) {
  const chain = chainOf(s);
  return {
    chain_id: chain.chainId,
    calls: [
      {
        kind: "burn",
        to: chain.addresses.cardNft,
        data: encodeFunctionData({ abi: cardNftAbi, functionName: "initiateBurn", args: [BigInt(r.token_id), r.burn_type] }),
        value: "0",
        description: `Flag token ${r.token_id} for redemption (${BURN_TYPE_LABELS[r.burn_type]}); it burns when the item ships`,
      },
    ],
  };
}

function touch(s: Services, r: RedemptionRow, status: RedemptionRow["status"]): void {
  r.status = status;
  r.updated_at = s.clock.nowIso();
  emit(s, r.account_id, "redemption.updated", `${r.redemption_id}:${status}`, {
    redemption_id: r.redemption_id,
    purchase_id: r.purchase_id,
    token_id: r.token_id,
    item_type: r.item_type,
    status,
    burn_tx_hash: r.burn_tx_hash,
    failure_reason: r.failure_reason,
  });
}

/** KYC decision (control action): approved moves an AWAITING_KYC redemption to PREPARED. */
export function decideKyc(s: Services, id: number, approve: boolean): RedemptionRow {
  const r = mystery(s).redemptions[id];
  if (!r) throw notFound(`No redemption ${id}`);
  if (r.status !== "AWAITING_KYC") throw conflict("invalid_status", `Redemption ${id} is ${r.status}, not AWAITING_KYC`);
  mystery(s).kyc[`${r.account_id}:${r.holder.toLowerCase()}`] = approve ? "APPROVED" : "DECLINED";
  r.kyc_status = approve ? "APPROVED" : "DECLINED";
  if (approve) touch(s, r, "PREPARED");
  else {
    r.failure_reason = "kyc_declined";
    touch(s, r, "FAILED");
  }
  return r;
}

/**
 * Verifies the holder's initiateBurn transaction and moves PREPARED →
 * BURN_SUBMITTED. The receipt alone is not enough: a burn flagged for an
 * earlier (expired) redemption may have been cancelled since, leaving the
 * token free to move. So the token's current on-chain state must be exactly
 * this burn: pending, of the redemption's burn type, held by the holder, and
 * no later BurnInitiated for the token (a cancel + re-flag would be newer).
 */
export async function submitBurn(s: Services, r: RedemptionRow, hash: `0x${string}`): Promise<void> {
  const chain = chainOf(s);
  const receipt = await receiptOf(chain, hash);
  const invalid = (why: string, reason: string) => badRequest("invalid_tx_hash", `tx_hash ${why}`, { details: { tx_hash: hash, reason } });
  if (!receipt) throw invalid("is not on the chain (submit after the burn transaction is mined)", "not_found");
  if (receipt.status !== "success") throw invalid("reverted on chain", "reverted");
  const nft = chain.addresses.cardNft.toLowerCase();
  const burns = parseEventLogs({ abi: cardNftAbi, eventName: "BurnInitiated", logs: receipt.logs.filter((l) => l.address.toLowerCase() === nft) });
  const mine = burns.find((e) => e.args.tokenId.toString() === r.token_id);
  if (!mine) throw invalid(`has no BurnInitiated for token ${r.token_id}`, "no_burn");
  if (mine.args.burnType !== r.burn_type)
    throw invalid(`flags token ${r.token_id} for ${BURN_TYPE_LABELS[mine.args.burnType] ?? mine.args.burnType}, not ${BURN_TYPE_LABELS[r.burn_type]}`, "wrong_burn_type");
  if (mine.args.holder.toLowerCase() !== r.holder.toLowerCase()) throw invalid(`was sent by ${mine.args.holder}, not the holder ${r.holder}`, "wrong_holder");
  const tokenId = BigInt(r.token_id);
  const burn = await burnState(chain, tokenId);
  const owner = await ownerOf(chain, tokenId);
  const later = await chain.publicClient.getContractEvents({
    address: chain.addresses.cardNft,
    abi: cardNftAbi,
    eventName: "BurnInitiated",
    args: { tokenId },
    fromBlock: receipt.blockNumber,
  });
  const latest = later.at(-1);
  if (!burn.pending || burn.burnType !== r.burn_type || owner?.toLowerCase() !== r.holder.toLowerCase() || latest?.transactionHash?.toLowerCase() !== hash.toLowerCase())
    throw invalid(`is not the pending burn of token ${r.token_id} (cancelled, finalised or superseded on chain); flag the token again with unsigned.calls`, "burn_not_pending");
  // Re-read after the awaits: the worker may have expired the redemption meanwhile
  // (it only expires rows past expires_at, so a row still before it is safe to move).
  const row = mystery(s).redemptions[r.redemption_id];
  if (!row || row.status !== "PREPARED" || Date.parse(row.expires_at) <= s.clock.now())
    throw conflict("invalid_status", `Redemption ${r.redemption_id} is ${row?.status ?? "gone"}${row && row.status === "PREPARED" ? " but expired" : ""}; only PREPARED redemptions take a burn transaction`);
  row.burn_tx_hash = receipt.transactionHash;
  row.next_step_at = s.clock.now() + FULFILLMENT_DELAY_MS;
  touch(s, row, "BURN_SUBMITTED");
}

/** Warehouse: begin fulfilment (BURN_SUBMITTED → IN_FULFILLMENT). */
export function startFulfillment(s: Services, id: number): RedemptionRow {
  const r = mystery(s).redemptions[id];
  if (!r) throw notFound(`No redemption ${id}`);
  if (r.status !== "BURN_SUBMITTED") throw conflict("invalid_status", `Redemption ${id} is ${r.status}; fulfilment starts from BURN_SUBMITTED`);
  r.next_step_at = s.clock.now() + DISPATCH_DELAY_MS;
  touch(s, r, "IN_FULFILLMENT");
  return r;
}

/**
 * Warehouse: dispatch (IN_FULFILLMENT → COMPLETED); the operator finalises the
 * burn on chain. When the chain has no pending burn to finalise (cancelled
 * meanwhile), or the transaction cannot be sent, the redemption ends FAILED:
 * it never stays IN_FULFILLMENT behind an exception.
 */
export async function dispatch(s: Services, id: number): Promise<RedemptionRow> {
  const first = mystery(s).redemptions[id];
  if (!first) throw notFound(`No redemption ${id}`);
  if (first.status !== "IN_FULFILLMENT") throw conflict("invalid_status", `Redemption ${id} is ${first.status}; dispatch needs IN_FULFILLMENT`);
  const chain = chainOf(s);
  const tokenId = BigInt(first.token_id);
  let failure: string | null = null;
  const burn = await burnState(chain, tokenId);
  if (!burn.pending) failure = `the burn of token ${first.token_id} is no longer pending on chain (cancelled or already finalised)`;
  else
    try {
      const receipt = await sendAs(chain, chain.operator, chain.addresses.cardNft, encodeFunctionData({ abi: cardNftAbi, functionName: "finalizeBurn", args: [tokenId] }));
      if (receipt.status !== "success") failure = "finalizeBurn reverted (no pending burn on chain)";
    } catch (err) {
      failure = `finalizeBurn could not be sent: ${(err as Error).message.split("\n")[0]}`;
    }
  const r = mystery(s).redemptions[id];
  if (!r || r.status !== "IN_FULFILLMENT") return r ?? first;
  r.next_step_at = null;
  if (failure) {
    r.failure_reason = failure;
    touch(s, r, "FAILED");
    return r;
  }
  r.is_burned = true;
  r.tracking_number = `9400${String(r.redemption_id).padStart(18, "0")}`;
  touch(s, r, "COMPLETED");
  return r;
}

/** Auto mode: takes every warehouse step that is due; one failing step is logged and retried later, never stopping the rest. */
export async function runDueRedemptions(s: Services, onError: JobErrorHandler): Promise<void> {
  const now = s.clock.now();
  const due = Object.values(mystery(s).redemptions)
    .filter((r) => r.next_step_at !== null && r.next_step_at <= now)
    .map((r) => r.redemption_id);
  for (const id of due) {
    try {
      const r = mystery(s).redemptions[id];
      if (!r || r.next_step_at === null || r.next_step_at > now) continue;
      if (r.status === "BURN_SUBMITTED") startFulfillment(s, id);
      else if (r.status === "IN_FULFILLMENT") await dispatch(s, id);
      else r.next_step_at = null;
    } catch (err) {
      onError(`redemption ${id} warehouse step`, err);
      // Not due again at once: a step that keeps failing must not spin the clock.
      const r = mystery(s).redemptions[id];
      if (r && r.next_step_at !== null && r.next_step_at <= s.clock.now()) r.next_step_at = s.clock.now() + JOB_RETRY_MS;
    }
  }
}

export const newExpiry = (s: Services) => isoAt(s.clock.now() + PREPARE_TTL_MS);

/** When a redemption expires (ms), or null once the burn is submitted or it ended. */
export function expiryDue(r: RedemptionRow): number | null {
  return r.status === "AWAITING_KYC" || r.status === "PREPARED" ? Date.parse(r.expires_at) : null;
}

/**
 * Expires every pre-burn redemption past `expires_at` (service-facts §4.7: 24 h).
 * A burn the holder flagged on chain but never submitted is cancelled by the
 * operator, so the card is not left frozen; the end user retries with a new key.
 */
export async function expireDueRedemptions(s: Services, onError: JobErrorHandler): Promise<void> {
  const now = s.clock.now();
  const due = Object.values(mystery(s).redemptions)
    .filter((r) => {
      const at = expiryDue(r);
      return at !== null && at <= now;
    })
    .map((r) => r.redemption_id);
  for (const id of due) {
    const before = mystery(s).redemptions[id]!;
    let cancelled = false;
    if (s.chain)
      try {
        const chain = s.chain.chain;
        const tokenId = BigInt(before.token_id);
        const [burn, owner] = [await burnState(chain, tokenId), await ownerOf(chain, tokenId)];
        if (burn.pending && burn.burnType === before.burn_type && owner?.toLowerCase() === before.holder.toLowerCase()) {
          const data = encodeFunctionData({ abi: cardNftAbi, functionName: "cancelBurn", args: [tokenId] });
          cancelled = (await sendAs(chain, chain.operator, chain.addresses.cardNft, data)).status === "success";
        }
      } catch (err) {
        // The redemption expires all the same; only the clean-up on chain is lost.
        onError(`redemption ${id} expiry (cancelBurn)`, err);
      }
    const r = mystery(s).redemptions[id];
    if (!r || expiryDue(r) === null) continue;
    r.failure_reason = cancelled ? "expired (the burn flagged on chain was cancelled)" : "expired";
    r.next_step_at = null;
    touch(s, r, "EXPIRED");
  }
}
