import { getAddress } from "viem";
import { custodialWalletOf } from "../../../fixtures/mystery/index.ts";
import { conflict } from "../../pipeline/errors.ts";
import type { Services } from "../../pipeline/services.ts";
import { chainOf, openCalls, requestedIn, type PacketTypeOnChain } from "./chain-io.ts";
import { emitInstant } from "./events.ts";
import { assertEnabled, newPurchase, OPEN_TIMEOUT_MS } from "./purchases.ts";
import { instant, type InstantPurchaseRow } from "./state.ts";

// Custodial instant purchases. The SDK has no route that creates one
// (sdk-wire-shapes §1), yet the live service has the CUSTODIAL custody, the
// RESERVED status and sends instant_purchase.reserved: such purchases are made
// outside the partner API. The operator makes one (POST
// /_emulator/instant/custodial) and it runs the real lifecycle on the virtual
// clock: RESERVED (instant_purchase.reserved) → the relayer buys and opens the
// pack on chain for the end user's custodial wallet → SUBMITTED with its hash and
// VRF request (instant_purchase.submitted) → the draw → FULFILLED with its pack
// and cards (instant_purchase.fulfilled), like any instant purchase.

/** The relayer picks a reserved purchase up this long after it was made (as for custodial mystery purchases). */
export const RELAY_MS = 2_000;

/** RESERVED: a custodial purchase of `t` for the end user, relayed RELAY_MS later by the worker. */
export function reserveCustodial(s: Services, accountId: string, t: PacketTypeOnChain, externalUserId: string): InstantPurchaseRow {
  assertEnabled(s);
  if (t.stock === 0) throw conflict("sold_out", `Packet type ${t.packetTypeId} is sold out`);
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
    recipient_address: custodialWalletOf(accountId, externalUserId),
    external_user_id: externalUserId,
    relay_at: s.clock.now() + RELAY_MS,
    fail_at: s.clock.now() + RELAY_MS + OPEN_TIMEOUT_MS,
  });
  emitInstant(s, row, "instant_purchase.reserved");
  return row;
}

/** The relayer's step, for each reserved purchase that is due: buy and open on chain (SUBMITTED), or FAILED when the chain refuses. */
export async function relayDue(s: Services): Promise<void> {
  for (const p of Object.values(instant(s).purchases)) {
    if (p.status !== "RESERVED" || (p.relay_at ?? 0) > s.clock.now()) continue;
    await relay(s, p.id);
  }
}

async function relay(s: Services, id: number): Promise<void> {
  const chain = chainOf(s);
  const p0 = instant(s).purchases[id]!;
  const price = BigInt(p0.price_micros);
  const wallet = chain.walletClientFor(chain.relayer);
  let outcome: { hash: `0x${string}`; requested: ReturnType<typeof requestedIn> } | { error: string };
  try {
    let receipt;
    for (const call of openCalls(chain, p0.packet_type_id, p0.recipient_address as `0x${string}`, price)) {
      const hash = await wallet.sendTransaction({ to: call.to, data: call.data, account: wallet.account, chain: chain.viemChain });
      receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      if (receipt.status !== "success") throw new Error("the relayer's transaction reverted");
    }
    outcome = { hash: receipt!.transactionHash, requested: requestedIn(chain, receipt!) };
  } catch (err) {
    outcome = { error: err instanceof Error ? err.message.split("\n")[0]! : String(err) };
  }
  // Re-read after the awaits: a restore may have replaced the row.
  const p = instant(s).purchases[id];
  if (!p || p.status !== "RESERVED") return;
  p.relay_at = null;
  if ("error" in outcome || !outcome.requested) {
    p.status = "FAILED";
    p.failure_reason = `relay_failed: ${"error" in outcome ? outcome.error : "no InstantPurchaseRequested log"}`;
    emitInstant(s, p, "instant_purchase.failed");
    return;
  }
  p.status = "SUBMITTED";
  p.transaction_hash = outcome.hash;
  p.onchain_request_id = outcome.requested.requestId.toString();
  p.price_micros = String(outcome.requested.price);
  p.submitted_at = s.clock.nowIso();
  p.fail_at = s.clock.now() + OPEN_TIMEOUT_MS;
  emitInstant(s, p, "instant_purchase.submitted");
}
