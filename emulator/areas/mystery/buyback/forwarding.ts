import type { Hex } from "viem";
import { encodeFunctionData } from "../../../../chain/viem-late.ts";
import { cardNftAbi, type Chain } from "../../../../chain/index.ts";
import type { Services } from "../../../pipeline/services.ts";
import { burnState, offerAcceptedLogs, offerUsed, sendAs } from "../chain-io.ts";
import { mystery, type OfferRow, type TransferRow } from "../state.ts";
import { JOB_RETRY_MS, type JobErrorHandler } from "../jobs.ts";
import { activeWallet } from "../wallet/wallets.ts";
import { beginTransfer, stepOffer, stepTransfer } from "./lifecycle.ts";
import { TRANSFER_MAX_ATTEMPTS } from "../../../../contract/lifecycles/buyback.ts";

// Acceptance and forwarding: an offer accepted on chain (by the holder, or
// relayed) is confirmed from the marketplace's OfferAccepted log, and the card,
// now at the pool signer, is forwarded to the partner's active pool wallet.

/** Reads the marketplace for active offers: accepted → buyback.confirmed + a pending transfer; past deadline → expired; token burned → cancelled. */
export async function watchOffers(s: Services, onError?: JobErrorHandler): Promise<void> {
  if (!s.chainHost) return;
  const chain = s.chainHost.gateway;
  const active = Object.values(mystery(s).offers).filter((o) => o.status === "active");
  for (const o of active)
    if (!onError) await watchOffer(s, chain, o);
    else await watchOffer(s, chain, o).catch((err: unknown) => onError(`offer ${o.offer_id} watch`, err));
}

/** Brings one active offer up to date with the chain (a replay answers only an offer still active). */
export async function refreshOffer(s: Services, offerId: number): Promise<void> {
  const o = mystery(s).offers[offerId];
  if (s.chainHost && o?.status === "active") await watchOffer(s, s.chainHost.gateway, o);
}

async function watchOffer(s: Services, chain: Chain, o: OfferRow): Promise<void> {
  const used = await offerUsed(chain, o.offer_hash as Hex);
  const row = mystery(s).offers[o.offer_id];
  if (!row || row.status !== "active") return;
  if (!used) {
    if (Math.floor(s.clock.now() / 1000) > row.deadline) stepOffer(s, row, "expire");
    // A burned token can never be sold with it. (A frozen one stays active: accept/prepare shows
    // transfer_frozen, and the offer is acceptable again once the burn is lifted.)
    else if ((await burnState(chain, BigInt(row.token_id))).burned) {
      const now = mystery(s).offers[o.offer_id];
      if (now?.status === "active") stepOffer(s, now, "cancel");
    }
    return;
  }
  const logs = await offerAcceptedLogs(chain, o.offer_hash as Hex);
  const now = mystery(s).offers[o.offer_id];
  if (!now || now.status !== "active") return;
  const accepted = logs[0];
  // One acceptance confirms one offer: a row sharing the hash of an offer already confirmed is void.
  const taken = Object.values(mystery(s).offers).some(
    (x) => x.offer_id !== now.offer_id && x.offer_hash === now.offer_hash && x.status === "accepted",
  );
  if (!accepted || taken) return void stepOffer(s, now, "cancel");
  const log = { ...accepted.args, transactionHash: accepted.transactionHash };
  stepOffer(
    s,
    now,
    "accept",
    { accepted_at: s.clock.nowIso(), accept_tx_hash: accepted.transactionHash },
    { accepted: log },
  );
  const transfer: TransferRow = {
    offer_id: now.offer_id,
    account_id: now.account_id,
    token_id: now.token_id,
    status: "pending",
    attempts: 0,
    due_at_ms: null,
    to_address: null,
    tx_hash: null,
    last_error: null,
  };
  mystery(s).transfers[now.offer_id] = beginTransfer(s, transfer);
}

/** A forwarding still to be tried (pending or held). */
export const isForwarding = (t: TransferRow): boolean => t.status === "pending" || t.status === "held";

/** One forwarding attempt: to the active pool wallet, else held (one event) and retried every 15 minutes; 10 failures are terminal. */
export async function attemptTransfer(s: Services, offerId: number): Promise<void> {
  const t = mystery(s).transfers[offerId];
  if (!t || !isForwarding(t)) return;
  const wallet = activeWallet(s, "pool_wallets", t.account_id);
  let error = "pool_wallet_not_set";
  let message =
    "No pool wallet is set; the transfer retries every 15 minutes until one is set (PUT /mystery/pool-wallet)";
  if (wallet && s.chainHost) {
    const chain = s.chainHost.gateway;
    const data = encodeFunctionData({
      abi: cardNftAbi,
      functionName: "safeTransferFrom",
      args: [chain.poolSigner.address, wallet.address as `0x${string}`, BigInt(t.token_id)],
    });
    try {
      const receipt = await sendAs(chain, chain.poolSigner, chain.addresses.cardNft, data);
      if (receipt.status === "success") {
        const row = mystery(s).transfers[offerId]!;
        const done = { attempts: row.attempts + 1, to_address: wallet.address, tx_hash: receipt.transactionHash };
        const nft = chain.addresses.cardNft;
        stepTransfer(s, row, "transferred", done, { contract: nft });
        return;
      }
      error = "transfer_reverted";
      message = `safeTransferFrom to ${wallet.address} reverted`;
    } catch (err) {
      error = "transfer_error";
      message = (err as Error).message.split("\n")[0]!;
    }
  }
  const row = mystery(s).transfers[offerId]!;
  const tried = { attempts: row.attempts + 1, last_error: message };
  if (tried.attempts >= TRANSFER_MAX_ATTEMPTS) return void stepTransfer(s, row, "fail", tried, { message });
  if (row.status === "pending") stepTransfer(s, row, "hold", tried, { reason: error, message });
  else stepTransfer(s, row, "retry", tried, { reason: error, message });
}

/** Every due forwarding attempt; one that throws is reported and tried again later, the rest go on. */
export async function runDueTransfers(s: Services, onError: JobErrorHandler): Promise<void> {
  const now = s.clock.now();
  const due = Object.values(mystery(s).transfers).filter((t) => isForwarding(t) && (t.due_at_ms ?? Infinity) <= now);
  for (const t of due)
    try {
      await attemptTransfer(s, t.offer_id);
    } catch (err) {
      onError(`buyback transfer ${t.offer_id}`, err);
      const row = mystery(s).transfers[t.offer_id];
      // Not due again at once: an attempt that keeps throwing must not spin the clock.
      const at = s.clock.now();
      if (row && isForwarding(row) && (row.due_at_ms ?? 0) <= at) row.due_at_ms = at + JOB_RETRY_MS;
    }
}
