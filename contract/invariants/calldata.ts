import { decodeFunctionData, parseAbi } from "viem";
import { invariant, type Problem } from "./invariant.ts";
import { obj, shownValue } from "./read.ts";

// What the holder signs against what the answer shows: the calldata of a call, decoded, names the values the
// answer states beside it (docs/reference/sdk-shapes.md “Redemption shapes”).

/**
 * `payShipping(ShippingQuote q, bytes signature)` of the shipping-payment processor: the quote's fields in the
 * order the processor's struct declares them (the ABI the answers' `processor` contract exposes).
 */
const PAY_SHIPPING = parseAbi([
  "struct ShippingQuote { string orderId; address payer; uint256 tokenId; uint8 burnType; uint256 amount; uint256 expirationTime; }",
  "function payShipping(ShippingQuote q, bytes signature)",
]);

/** The quote inside a shipping-payment call's data, or null when the data is no payShipping call (the schema judges it). */
function quoteIn(data: unknown) {
  if (typeof data !== "string" || !/^0x[0-9a-fA-F]*$/.test(data)) return null;
  try {
    const call = decodeFunctionData({ abi: PAY_SHIPPING, data: data as `0x${string}` });
    return call.functionName === "payShipping" ? call.args[0] : null;
  } catch {
    return null;
  }
}

export const CALLDATA_INVARIANTS = [
  invariant({
    id: "redemption.payment-in-calldata",
    rule: "`RedemptionShippingPayment` mirrors the signed quote inside the `shipping-payment` call (single use, bound to the payer, fixed amount): decoded, the call's quote carries the `expiration_time` (unix seconds, matching `expires_at`), `total_micros`, `payer` and `provider_order_id` the answer shows",
    source: "docs/reference/sdk-shapes.md “Redemption shapes”",
    operations: ["redemption.prepare"],
    check: (a) => {
      const d = obj(a.data);
      const pay = obj(d?.shipping_payment);
      const calls = obj(d?.unsigned)?.calls;
      if (!pay || !Array.isArray(calls)) return [];
      const i = calls.findIndex((c) => obj(c)?.kind === "shipping-payment");
      const q = i === -1 ? null : quoteIn(obj(calls[i])?.data);
      if (!q) return [];
      const out: Problem[] = [];
      const at = `/data/unsigned/calls/${i}/data`;
      const differs = (shown: string, inCall: string) =>
        out.push({
          pointer: at,
          text: `expected the signed quote to carry shipping_payment.${shown} ${shownValue(pay[shown])}, received ${inCall} in the call's data`,
        });
      if (Number.isInteger(pay.expiration_time) && q.expirationTime !== BigInt(pay.expiration_time as number))
        differs("expiration_time", `expirationTime ${q.expirationTime}`);
      if (
        typeof pay.total_micros === "string" &&
        /^\d+$/.test(pay.total_micros) &&
        q.amount !== BigInt(pay.total_micros)
      )
        differs("total_micros", `amount ${q.amount}`);
      if (typeof pay.payer === "string" && q.payer.toLowerCase() !== pay.payer.toLowerCase())
        differs("payer", `payer ${q.payer}`);
      if (typeof pay.provider_order_id === "string" && q.orderId !== pay.provider_order_id)
        differs("provider_order_id", `orderId ${JSON.stringify(q.orderId)}`);
      return out;
    },
  }),
];
