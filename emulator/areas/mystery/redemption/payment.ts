import type { TransactionReceipt } from "viem";
import { keccak256, toBytes } from "../../../../chain/evm.ts";
import { encodeFunctionData, parseEventLogs } from "../../../../chain/viem-late.ts";
import {
  shippingPaymentProcessorAbi,
  shippingProcessorDomain,
  shippingQuoteTypes,
  usdStablecoinAbi,
  type Chain,
} from "../../../../chain/index.ts";
import { ApiError } from "../../../pipeline/errors.ts";
import { microsOfDecimal } from "../../../../contract/money.ts";
import type { Services } from "../../../pipeline/services.ts";
import { sendAs, shippingPaidLogs, signAs } from "../chain-io.ts";
import { mystery, type RedemptionRow, type RedemptionShipping } from "../state.ts";
import { usdc } from "../../../../contract/money.ts";

// The holder pays a redemption's shipping on chain (SDK 0.1.2,
// docs/reference/live-service.md “Redemption”): prepare signs an EIP-712 ShippingQuote with the shipping
// signer (single use per provider_order_id, bound to the payer, fixed amount,
// valid until expires_at); the holder sends burn → USDC approve → payShipping;
// the item ships only once ShippingPaid for its order is on chain.

export const providerOrderId = (redemptionId: number) => `ord_rdm_${redemptionId}`;

export const shippingSignerOn = (s: Services) => (mystery(s).shipping_signer ?? "on") === "on";

const quoteMessage = (r: RedemptionRow, p: RedemptionShipping) => ({
  orderId: p.provider_order_id,
  payer: p.payer as `0x${string}`,
  tokenId: BigInt(r.token_id),
  burnType: r.burn_type,
  amount: BigInt(p.total_micros),
  expirationTime: BigInt(p.expiration_time),
});

/**
 * Signs the shipping quote of a new redemption (the row must have its id, holder, burn type,
 * quote and expires_at). 503 shipping_signer_unavailable while an operator has the signer off.
 */
export async function signShipping(s: Services, chain: Chain, r: RedemptionRow): Promise<RedemptionShipping> {
  if (!shippingSignerOn(s))
    throw new ApiError(
      503,
      "shipping_signer_unavailable",
      "The shipping quote signer is unavailable; retry the prepare with the same Idempotency-Key",
      {
        retryable: true,
        headers: { "Retry-After": "5" },
      },
    );
  const p: RedemptionShipping = {
    payer: r.holder,
    processor: chain.addresses.shippingProcessor,
    total_micros: microsOfDecimal(r.shipping_quote.amount_usdc).toString(),
    expiration_time: Math.floor(Date.parse(r.expires_at) / 1000),
    provider_order_id: providerOrderId(r.redemption_id),
    signature: "",
    paid_tx_hash: null,
    refund_tx_hash: null,
  };
  p.signature = await signAs(chain, chain.operator, {
    domain: shippingProcessorDomain(chain),
    types: shippingQuoteTypes,
    primaryType: "ShippingQuote",
    message: quoteMessage(r, p),
  });
  return p;
}

/** `shipping_payment` of the prepare answer: null once paid (or for rows without a payment). */
export function paymentView(r: RedemptionRow) {
  const p = r.shipping;
  // Nothing to pay before KYC approval (no calls either), after the payment, or once the redemption ended.
  if (!p || p.paid_tx_hash || r.kyc_status === "PENDING" || !(r.status === "PREPARED" || r.status === "BURN_SUBMITTED"))
    return null;
  return {
    payer: p.payer,
    processor: p.processor,
    total_usdc: usdc(p.total_micros),
    total_micros: p.total_micros,
    expiration_time: p.expiration_time,
    provider_order_id: p.provider_order_id,
  };
}

/** The approve and payShipping calls that follow the burn (none for rows without a payment). */
export function paymentCalls(chain: Chain, r: RedemptionRow) {
  const p = r.shipping;
  if (!p) return [];
  return [
    {
      kind: "erc20-approve" as const,
      to: chain.addresses.stablecoin,
      data: encodeFunctionData({
        abi: usdStablecoinAbi,
        functionName: "approve",
        args: [p.processor as `0x${string}`, BigInt(p.total_micros)],
      }),
      description: `Allow the shipping processor to take ${usdc(p.total_micros)} USDC`,
    },
    {
      kind: "shipping-payment" as const,
      to: p.processor as `0x${string}`,
      data: encodeFunctionData({
        abi: shippingPaymentProcessorAbi,
        functionName: "payShipping",
        args: [quoteMessage(r, p), p.signature as `0x${string}`],
      }),
      description: `Pay ${usdc(p.total_micros)} USDC shipping for order ${p.provider_order_id} (after the burn flag)`,
    },
  ];
}

/** The ShippingPaid of this redemption's order in a receipt, if any. */
export function paidIn(chain: Chain, r: RedemptionRow, receipt: TransactionReceipt): boolean {
  const p = r.shipping;
  if (!p) return false;
  const processor = chain.addresses.shippingProcessor.toLowerCase();
  const logs = parseEventLogs({
    abi: shippingPaymentProcessorAbi,
    eventName: "ShippingPaid",
    logs: receipt.logs.filter((l) => l.address.toLowerCase() === processor),
  });
  return logs.some((e) => e.args.orderId === p.provider_order_id);
}

/** Reads the chain: the transaction of this redemption's ShippingPaid, or null while unpaid (or without a payment). */
export async function paymentTx(chain: Chain, r: RedemptionRow): Promise<`0x${string}` | null> {
  const p = r.shipping;
  if (!p) return null;
  if (p.paid_tx_hash) return p.paid_tx_hash as `0x${string}`;
  const events = await shippingPaidLogs(chain, keccak256(toBytes(p.provider_order_id)));
  return events.at(-1)?.transactionHash ?? null;
}

/** Rows without a shipping payment (older state files) ship as they always did. */
export const isPaid = (r: RedemptionRow) => !r.shipping || r.shipping.paid_tx_hash !== null;

/**
 * Pays a landed shipping payment back to the payer (from the treasury, which received it) when
 * the redemption ends without shipping. Best effort: the caller logs a failure.
 */
export async function refundShipping(chain: Chain, r: RedemptionRow): Promise<string | null> {
  const p = r.shipping;
  if (!p || !p.paid_tx_hash || p.refund_tx_hash) return null;
  const data = encodeFunctionData({
    abi: usdStablecoinAbi,
    functionName: "transfer",
    args: [p.payer as `0x${string}`, BigInt(p.total_micros)],
  });
  const receipt = await sendAs(chain, chain.treasury, chain.addresses.stablecoin, data);
  return receipt.status === "success" ? receipt.transactionHash : null;
}
