import { invariant, type Problem } from "./invariant.ts";
import { obj, shownValue } from "./read.ts";
import { keccakBytes } from "../keccak.ts";

// What the holder signs against what the answer shows: the calldata of a call, decoded, names the values the
// answer states beside it (docs/reference/sdk-shapes.md “Redemption shapes”). Decoded by hand (the ABI's head
// and tail words), so the contract does not load viem (docs/benchmarks.md "Start-up").

/**
 * `payShipping(ShippingQuote q, bytes signature)` of the shipping-payment processor, the quote's fields in the
 * order the processor's struct declares them: (string orderId, address payer, uint256 tokenId, uint8 burnType,
 * uint256 amount, uint256 expirationTime).
 */
const PAY_SHIPPING = Array.from(
  keccakBytes(new TextEncoder().encode("payShipping((string,address,uint256,uint8,uint256,uint256),bytes)")).slice(
    0,
    4,
  ),
  (b) => b.toString(16).padStart(2, "0"),
).join("");

interface ShippingQuote {
  orderId: string;
  payer: string;
  amount: bigint;
  expirationTime: bigint;
}

/** The quote inside a shipping-payment call's data, or null when the data is no payShipping call (the schema judges it). */
export function quoteIn(data: unknown): ShippingQuote | null {
  if (typeof data !== "string" || !/^0x(?:[0-9a-fA-F]{2})*$/.test(data)) return null;
  const hex = data.slice(10).toLowerCase();
  if (data.slice(2, 10).toLowerCase() !== PAY_SHIPPING) return null;
  const bytes = hex.length / 2;
  const word = (at: number): bigint | null => (at + 32 <= bytes ? BigInt(`0x${hex.slice(at * 2, at * 2 + 64)}`) : null);
  const offset = (at: number, base = 0): number | null => {
    const w = word(at);
    return w === null || w > BigInt(bytes) ? null : base + Number(w);
  };
  const tuple = offset(0);
  if (tuple === null) return null;
  const head = [0, 1, 2, 3, 4, 5].map((i) => word(tuple + 32 * i));
  const text = offset(tuple, tuple);
  if (head.some((w) => w === null) || text === null) return null;
  const length = word(text);
  if (length === null || text + 32 + Number(length) > bytes) return null;
  const start = (text + 32) * 2;
  const orderId = Buffer.from(hex.slice(start, start + Number(length) * 2), "hex").toString("utf8");
  return {
    orderId,
    payer: `0x${head[1]!.toString(16).padStart(40, "0")}`,
    amount: head[4]!,
    expirationTime: head[5]!,
  };
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
