import type { Hex } from "viem";
import type { x402Facilitator } from "@x402/core/facilitator";
import type { x402ResourceServer, FacilitatorClient } from "@x402/core/server";
import type {
  Network,
  PaymentPayload,
  PaymentRequired,
  PaymentRequirements,
  SettleResponse,
  SupportedResponse,
  VerifyResponse,
} from "@x402/core/types";
import type { ChainHost } from "../../chain-host.ts";
import { relayerSigner } from "./chain-io.ts";
import type { VirtualClock } from "../../clock/clock.ts";
import { requireChain } from "../../pipeline/chain.ts";
import { runtimeSlot } from "../../pipeline/runtime.ts";
import type { Services } from "../../pipeline/services.ts";

// The x402 side of a top-up, built from the OFFICIAL packages: the resource
// server (@x402/core/server + the exact EVM server scheme) builds and matches
// the requirements; the facilitator (@x402/core/facilitator + the exact EVM
// facilitator scheme) verifies the EIP-3009 authorization and settles it with
// transferWithAuthorization on the local chain, signed by the relayer fixture
// account. Nothing here re-implements the protocol's checks.
//
// The x402 packages load with the first kit (a top-up needs the chain anyway): an emulator that never
// sees a top-up does not pay for importing them (test/unit/lazy-imports.test.ts).

/** Token EIP-712 domain (the stablecoin is deployed as "USD Coin" version "2"). */
export const TOKEN_DOMAIN = { name: "USD Coin", version: "2" } as const;
/** Seconds a signed authorization must stay valid, before any clock-skew stretch (see timeoutFor). */
export const BASE_TIMEOUT_SECONDS = 300;
/** The skew stretch is rounded up to whole hours so the requirements rebuilt on the retry equal the ones sent. */
const SKEW_QUANTUM_SECONDS = 3600;

export interface X402Kit {
  network: Network;
  /** @x402/core/http: the payment headers' encoders and decoder. */
  http: typeof import("@x402/core/http");
  server: x402ResourceServer;
  facilitator: x402Facilitator;
  host: ChainHost;
}

/** The facilitator runs in-process; the resource server talks to it through this client. */
class LocalFacilitatorClient implements FacilitatorClient {
  constructor(private readonly facilitator: x402Facilitator) {}
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    return this.facilitator.verify(payload, requirements);
  }
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    return this.facilitator.settle(payload, requirements);
  }
  async getSupported(): Promise<SupportedResponse> {
    return this.facilitator.getSupported() as SupportedResponse;
  }
}

/** One kit per emulator, in its runtime (the chain outlives resets; the relayer's nonces are managed by the chain). */
const KIT = runtimeSlot("x402 kit", (): { kit: Promise<X402Kit> | null } => ({ kit: null }));

export function x402Kit(services: Services): Promise<X402Kit> {
  const held = services.runtime.of(KIT);
  if (!held.kit) {
    const kit = buildKit(requireChain(services), services.clock);
    held.kit = kit;
    kit.catch(() => {
      if (held.kit === kit) held.kit = null;
    });
  }
  return held.kit;
}

async function buildKit(host: ChainHost, clock: VirtualClock): Promise<X402Kit> {
  const chain = host.gateway;
  const network = `eip155:${chain.chainId}` as Network;
  const [{ x402Facilitator }, { x402ResourceServer }, facilitatorScheme, serverScheme, http, signer] =
    await Promise.all([
      import("@x402/core/facilitator"),
      import("@x402/core/server"),
      import("@x402/evm/exact/facilitator"),
      import("@x402/evm/exact/server"),
      import("@x402/core/http"),
      relayerSigner(chain),
    ]);
  const ExactEvmFacilitator = facilitatorScheme.ExactEvmScheme;
  const ExactEvmServer = serverScheme.ExactEvmScheme;
  const facilitator = new x402Facilitator().register(network, new ExactEvmFacilitator(signer));
  const server = new x402ResourceServer(new LocalFacilitatorClient(facilitator)).register(
    network,
    new ExactEvmServer(),
  );
  // The facilitator judges the window on wall time (the payer's clock); the chain judges it on block
  // time, which is the virtual clock. Check that frame too, so a window the chain would refuse gets its
  // precise x402 reason instead of a failed settlement.
  server.onBeforeVerify(async ({ paymentPayload }) => {
    const auth = authorizationOf(paymentPayload as PaymentPayload);
    const reason = auth ? windowReason(auth, clock.now()) : null;
    return reason
      ? {
          abort: true as const,
          reason,
          message: `authorization window [${auth!.validAfter}, ${auth!.validBefore}] does not hold at the emulator's clock (${Math.floor(clock.now() / 1000)})`,
        }
      : undefined;
  });
  await server.initialize();
  return { network, http, server, facilitator, host };
}

/**
 * maxTimeoutSeconds for a challenge. Official clients sign `validBefore = wall now + maxTimeoutSeconds`
 * while the token checks block.timestamp, which follows the VIRTUAL clock. When the virtual clock runs
 * ahead of wall time (a test advanced a month), the timeout is stretched by that skew (rounded up to an
 * hour) so a wall-clock signature is still valid at the chain's time. See docs/credits.md.
 */
export function timeoutFor(virtualNowMs: number, wallNowMs: number, quantaOffset = 0): number {
  const skew = Math.max(0, Math.floor((virtualNowMs - wallNowMs) / 1000));
  const quanta = Math.ceil(skew / SKEW_QUANTUM_SECONDS) + quantaOffset;
  return BASE_TIMEOUT_SECONDS + Math.max(0, quanta) * SKEW_QUANTUM_SECONDS;
}

export async function buildRequirements(
  kit: X402Kit,
  atomicAmount: bigint,
  maxTimeoutSeconds: number,
): Promise<PaymentRequirements> {
  const chain = kit.host.gateway;
  const [req] = await kit.server.buildPaymentRequirementsFromOptions(
    [
      {
        scheme: "exact",
        network: kit.network,
        payTo: chain.treasury.address,
        // An explicit asset: chain 31337 has no default stablecoin in the x402 tables.
        price: { amount: atomicAmount.toString(), asset: chain.addresses.stablecoin, extra: { ...TOKEN_DOMAIN } },
        maxTimeoutSeconds,
      },
    ],
    {},
  );
  if (!req) throw new Error("x402: no payment requirements built");
  return req;
}

/** The x402 v1 shape of the same requirements (for clients that read the 402 body). */
export function toV1(req: PaymentRequirements, resource: string, description: string) {
  return {
    scheme: req.scheme,
    network: req.network,
    maxAmountRequired: req.amount,
    resource,
    description,
    mimeType: "application/json",
    outputSchema: {},
    payTo: req.payTo,
    maxTimeoutSeconds: req.maxTimeoutSeconds,
    asset: req.asset,
    extra: req.extra,
  };
}

export function paymentRequired(
  kit: X402Kit,
  req: PaymentRequirements,
  resource: string,
  description: string,
  error?: string,
): Promise<PaymentRequired> {
  return kit.server.createPaymentRequiredResponse(
    [req],
    { url: resource, description, mimeType: "application/json" },
    error,
  );
}

export interface Authorization {
  from: Hex;
  to: Hex;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

/** Same reasons and margin (6 s) as the official facilitator, judged at `nowMs` on the virtual clock. */
export function windowReason(auth: Authorization, nowMs: number): string | null {
  const now = BigInt(Math.floor(nowMs / 1000));
  if (BigInt(auth.validBefore) < now + 6n) return "invalid_exact_evm_payload_authorization_valid_before";
  if (BigInt(auth.validAfter) > now) return "invalid_exact_evm_payload_authorization_valid_after";
  return null;
}

/** The EIP-3009 authorization inside an exact-scheme payload, or null when the payload is not one. */
export function authorizationOf(payload: PaymentPayload): Authorization | null {
  const auth = (payload.payload as { authorization?: Partial<Authorization> } | undefined)?.authorization;
  if (!auth || typeof auth !== "object") return null;
  const fields = ["from", "to", "value", "validAfter", "validBefore", "nonce"] as const;
  for (const f of fields) if (typeof auth[f] !== "string") return null;
  if (!/^\d+$/.test(auth.validAfter!) || !/^\d+$/.test(auth.validBefore!) || !/^\d+$/.test(auth.value!)) return null;
  return auth as Authorization;
}
