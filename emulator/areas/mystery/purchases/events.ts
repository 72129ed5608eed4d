import type { Services } from "../../../pipeline/services.ts";
import type { ItemRow, PurchaseRow } from "../state.ts";
import { emit, usdc } from "../util.ts";
import { parseUsdc } from "../../../../contract/money.ts";
import { COUNTERS } from "../../../state/ids.ts";

// One payload builder per purchase event, in the shapes of docs/reference/sdk-shapes.md “Webhook event data”
// ("Event → data fields"): the lifecycle code calls these, never writes a
// payload inline, so every emission of an event has the same keys.

/** A revealed item as webhooks carry it (WebhookPurchaseItem): the purchase's item without internals. */
export const webhookItem = ({ group_id: _g, ...item }: ItemRow) => item;

/** purchase.reserved: a custodial purchase took its hold. */
export const purchaseReservedData = (p: PurchaseRow) => ({ purchase_id: p.id, status: "RESERVED" as const });

/** purchase.submitted: custodial (relayer) with the hash and the VRF request; non-custodial with custody. */
export const purchaseSubmittedData = (p: PurchaseRow) =>
  p.custody === "CUSTODIAL"
    ? {
        purchase_id: p.id,
        status: "SUBMITTED" as const,
        transaction_hash: p.transaction_hash,
        onchain_request_id: p.onchain_request_id,
      }
    : {
        purchase_id: p.id,
        status: "SUBMITTED" as const,
        transaction_hash: p.transaction_hash,
        custody: "NON_CUSTODIAL" as const,
      };

/**
 * purchase.fulfilled: also sent for PARTIALLY_FULFILLED (the live list has no event of its own for
 * it); `status` then says PARTIALLY_FULFILLED and `items` lists only the delivered items.
 */
export const purchaseFulfilledData = (p: PurchaseRow) => ({
  purchase_id: p.id,
  status: p.status === "PARTIALLY_FULFILLED" ? ("PARTIALLY_FULFILLED" as const) : ("FULFILLED" as const),
  onchain_request_id: p.onchain_request_id,
  items: (p.items ?? []).map(webhookItem),
});

export const purchaseRefundedData = (p: PurchaseRow) => ({
  purchase_id: p.id,
  status: "REFUNDED" as const,
  onchain_request_id: p.onchain_request_id,
});

export const purchaseFailedData = (p: PurchaseRow) => ({
  purchase_id: p.id,
  status: "FAILED" as const,
  reason: p.failure_reason ?? "unknown",
});

const BUILDERS = {
  "purchase.reserved": purchaseReservedData,
  "purchase.submitted": purchaseSubmittedData,
  "purchase.fulfilled": purchaseFulfilledData,
  "purchase.refunded": purchaseRefundedData,
  "purchase.failed": purchaseFailedData,
} as const;

/** Publishes a purchase event built from the row as it is now. */
export function emitPurchase(s: Services, p: PurchaseRow, type: keyof typeof BUILDERS): void {
  emit(s, p.account_id, type, String(p.id), BUILDERS[type](p));
}

// ---------------------------------------------------------------- pool.item_pulled

/** The account's billing model, read from its partner keys (POOL when any key says so). */
function isPoolAccount(s: Services, accountId: string): boolean {
  return Object.values(s.store.state.keys).some(
    (k) => k.account_id === accountId && k.kind === "partner" && k.billing_model === "POOL",
  );
}

/**
 * pool.item_pulled (POOL model only): one event per item a reveal drew from the partner's pool.
 * `usage_id` numbers the pool usages; `value_source` is where the item's value came from (the
 * pool's on-chain oracle value, set at mint); `transaction_hash` is the reveal's when known.
 */
export function emitItemsPulled(
  s: Services,
  p: PurchaseRow,
  ctx: { cardContract: string; revealTx: string | null },
): void {
  if (!isPoolAccount(s, p.account_id)) return;
  for (const item of p.items ?? []) {
    const usageId = s.store.nextId(COUNTERS.mysteryPoolUsage);
    const value = parseUsdc(item.value_usd) ?? 0n;
    emit(s, p.account_id, "pool.item_pulled", `${item.token_id}`, {
      token_id: item.token_id,
      item_type: item.item_type,
      contract_address: ctx.cardContract,
      card_id: item.card_id ?? null,
      category: item.category,
      game: item.card_id ? (s.catalog.cardAnyGame(item.card_id)?.game ?? null) : null,
      to: p.purchaser_address,
      transaction_hash: ctx.revealTx,
      amount_usdc: usdc(value),
      value_source: "buyback_oracle",
      value_unknown: value === 0n,
      usage_id: usageId,
      purchase_id: p.id,
    });
  }
}
