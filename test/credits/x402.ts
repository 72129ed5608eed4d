import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";

// Test helpers: sign x402 payments the way a partner's code does (official client),
// and forge the bad ones the emulator must refuse.

import { transferWithAuthorizationTypes as transferTypes } from "../../chain/index.ts";

export { transferTypes };

export function requirementsOf(header: string): {
  required: ReturnType<typeof decodePaymentRequiredHeader>;
  req: PaymentRequirements;
} {
  const required = decodePaymentRequiredHeader(header);
  return { required, req: required.accepts[0]! };
}

/** The official client signs the challenge (spend controls opened for the emulator's stablecoin). */
export async function officialPayment(header: string, privateKey: Hex): Promise<PaymentPayload> {
  const { required, req } = requirementsOf(header);
  const client = new x402Client()
    .register(req.network, new ExactEvmScheme(toClientEvmSigner(privateKeyToAccount(privateKey))))
    .setSpendControls({ allowedAssets: [{ network: req.network, asset: req.asset }] });
  return client.createPaymentPayload(required);
}

export const encode = (p: PaymentPayload) => encodePaymentSignatureHeader(p);

export interface AuthOverrides {
  from?: Hex;
  to?: Hex;
  value?: bigint;
  validAfter?: bigint;
  validBefore?: bigint;
  nonce?: Hex;
  /** Sign with this key instead of the payer's. */
  signerKey?: Hex;
  verifyingContract?: Hex;
}

/** A hand-signed exact payload against the challenge's requirements, with any field overridden. */
export async function forgedPayment(header: string, payerKey: Hex, o: AuthOverrides = {}): Promise<PaymentPayload> {
  const { required, req } = requirementsOf(header);
  const payer = privateKeyToAccount(payerKey);
  const signer = privateKeyToAccount(o.signerKey ?? payerKey);
  const wall = BigInt(Math.floor(Date.now() / 1000));
  const authorization = {
    from: o.from ?? payer.address,
    to: o.to ?? (req.payTo as Hex),
    value: o.value ?? BigInt(req.amount),
    validAfter: o.validAfter ?? 0n,
    validBefore: o.validBefore ?? wall + BigInt(req.maxTimeoutSeconds),
    nonce: o.nonce ?? (`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}` as Hex),
  };
  const signature = await signer.signTypedData({
    domain: {
      name: "USD Coin",
      version: "2",
      chainId: Number(req.network.split(":")[1]),
      verifyingContract: o.verifyingContract ?? (req.asset as Hex),
    },
    types: transferTypes,
    primaryType: "TransferWithAuthorization",
    message: authorization,
  });
  const wire = Object.fromEntries(
    Object.entries(authorization).map(([k, v]) => [k, typeof v === "bigint" ? v.toString() : v]),
  );
  return { x402Version: 2, resource: required.resource, accepted: req, payload: { authorization: wire, signature } };
}
