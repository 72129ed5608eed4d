import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import type { HttpResult } from "./http.ts";

// Paying an x402 challenge the way a partner's code does: decode the 402's
// PAYMENT-REQUIRED and sign it with the official client. Callers (checks,
// scenarios) add their own assertions around these.

/** The x402 v2 PaymentRequired of a 402 answer; throws a plain Error saying what is wrong. */
export function paymentRequiredOf(r: HttpResult): PaymentRequired {
  const raw = r.headers["payment-required"];
  if (!raw) throw new Error(`the ${r.status} carries no PAYMENT-REQUIRED header`);
  let pr: PaymentRequired;
  try {
    pr = decodePaymentRequiredHeader(raw);
  } catch {
    throw new Error("PAYMENT-REQUIRED is not base64 JSON");
  }
  if (pr.x402Version !== 2 || !Array.isArray(pr.accepts) || pr.accepts.length === 0)
    throw new Error("PAYMENT-REQUIRED must be an x402 v2 PaymentRequired with accepts[]");
  return pr;
}

/** Signs a challenge with the official x402 client (EIP-3009 authorization), spending only the asked asset. */
export async function signPayment(pr: PaymentRequired, privateKey: Hex): Promise<string> {
  const req = pr.accepts[0]!;
  const client = new x402Client()
    .register(req.network, new ExactEvmScheme(toClientEvmSigner(privateKeyToAccount(privateKey))))
    .setSpendControls({ allowedAssets: [{ network: req.network, asset: req.asset }] });
  const payload: PaymentPayload = await client.createPaymentPayload(pr);
  return encodePaymentSignatureHeader(payload);
}
