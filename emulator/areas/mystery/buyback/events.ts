import { mystery, type OfferRow, type TransferRow } from "../state.ts";
import type { Services } from "../../../pipeline/services.ts";
import { usdc } from "../util.ts";

// One payload builder per buyback event, in the shapes of docs/reference/sdk-shapes.md “Webhook event data”:
// every event starts with the common keys B (purchase_id, offer_id, token_id).

/** The common buyback keys (purchase_id is null for an offer made token-first). */
const common = (o: OfferRow) => ({ purchase_id: o.purchase_id, offer_id: o.offer_id, token_id: o.token_id });

/** buyback.confirmed: the marketplace's OfferAccepted log of the offer (extra keys: seller, fee, transaction). */
export const buybackConfirmedData = (
  o: OfferRow,
  accepted: { seller?: string; sellerAmount?: bigint; fee?: bigint; transactionHash: string },
) => ({
  ...common(o),
  status: "accepted" as const,
  seller_receives_usdc: usdc(accepted.sellerAmount ?? 0n),
  seller: accepted.seller,
  marketplace_fee_usdc: usdc(accepted.fee ?? 0n),
  transaction_hash: accepted.transactionHash,
});

const transferBase = (s: Services, t: TransferRow) => {
  const o = mystery(s).offers[t.offer_id]!;
  return { ...common(o), token_id: t.token_id, offer_signature: o.offer_signature };
};

/** buyback.transfer_held: no pool wallet (or a failed attempt); sent once, then retried every 15 minutes. */
export const transferHeldData = (s: Services, t: TransferRow, reason: string, message: string) => ({
  ...transferBase(s, t),
  reason,
  message,
});

/** buyback.card_transferred: the card reached the partner's pool wallet. */
export const cardTransferredData = (s: Services, t: TransferRow, contract: string) => ({
  ...transferBase(s, t),
  contract_address: contract,
  to_address: t.to_address,
  tx_hash: t.tx_hash,
});

/** buyback.transfer_failed: the last of the 10 attempts failed (extra key: attempts). */
export const transferFailedData = (s: Services, t: TransferRow, error: string) => ({
  ...transferBase(s, t),
  error,
  attempts: t.attempts,
});
