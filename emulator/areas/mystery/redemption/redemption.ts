import { encodeFunctionData } from "../../../../chain/viem-late.ts";
import { BURN_TYPE_LABELS, cardNftAbi } from "../../../../chain/index.ts";
import { conflict, notFound } from "../../../pipeline/errors.ts";
import type { Services } from "../../../pipeline/services.ts";
import { burnState, chainOf, ownerOf, sendAs } from "../chain-io.ts";
import type {
  Redemption,
  RedemptionPrepareResult,
  RedemptionSubmitResult,
} from "../../../../contract/mystery/redemption.ts";
import { LIVE_REDEMPTION, mystery, type RedemptionRow, type RedemptionStatus } from "../state.ts";
import { stepRedemption } from "./lifecycle.ts";
import { isPaid, paymentCalls, paymentTx, paymentView, refundShipping } from "./payment.ts";

// Physical redemption, "burn on dispatch" (docs/reference/api-rules.md “States and transitions”; docs/reference/live-service.md “Redemption”):
// PREPARED → BURN_SUBMITTED → IN_FULFILLMENT → COMPLETED, or
// FAILED / CANCELLED / EXPIRED. The holder flags the token (burn) and pays the
// shipping on chain (payment.ts); the warehouse starts only once the payment
// has landed, and the operator finalises the burn when the item ships. KYC
// runs only for partners that require it (kyc.ts): the row stays PREPARED
// with kyc_status PENDING, without calls, until the operator decides. This file: the rows, their
// format, the status moves (KYC, warehouse, cancel) and the reads; prepare.ts
// and submit.ts take the partner's requests, jobs.ts the worker's.

export const PREPARE_TTL_MS = 24 * 60 * 60 * 1000;

export const isLive = (r: RedemptionRow) => LIVE_REDEMPTION.includes(r.status);

export function liveRedemptionFor(s: Services, accountId: string, tokenId: string): RedemptionRow | undefined {
  return Object.values(mystery(s).redemptions).find(
    (r) => r.account_id === accountId && r.token_id === tokenId && isLive(r),
  );
}

const kycView = (r: RedemptionRow) => ({
  status: r.kyc_status,
  kyc_url: r.kyc_status === "PENDING" ? kycUrl(r) : null,
});

/** A redemption as get and list answer it. */
export function redemptionWire(r: RedemptionRow): Redemption {
  const burning = r.status === "BURN_SUBMITTED" || r.status === "IN_FULFILLMENT";
  return {
    redemption_id: r.redemption_id,
    purchase_id: r.purchase_id,
    token_id: r.token_id,
    item_type: r.item_type,
    status: r.status,
    kyc: kycView(r),
    burn: {
      // null until a burn is recorded (submitted).
      db_status: r.is_burned ? "REDEEMED" : burning ? "PENDING_REDEEM" : null,
      is_burned: r.is_burned,
      burn_type: r.burn_type,
      burn_type_label: BURN_TYPE_LABELS[r.burn_type] ?? null,
    },
    queue: {
      status:
        r.status === "IN_FULFILLMENT" ? "PICKING" : r.status === "COMPLETED" ? "SHIPPED" : burning ? "QUEUED" : null,
    },
    order: {
      status: r.status === "COMPLETED" ? "SHIPPED" : r.status === "IN_FULFILLMENT" ? "PROCESSING" : "PENDING",
      tracking_number: r.tracking_number,
    },
    burn_tx_hash: r.burn_tx_hash,
    shipping_quote: r.shipping_quote,
    failure_reason: r.failure_reason,
    expires_at: r.expires_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** The holder has calls only while the redemption is PREPARED and no KYC is pending. */
export const awaitingKyc = (r: RedemptionRow) => r.kyc_status === "PENDING";

/** A redemption as prepare answers it: with the shipping payment and the holder's calls. */
export function preparedWire(s: Services, r: RedemptionRow): RedemptionPrepareResult {
  return {
    redemption_id: r.redemption_id,
    purchase_id: r.purchase_id,
    status: r.status,
    item_type: r.item_type,
    token_id: r.token_id,
    kyc: kycView(r),
    shipping_quote: r.shipping_quote,
    shipping_payer: "end_user",
    shipping_payment: paymentView(r),
    expires_at: r.expires_at,
    unsigned: r.status === "PREPARED" && !awaitingKyc(r) ? unsignedCalls(s, r) : null,
  };
}

/** The operator's view (control plane): the row with its calls and shipping payment. */
export const operatorWire = (s: Services, r: RedemptionRow) => {
  const { shipping_payer, shipping_payment, unsigned } = preparedWire(s, r);
  return { ...redemptionWire(r), shipping_payer, shipping_payment, unsigned };
};

/** What submit answers: the burn it recorded (no label is bought at submit: tracking comes with get). */
export function submitWire(r: RedemptionRow & { burn_tx_hash: string }): RedemptionSubmitResult {
  return { redemption_id: r.redemption_id, status: r.status, burn_tx_hash: r.burn_tx_hash };
}

const kycUrl = (r: RedemptionRow) => `https://kyc.emulator.test/verify/${r.account_id}/${r.redemption_id}`;

/** The holder's calls, in order: burn flag, USDC approve, payShipping (SDK 0.1.2 RedemptionCallKind). */
function unsignedCalls(s: Services, r: RedemptionRow) {
  const chain = chainOf(s);
  return {
    chain_id: chain.chainId,
    calls: [
      {
        kind: "burn" as const,
        to: chain.addresses.cardNft,
        data: encodeFunctionData({
          abi: cardNftAbi,
          functionName: "initiateBurn",
          args: [BigInt(r.token_id), r.burn_type],
        }),
        description: `Flag token ${r.token_id} for redemption (${BURN_TYPE_LABELS[r.burn_type]}); it burns when the item ships`,
      },
      ...paymentCalls(chain, r),
    ],
  };
}

/** KYC decision (control action): approved gives a PREPARED redemption waiting for KYC its calls; declined ends it FAILED. */
export function decideKyc(s: Services, id: number, approve: boolean): RedemptionRow {
  const r = mystery(s).redemptions[id];
  if (!r) throw notFound(`No redemption ${id}`);
  if (r.status !== "PREPARED" || !awaitingKyc(r))
    throw conflict("invalid_status", `Redemption ${id} is ${r.status} (KYC ${r.kyc_status}), not waiting for KYC`);
  mystery(s).kyc[`${r.account_id}:${r.holder.toLowerCase()}`] = approve ? "APPROVED" : "DECLINED";
  r.kyc_status = approve ? "APPROVED" : "DECLINED";
  if (approve) stepRedemption(s, r, "kyc_approved");
  else stepRedemption(s, r, "kyc_declined", { failure_reason: "kyc_declined" });
  return r;
}

/**
 * Reads the chain for the redemption's shipping payment and records it: a BURN_SUBMITTED row
 * whose payment just landed is due for fulfilment FULFILLMENT_DELAY_MS later (auto mode).
 */
export async function notePayment(s: Services, id: number): Promise<void> {
  const first = mystery(s).redemptions[id];
  if (!first?.shipping || first.shipping.paid_tx_hash) return;
  const tx = await paymentTx(chainOf(s), first);
  const r = mystery(s).redemptions[id];
  if (!tx || !r?.shipping || r.shipping.paid_tx_hash) return;
  r.shipping.paid_tx_hash = tx;
  if (r.status === "BURN_SUBMITTED" && r.due_at_ms === null) stepRedemption(s, r, "paid");
}

/** Warehouse: begin fulfilment (BURN_SUBMITTED → IN_FULFILLMENT), only once the shipping is paid on chain. */
export function startFulfillment(s: Services, id: number): RedemptionRow {
  const r = mystery(s).redemptions[id];
  if (!r) throw notFound(`No redemption ${id}`);
  if (r.status !== "BURN_SUBMITTED")
    throw conflict("invalid_status", `Redemption ${id} is ${r.status}; fulfilment starts from BURN_SUBMITTED`);
  if (!isPaid(r))
    throw conflict(
      "shipping_unpaid",
      `Redemption ${id}: the shipping payment for ${r.shipping!.provider_order_id} has not landed on chain; the item ships once it has`,
    );
  return stepRedemption(s, r, "fulfil");
}

/** Statuses a redemption can be cancelled from: anything not shipped or ended. */
const CANCELLABLE: readonly RedemptionStatus[] = ["PREPARED", "BURN_SUBMITTED", "IN_FULFILLMENT"];

/**
 * Ends a redemption that will not ship (an unpaid burn past its quote's expiry, or an operator
 * cancel) with `status`: the burn flagged for it is cancelled on chain, so the token is free
 * again, and a landed shipping payment is paid back. The chain steps are best effort (`onError`);
 * the status moves all the same.
 */
export async function endUnshipped(
  s: Services,
  id: number,
  status: "CANCELLED" | "EXPIRED",
  reason: string,
  onError: (what: string, err: unknown) => void,
): Promise<RedemptionRow> {
  const first = mystery(s).redemptions[id];
  if (!first) throw notFound(`No redemption ${id}`);
  if (!CANCELLABLE.includes(first.status))
    throw conflict("invalid_status", `Redemption ${id} is ${first.status}; only a redemption not yet shipped can end`);
  let burnCancelled = false;
  let refund: string | null = null;
  if (s.chainHost) {
    const chain = s.chainHost.gateway;
    const tokenId = BigInt(first.token_id);
    try {
      const [burn, owner] = [await burnState(chain, tokenId), await ownerOf(chain, tokenId)];
      if (burn.pending && burn.burnType === first.burn_type && owner?.toLowerCase() === first.holder.toLowerCase()) {
        const data = encodeFunctionData({ abi: cardNftAbi, functionName: "cancelBurn", args: [tokenId] });
        burnCancelled = (await sendAs(chain, chain.operator, chain.addresses.cardNft, data)).status === "success";
      }
    } catch (err) {
      onError(`redemption ${id} cancelBurn`, err);
    }
    try {
      await notePayment(s, id);
      const now = mystery(s).redemptions[id];
      if (now) refund = await refundShipping(chain, now);
    } catch (err) {
      onError(`redemption ${id} shipping refund`, err);
    }
  }
  const r = mystery(s).redemptions[id];
  if (!r || !CANCELLABLE.includes(r.status)) return r ?? first;
  if (refund && r.shipping) r.shipping.refund_tx_hash = refund;
  const cancelled = burnCancelled ? " (the burn flagged on chain was cancelled)" : "";
  const failure_reason = `${reason}${cancelled}${refund ? " (the shipping payment was paid back)" : ""}`;
  return stepRedemption(s, r, status === "CANCELLED" ? "cancel" : "expire", { failure_reason });
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
  if (first.status !== "IN_FULFILLMENT")
    throw conflict("invalid_status", `Redemption ${id} is ${first.status}; dispatch needs IN_FULFILLMENT`);
  const chain = chainOf(s);
  const tokenId = BigInt(first.token_id);
  let failure: string | null = null;
  const burn = await burnState(chain, tokenId);
  if (!burn.pending)
    failure = `the burn of token ${first.token_id} is no longer pending on chain (cancelled or already finalised)`;
  else
    try {
      const receipt = await sendAs(
        chain,
        chain.operator,
        chain.addresses.cardNft,
        encodeFunctionData({ abi: cardNftAbi, functionName: "finalizeBurn", args: [tokenId] }),
      );
      if (receipt.status !== "success") failure = "finalizeBurn reverted (no pending burn on chain)";
    } catch (err) {
      failure = `finalizeBurn could not be sent: ${(err as Error).message.split("\n")[0]}`;
    }
  const r = mystery(s).redemptions[id];
  if (!r || r.status !== "IN_FULFILLMENT") return r ?? first;
  if (failure) return stepRedemption(s, r, "dispatch_failed", { failure_reason: failure });
  const tracking_number = `9400${String(r.redemption_id).padStart(18, "0")}`;
  return stepRedemption(s, r, "dispatch", { is_burned: true, tracking_number });
}

// ---------------------------------------------------------------- reads

/**
 * The account's redemptions of a purchase (a purchase id of the account) and of a token (the SDK
 * polls by token id), newest first; 404 when none. A number that names both gives both: the SDK's
 * waitForCompletion picks its own row by redemption_id.
 */
export function redemptionsFor(
  s: Services,
  accountId: string,
  purchaseId: number | null,
  raw: string,
): RedemptionRow[] {
  const slice = mystery(s);
  const purchase = purchaseId === null ? undefined : slice.purchases[purchaseId];
  const ofPurchase = purchase && purchase.account_id === accountId ? purchase.id : null;
  const rows = Object.values(slice.redemptions).filter(
    (r) => r.account_id === accountId && (r.purchase_id === ofPurchase || r.token_id === raw),
  );
  if (rows.length === 0) throw notFound(`No redemption for purchase or token ${raw}`);
  return rows.sort((a, b) => b.redemption_id - a.redemption_id);
}

/** The account's redemptions (of one status, when given), newest first. */
export function listRedemptions(s: Services, accountId: string, status: RedemptionStatus | null): RedemptionRow[] {
  return Object.values(mystery(s).redemptions)
    .filter((r) => r.account_id === accountId && (!status || r.status === status))
    .sort((a, b) => b.redemption_id - a.redemption_id);
}
