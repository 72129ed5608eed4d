import { getAddress } from "viem";
import { ApiError, conflict } from "../../pipeline/errors.ts";
import { custodyOf } from "../../pipeline/custody-port.ts";
import { relayerDisabled, relayerOn } from "../../pipeline/relayer-port.ts";
import { usdc } from "../../pipeline/money.ts";
import type { Services } from "../../pipeline/services.ts";
import { chainOf, openCalls, requestedIn, sendAndWait, type PacketTypeOnChain } from "./chain-io.ts";
import { emitInstant } from "./events.ts";
import { assertEnabled, custodyRef, newPurchase, OPEN_TIMEOUT_MS } from "./purchases.ts";
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
// pipeline/custody-port.ts) and spent when the relayer's purchase is mined.
// The relayer switch (POST /_emulator/mystery/relayer, read through
// pipeline/relayer-port.ts) pauses them as it pauses custodial mystery purchases:
// off → a new one is 503 relayer_disabled, nothing held; one that comes due waits
// PENDING with its hold, relayed when the relayer is back or FAILED (hold
// released) after PENDING_TIMEOUT_MS.

/** The relayer picks a reserved purchase up this long after it was made (as for custodial mystery purchases). */
export const RELAY_MS = 2_000;
/** A purchase held while the relayer is off fails (hold released) this long after it was reserved (as for custodial mystery purchases). */
export const PENDING_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * RESERVED: a custodial purchase of `t` for the end user, its price held on the end user's custodial
 * balance (402 insufficient_funds, nothing written, when it does not cover it); relayed RELAY_MS later
 * by the worker, which settles the hold once the pack is bought on chain or releases it when the chain refuses.
 */
export function reserveCustodial(s: Services, accountId: string, t: PacketTypeOnChain, externalUserId: string): InstantPurchaseRow {
  assertEnabled(s);
  if (!relayerOn(s)) throw relayerDisabled("custodial instant purchases are paused; retry later");
  if (t.stock === 0) throw conflict("sold_out", `Packet type ${t.packetTypeId} is sold out`);
  const custody = custodyOf(s);
  const available = custody.available(accountId, externalUserId);
  if (available < t.price)
    throw new ApiError(402, "insufficient_funds", `The end user's available balance is ${usdc(available)} USDC; the pack costs ${usdc(t.price)}`, {
      details: { available_usdc: usdc(available), price_usdc: usdc(t.price) },
    });
  const chain = chainOf(s);
  const row = newPurchase(s, {
    account_id: accountId,
    status: "RESERVED",
    custody: "CUSTODIAL",
    packet_type_id: t.packetTypeId,
    price_micros: String(t.price),
    onchain_request_id: null,
    transaction_hash: null,
    purchaser_address: getAddress(chain.relayer.address),
    recipient_address: custody.wallet(accountId, externalUserId),
    external_user_id: externalUserId,
    relay_at: s.clock.now() + RELAY_MS,
    fail_at: s.clock.now() + RELAY_MS + OPEN_TIMEOUT_MS,
  });
  custody.hold(accountId, externalUserId, t.price, custodyRef(row));
  emitInstant(s, row, "instant_purchase.reserved");
  return row;
}

const waiting = (p: InstantPurchaseRow | undefined): p is InstantPurchaseRow => p?.status === "RESERVED" || p?.status === "PENDING";

/**
 * The relayer's step, for each RESERVED or PENDING purchase that is due: with the relayer on, buy and open
 * on chain (SUBMITTED), or FAILED when the chain refuses; off, a RESERVED one waits PENDING with its hold
 * and a PENDING one whose wait ran out fails with the hold released. Nothing is sent while it is off.
 */
export async function relayDue(s: Services): Promise<void> {
  const due = Object.values(instant(s).purchases)
    .filter((p) => waiting(p) && (p.relay_at ?? 0) <= s.clock.now())
    .map((p) => p.id);
  for (const id of due) {
    const p = instant(s).purchases[id]; // re-read: an earlier relay awaited the chain
    if (!waiting(p)) continue;
    if (relayerOn(s)) await relay(s, id);
    else if (p.status === "RESERVED") {
      p.status = "PENDING";
      p.relay_at = Date.parse(p.reserved_at ?? p.created_at) + PENDING_TIMEOUT_MS;
    } else failHeld(s, p, "relayer_unavailable: the relayer stayed off; the hold was released");
  }
}

/** The relayer is back: every PENDING purchase is due now; how many. */
export function resumePending(s: Services): number {
  let n = 0;
  for (const p of Object.values(instant(s).purchases))
    if (p.status === "PENDING") {
      p.relay_at = s.clock.now();
      n++;
    }
  return n;
}

/** FAILED before anything was bought: the hold returns to the end user's available balance. */
function failHeld(s: Services, p: InstantPurchaseRow, reason: string): void {
  custodyOf(s).release(p.account_id, p.external_user_id!, BigInt(p.price_micros), custodyRef(p));
  p.status = "FAILED";
  p.relay_at = null;
  p.failure_reason = reason;
  emitInstant(s, p, "instant_purchase.failed");
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
  p.relay_at = null;
  if ("error" in outcome || !outcome.requested) return failHeld(s, p, `relay_failed: ${"error" in outcome ? outcome.error : "no InstantPurchaseRequested log"}`);
  const custody = custodyOf(s);
  const held = BigInt(p.price_micros);
  // The store charged its price (never above the cap sent, the price held): that is spent, the rest returns.
  const charged = outcome.requested.price < held ? outcome.requested.price : held;
  custody.settle(p.account_id, p.external_user_id!, charged, custodyRef(p));
  if (held > charged) custody.release(p.account_id, p.external_user_id!, held - charged, custodyRef(p));
  p.status = "SUBMITTED";
  p.transaction_hash = outcome.hash;
  p.onchain_request_id = outcome.requested.requestId.toString();
  p.price_micros = String(outcome.requested.price);
  p.submitted_at = s.clock.nowIso();
  p.fail_at = s.clock.now() + OPEN_TIMEOUT_MS;
  emitInstant(s, p, "instant_purchase.submitted");
}
