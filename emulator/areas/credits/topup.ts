import type { Hex } from "viem";
import { getAddress, isAddressEqual } from "../../../chain/evm.ts";
import { parseEventLogs } from "../../../chain/viem-late.ts";
import type { PaymentPayload, PaymentRequirements, SettleResponse } from "@x402/core/types";
import { usdStablecoinAbi } from "../../../chain/index.ts";
import { settlementReceipt } from "./chain-io.ts";
import { ApiError } from "../../pipeline/errors.ts";
import { stateFence } from "../../pipeline/generation.ts";
import { withKeyLock } from "../../pipeline/key-lock.ts";
import { balanceOf, newAccount, settle } from "../../pipeline/metering.ts";
import type { Reply } from "../../pipeline/route.ts";
import type { Services } from "../../pipeline/services.ts";
import type { KeyRecord } from "../../state/schema.ts";
import { authorizationKey, creditsSlice, type TopupRecord } from "./state.ts";
import type { Amount, TopupResultWire, X402Details } from "../../../contract/index.ts";
import {
  authorizationOf,
  buildRequirements,
  paymentRequired,
  timeoutFor,
  toV1,
  x402Kit,
  type X402Kit,
} from "./x402.ts";
import { isoOf } from "../../../contract/time.ts";

// POST /api/v1/credits/topup?usd=<5..1000>: the x402 exchange.
// No payment header → 402 challenge. A payment header → decode, replay check
// (idempotent on the settlement), match the rebuilt requirements, verify and
// settle with the official facilitator, confirm the Transfer in the receipt,
// then grant 500 credits per USD to the PURCHASED pool. The amount arrives
// checked by the route's query schema (schemas.ts).

interface TopupInput {
  services: Services;
  key: KeyRecord;
  url: URL;
  headers: Headers;
  amount: Amount;
}

// One top-up at a time per emulator: a retried payment racing its first attempt must find the
// settled record instead of settling (and failing) a second time. A refused one answers its caller.
export function topup(input: TopupInput): Promise<Reply> {
  return withKeyLock(input.services, "credits topup", () => run(input));
}

async function run({ services, key, url, headers, amount }: TopupInput): Promise<Reply> {
  const sameState = stateFence(services);
  const kit = await x402Kit(services);
  const now = services.clock.now();
  const wall = services.clock.wall(); // the wall time a client signs validBefore by (timeoutFor)
  const resource = `${url.origin}${url.pathname}?usd=${amount.usd}`;
  const description = `Top up ${amount.usd} USD = ${amount.credits} credits`;
  const current = await buildRequirements(kit, amount.atomic, timeoutFor(now, wall));
  const challenge = (reason?: string, message?: string) =>
    challengeError(kit, current, resource, description, reason, message);

  const raw = headers.get("payment-signature") ?? headers.get("x-payment");
  if (!raw) throw await challenge();

  let decoded: unknown;
  try {
    decoded = kit.http.decodePaymentSignatureHeader(raw.trim());
  } catch {
    throw await challenge("invalid_payload", "the payment header is not base64-encoded JSON");
  }
  const payload = toV2(decoded, current);
  const auth = payload && authorizationOf(payload);
  if (!payload || !auth)
    throw await challenge(
      "invalid_payload",
      "the payment header does not carry an exact-scheme EIP-3009 authorization",
    );

  // Idempotent on the settlement: the same authorization from the same key returns the original result.
  const slice = creditsSlice(services.store);
  const seen = slice.topups[slice.by_authorization[authorizationKey(auth.from, auth.nonce)] ?? ""];
  if (seen && seen.key === key.key) return success(kit, seen, true);

  // The requirements are rebuilt; the payment must have accepted exactly one of them (the skew
  // stretch may have moved by an hour between the challenge and the retry).
  const candidates = [current];
  for (const offset of [-1, 1])
    candidates.push(await buildRequirements(kit, amount.atomic, timeoutFor(now, wall, offset)));
  const requirements = kit.server.findMatchingRequirements(candidates, payload);
  if (!requirements)
    throw await challenge(
      "no_matching_payment_requirements",
      "the payment's `accepted` requirements (scheme, network, amount, asset, payTo, maxTimeoutSeconds) are not the ones this top-up asked for",
    );

  const verified = await kit.server.verifyPayment(payload, requirements);
  if (!verified.isValid) throw await challenge(verified.invalidReason ?? "invalid_payment", verified.invalidMessage);

  let settled: SettleResponse;
  try {
    settled = await kit.server.settlePayment(payload, requirements);
  } catch (err) {
    throw await challenge("settlement_failed", err instanceof Error ? err.message : String(err));
  }
  if (!settled.success || !settled.transaction)
    throw await challenge(settled.errorReason ?? "settlement_failed", settled.errorMessage);

  await confirmTransfer(kit, settled.transaction as Hex, auth.from, requirements);

  // The payment settled on a chain a reset or restore replaced: nothing is credited into the new state.
  sameState();
  // Re-read the store after the awaits (a reset or restore replaces the state object).
  const at = services.clock.now();
  const acct = settle((services.store.state.credits[key.key] ??= newAccount(at)), at);
  acct.purchased += amount.credits;
  const record: TopupRecord = {
    tx_hash: settled.transaction,
    key: key.key,
    usd: amount.usd,
    credits_granted: amount.credits,
    balance_credits: balanceOf(acct),
    payer: getAddress(auth.from),
    network: settled.network,
    amount: requirements.amount,
    settled_at: isoOf(at),
    payment_response: { ...settled },
  };
  const fresh = creditsSlice(services.store);
  fresh.topups[record.tx_hash] = record;
  fresh.by_authorization[authorizationKey(auth.from, auth.nonce)] = record.tx_hash;
  return success(kit, record, false);
}

/** x402 v1 payloads (`X-PAYMENT` with {x402Version:1, scheme, network, payload}) carry no `accepted`. */
function toV2(decoded: unknown, current: PaymentRequirements): PaymentPayload | null {
  if (!decoded || typeof decoded !== "object") return null;
  const p = decoded as Partial<PaymentPayload> & { scheme?: unknown; network?: unknown };
  if (p.x402Version === 2 && p.accepted && typeof p.accepted === "object" && p.payload && typeof p.payload === "object")
    return p as PaymentPayload;
  if (p.x402Version === 1 && p.payload && typeof p.payload === "object") {
    // v1 matches on scheme and network only; a mismatch is left for findMatchingRequirements to refuse.
    const accepted =
      p.scheme === current.scheme && p.network === current.network
        ? current
        : { ...current, scheme: String(p.scheme), network: String(p.network) as PaymentRequirements["network"] };
    return { x402Version: 2, accepted, payload: p.payload };
  }
  return null;
}

/** The settlement must show the stablecoin moving from the payer to the treasury, for the amount. */
async function confirmTransfer(kit: X402Kit, tx: Hex, from: string, req: PaymentRequirements): Promise<void> {
  const chain = kit.host.gateway;
  const receipt = await settlementReceipt(chain, tx);
  const transfers = parseEventLogs({ abi: usdStablecoinAbi, eventName: "Transfer", logs: receipt.logs }).filter((l) =>
    isAddressEqual(l.address, chain.addresses.stablecoin),
  );
  const ok =
    receipt.status === "success" &&
    transfers.some(
      (l) =>
        isAddressEqual(l.args.from, from as Hex) &&
        isAddressEqual(l.args.to, req.payTo as Hex) &&
        l.args.value === BigInt(req.amount),
    );
  if (!ok) {
    const details: X402Details = {
      x402_error: "payment_invalid",
      reason: "invalid_exact_evm_transfer_event_mismatch",
      tx_hash: tx,
    };
    throw new ApiError(402, "insufficient_credits", `Settlement ${tx} shows no matching Transfer; no credits granted`, {
      details,
    });
  }
}

async function challengeError(
  kit: X402Kit,
  req: PaymentRequirements,
  resource: string,
  description: string,
  reason?: string,
  detail?: string,
): Promise<ApiError> {
  const pr = await paymentRequired(kit, req, resource, description, reason ?? "Payment required");
  const message = reason
    ? `Payment rejected (${reason})${detail ? `: ${detail}` : ""}. No credits were granted; sign a new authorization and retry.`
    : `${description}: pay ${req.amount} atomic units of ${req.asset} on ${req.network} to ${req.payTo} over x402, then retry with the PAYMENT-SIGNATURE header.`;
  // The interface's codes table: 402 insufficient_credits is "also the x402 top-up challenge";
  // what x402 itself says (payment required, or why a payment was refused) goes in details.
  const details: X402Details = reason
    ? { x402_error: "payment_invalid", reason, payment_required: pr }
    : { x402_error: "payment_required", payment_required: pr };
  return new ApiError(402, "insufficient_credits", message, {
    details,
    headers: { "PAYMENT-REQUIRED": kit.http.encodePaymentRequiredHeader(pr) },
    // For x402 v1 clients, which read the requirements from the body.
    extra: { x402Version: 1, accepts: [toV1(req, resource, description)] },
  });
}

function success(kit: X402Kit, rec: TopupRecord, replayed: boolean): Reply {
  const response = kit.http.encodePaymentResponseHeader(rec.payment_response as unknown as SettleResponse);
  const data: TopupResultWire = {
    credits_granted: rec.credits_granted,
    balance_credits: rec.balance_credits,
    usd: rec.usd,
    tx_hash: rec.tx_hash,
  };
  return {
    status: 200,
    data,
    headers: {
      "PAYMENT-RESPONSE": response,
      "X-PAYMENT-RESPONSE": response,
      ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
    },
  };
}
