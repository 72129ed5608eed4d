import { getAddress } from "../../../chain/evm.ts";
import { ApiError, conflict } from "../../pipeline/errors.ts";
import type { RelayerTrigger } from "../../../contract/lifecycles/purchases.ts";
import { userWalletOf } from "../../pipeline/user-wallet-port.ts";
import { relayerDisabled, relayerOn } from "../../pipeline/relayer-port.ts";
import { isHeld, relayHeld, resumeHeld } from "../../pipeline/relayer.ts";
import { usdc } from "../../../contract/money.ts";
import type { Services } from "../../pipeline/services.ts";
import { chainOf, openCalls, requestedIn, sendAndWait, type PacketTypeOnChain } from "./chain-io.ts";
import { stepInstant } from "./lifecycle.ts";
import { assertEnabled, newPurchase } from "./purchases.ts";
import { instant, type InstantPurchaseRow } from "./state.ts";

// Custodial instant purchases. The SDK has no route that creates one
// (docs/reference/sdk-shapes.md “Instant shapes”), yet the live service has the CUSTODIAL custody, the
// RESERVED status and sends instant_purchase.reserved: such purchases are made
// outside the partner API. The operator makes one (POST
// /_emulator/instant/custodial) and it runs the real lifecycle on the virtual
// clock: RESERVED (instant_purchase.reserved) → the relayer buys and opens the
// pack on chain for the end user's custodial wallet → SUBMITTED with its hash and
// VRF request (instant_purchase.submitted) → the draw → FULFILLED with its pack
// and cards (instant_purchase.fulfilled), like any instant purchase. The price is
// held on the end user's custodial balance (the mystery area's wallet, through
// pipeline/user-wallet-port.ts) and spent when the relayer's purchase is mined.
// The relayer switch (POST /_emulator/mystery/relayer, read through
// pipeline/relayer.ts) pauses them as it pauses custodial mystery purchases:
// off → a new one is 503 relayer_disabled, nothing held; one that comes due waits
// PENDING with its hold, relayed when the relayer is back or FAILED (hold
// released) after PENDING_TIMEOUT_MS. Every move is a row of the table in
// contract/lifecycles/purchases.ts (drawn in docs/instant.md).

/**
 * RESERVED: a custodial purchase of `t` for the end user, its price held on the end user's custodial
 * balance (402 insufficient_funds, nothing written, when it does not cover it); relayed RELAY_PICKUP_MS later
 * by the worker, which settles the hold once the pack is bought on chain or releases it when the chain refuses.
 */
export function reserveCustodial(
  s: Services,
  accountId: string,
  t: PacketTypeOnChain,
  externalUserId: string,
): InstantPurchaseRow {
  assertEnabled(s);
  if (!relayerOn(s)) throw relayerDisabled("custodial instant purchases are paused; retry later");
  if (t.stock === 0) throw conflict("sold_out", `Packet type ${t.packetTypeId} is sold out`);
  const custody = userWalletOf(s);
  const available = custody.available(accountId, externalUserId);
  if (available < t.price)
    throw new ApiError(
      402,
      "insufficient_funds",
      `The end user's available balance is ${usdc(available)} USDC; the pack costs ${usdc(t.price)}`,
      {
        details: { available_usdc: usdc(available), price_usdc: usdc(t.price) },
      },
    );
  const chain = chainOf(s);
  // The table's "reserve": the hold, instant_purchase.reserved and the relayer's pick-up time.
  return newPurchase(s, "reserve", {
    account_id: accountId,
    custody: "CUSTODIAL",
    packet_type_id: t.packetTypeId,
    price_micros: String(t.price),
    onchain_request_id: null,
    transaction_hash: null,
    purchaser_address: getAddress(chain.relayer.address),
    recipient_address: custody.wallet(accountId, externalUserId),
    external_user_id: externalUserId,
  });
}

const waiting = (p: InstantPurchaseRow | undefined): p is InstantPurchaseRow => p !== undefined && isHeld(p.status);

/** The row as the shared relayer fires on it. */
const held = (s: Services, p: InstantPurchaseRow) => ({
  status: p.status,
  fire: (trigger: RelayerTrigger, reason?: string) =>
    void stepInstant(s, p, trigger, reason ? { failure_reason: reason } : undefined),
  send: () => relay(s, p.id),
});

/**
 * The relayer's step (pipeline/relayer.ts), for each RESERVED or PENDING purchase that is due: with the relayer
 * on, buy and open on chain (SUBMITTED), or FAILED when the chain refuses; off, a RESERVED one waits PENDING with
 * its hold and a PENDING one whose wait ran out fails with the hold released. Nothing is sent while it is off.
 */
export async function relayDue(s: Services): Promise<void> {
  const due = Object.values(instant(s).purchases)
    .filter((p) => waiting(p) && (p.due_at_ms ?? 0) <= s.clock.now())
    .map((p) => p.id);
  for (const id of due) {
    const p = instant(s).purchases[id]; // re-read: an earlier relay awaited the chain
    if (waiting(p)) await relayHeld(s, held(s, p));
  }
}

/** The relayer is back: every PENDING purchase is due now; how many. */
export function resumePending(s: Services): number {
  return resumeHeld(Object.values(instant(s).purchases).map((p) => held(s, p)));
}

async function relay(s: Services, id: number): Promise<void> {
  const chain = chainOf(s);
  const p0 = instant(s).purchases[id]!;
  const price = BigInt(p0.price_micros);
  let outcome: { hash: `0x${string}`; requested: ReturnType<typeof requestedIn> } | { error: string };
  try {
    let receipt;
    for (const call of openCalls(chain, p0.packet_type_id, p0.recipient_address as `0x${string}`, price)) {
      receipt = await sendAndWait(chain, chain.relayer, call);
      if (receipt.status !== "success") throw new Error("the relayer's transaction reverted");
    }
    outcome = { hash: receipt!.transactionHash, requested: requestedIn(chain, receipt!) };
  } catch (err) {
    outcome = { error: err instanceof Error ? err.message.split("\n")[0]! : String(err) };
  }
  // Re-read after the awaits: a restore may have replaced the row.
  const p = instant(s).purchases[id];
  if (!waiting(p)) return;
  if ("error" in outcome || !outcome.requested) {
    const reason = `relay_failed: ${"error" in outcome ? outcome.error : "no InstantPurchaseRequested log"}`;
    return void stepInstant(s, p, "relay_failed", { failure_reason: reason });
  }
  const cap = BigInt(p.price_micros);
  // The store charged its price (never above the cap sent, the price held): that is spent, the rest returns.
  const charged = outcome.requested.price < cap ? outcome.requested.price : cap;
  const patch = {
    transaction_hash: outcome.hash,
    onchain_request_id: outcome.requested.requestId.toString(),
    price_micros: String(outcome.requested.price),
    submitted_at: s.clock.nowIso(),
  };
  stepInstant(s, p, "relayed", patch, { hold: cap, charged });
}
