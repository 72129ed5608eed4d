import { parseEventLogs } from "../../../../chain/viem-late.ts";
import { BURN_TYPE_LABELS, cardNftAbi } from "../../../../chain/index.ts";
import { ApiError, badRequest, conflict, notFound } from "../../../pipeline/errors.ts";
import { stateFence } from "../../../pipeline/generation.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import type { Services } from "../../../pipeline/services.ts";
import { burnInitiatedLogs, burnState, chainOf, ownerOf, receiptOf } from "../chain-io.ts";
import { mystery, type RedemptionRow } from "../state.ts";
import { txLockKey } from "../locks.ts";
import { armWorker } from "../worker.ts";
import { expireIfDue } from "./prepare.ts";
import { isPaid, paidIn } from "./payment.ts";
import { awaitingKyc, notePayment } from "./redemption.ts";
import { stepRedemption } from "./lifecycle.ts";

// The partner submits the holder's transaction: PREPARED → BURN_SUBMITTED
// once the chain shows exactly this burn pending. The hash may be the burn's or
// the shipping payment's (a wallet that batches the three calls has one hash);
// the item ships only once the payment has landed (jobs.ts watches for it).

/**
 * Verifies the holder's transaction and moves PREPARED → BURN_SUBMITTED. The receipt alone is
 * not enough: a burn flagged for an earlier (expired) redemption may have been cancelled since,
 * leaving the token free to move. So the token's current on-chain state must be exactly this
 * burn: pending, of the redemption's burn type, held by the holder, and no later BurnInitiated
 * for the token (a cancel + re-flag would be newer). A payment transaction stands for the burn
 * it paid for: the token's latest BurnInitiated, checked the same way.
 */
async function submitBurn(s: Services, r: RedemptionRow, hash: `0x${string}`): Promise<void> {
  const sameState = stateFence(s);
  const chain = chainOf(s);
  const receipt = await receiptOf(chain, hash);
  const invalid = (why: string, reason: string) =>
    badRequest("invalid_tx_hash", `tx_hash ${why}`, { details: { tx_hash: hash, reason } });
  if (!receipt) throw invalid("is not on the chain (submit after the burn transaction is mined)", "not_found");
  if (receipt.status !== "success") throw invalid("reverted on chain", "reverted");
  const nft = chain.addresses.cardNft.toLowerCase();
  const burns = parseEventLogs({
    abi: cardNftAbi,
    eventName: "BurnInitiated",
    logs: receipt.logs.filter((l) => l.address.toLowerCase() === nft),
  });
  const mine = burns.find((e) => e.args.tokenId.toString() === r.token_id);
  const payment = paidIn(chain, r, receipt);
  if (!mine && !payment)
    throw invalid(
      `has no BurnInitiated for token ${r.token_id} (nor the shipping payment of this redemption)`,
      "no_burn",
    );
  if (mine && mine.args.burnType !== r.burn_type)
    throw invalid(
      `flags token ${r.token_id} for ${BURN_TYPE_LABELS[mine.args.burnType] ?? mine.args.burnType}, not ${BURN_TYPE_LABELS[r.burn_type]}`,
      "wrong_burn_type",
    );
  if (mine && mine.args.holder.toLowerCase() !== r.holder.toLowerCase())
    throw invalid(`was sent by ${mine.args.holder}, not the holder ${r.holder}`, "wrong_holder");
  const tokenId = BigInt(r.token_id);
  const burn = await burnState(chain, tokenId);
  const owner = await ownerOf(chain, tokenId);
  const flagged = await burnInitiatedLogs(chain, tokenId, mine ? receipt.blockNumber : chain.deployBlock);
  const latest = flagged.at(-1);
  const burnHash = mine ? hash : latest?.transactionHash;
  if (
    !burn.pending ||
    burn.burnType !== r.burn_type ||
    owner?.toLowerCase() !== r.holder.toLowerCase() ||
    !burnHash ||
    latest?.transactionHash?.toLowerCase() !== burnHash.toLowerCase()
  )
    throw invalid(
      `is not the pending burn of token ${r.token_id} (cancelled, finalised or superseded on chain); flag the token again with unsigned.calls`,
      "burn_not_pending",
    );
  sameState();
  // Re-read after the awaits: the worker may have expired the redemption meanwhile
  // (it only expires rows past expires_at, so a row still before it is safe to move).
  const row = mystery(s).redemptions[r.redemption_id];
  if (!row || row.status !== "PREPARED" || Date.parse(row.expires_at) <= s.clock.now())
    throw conflict(
      "invalid_status",
      `Redemption ${r.redemption_id} is ${row?.status ?? "gone"}${row && row.status === "PREPARED" ? " but expired" : ""}; only PREPARED redemptions take a burn transaction`,
    );
  stepRedemption(s, row, "burn", { burn_tx_hash: burnHash });
  // The warehouse is due only once the shipping payment is on chain (now, or when the worker sees it).
  if (isPaid(row)) stepRedemption(s, row, "paid");
  else await notePayment(s, row.redemption_id);
}

/** The transactions recorded for a redemption: its burn and its shipping payment. */
const hashesOf = (r: RedemptionRow) =>
  [r.burn_tx_hash, r.shipping?.paid_tx_hash].filter((h): h is string => !!h).map((h) => h.toLowerCase());

/**
 * Takes the burn (or shipping payment) transaction of a redemption of the account (404 otherwise). Exclusive per
 * redemption and per burn hash: one hash satisfies one redemption only; the same hash again
 * answers the redemption as it is.
 */
export async function submitRedemption(
  s: Services,
  accountId: string,
  id: number | null,
  label: string,
  hash: `0x${string}`,
): Promise<RedemptionRow & { burn_tx_hash: string }> {
  const found = id === null ? undefined : mystery(s).redemptions[id];
  if (!found || found.account_id !== accountId) throw notFound(`No redemption ${label} on this account`);
  return withKeyLock(s, [`mystery:redemption:${found.redemption_id}`, txLockKey(hash)], async () => {
    await expireIfDue(s, found.redemption_id);
    const r = mystery(s).redemptions[found.redemption_id]!;
    // The same hash again answers the burn it recorded (a row ended before any burn was recorded is 409 below).
    if (r.status !== "PREPARED" && r.burn_tx_hash && hashesOf(r).includes(hash.toLowerCase()))
      return r as RedemptionRow & { burn_tx_hash: string };
    const other = Object.values(mystery(s).redemptions).find(
      (x) => x.redemption_id !== r.redemption_id && hashesOf(x).includes(hash.toLowerCase()),
    );
    if (other)
      throw conflict(
        "tx_already_recorded",
        `tx_hash is already the burn of redemption ${other.account_id === r.account_id ? other.redemption_id : "of another partner"}; one burn transaction satisfies one redemption`,
      );
    if (r.status === "PREPARED" && awaitingKyc(r))
      throw conflict(
        "kyc_required",
        `Redemption ${r.redemption_id} is waiting for KYC; send the end user to kyc.kyc_url first`,
      );
    if (r.status !== "PREPARED")
      throw conflict(
        "invalid_status",
        `Redemption ${r.redemption_id} is ${r.status}; only PREPARED redemptions take a burn transaction`,
      );
    await submitBurn(s, r, hash);
    armWorker(s);
    const row = mystery(s).redemptions[r.redemption_id];
    // The state was replaced meanwhile (restore, import): the burn is not recorded.
    if (!row?.burn_tx_hash)
      throw conflict(
        "invalid_status",
        `Redemption ${r.redemption_id} changed while the burn was recorded; read it and submit again`,
      );
    return row as RedemptionRow & { burn_tx_hash: string };
  });
}

/**
 * `?verify=true` on the get: reconciles each row with the chain first (docs/reference/live-service.md “Redemption”: the
 * on-chain read is forced): a PREPARED row whose burn the holder flagged but never submitted is
 * taken as a submit of that burn would take it; a landed shipping payment is recorded; a burn
 * finalised on chain reads is_burned.
 */
export async function verifyRedemptions(s: Services, ids: readonly number[]): Promise<void> {
  const chain = chainOf(s);
  for (const id of ids)
    await withKeyLock(s, `mystery:redemption:${id}`, async () => {
      await expireIfDue(s, id);
      const r = mystery(s).redemptions[id];
      if (!r) return;
      const tokenId = BigInt(r.token_id);
      // A row waiting for KYC has no calls yet: a burn flagged meanwhile is not taken for it.
      if (r.status === "PREPARED" && !awaitingKyc(r) && (await burnState(chain, tokenId)).pending) {
        const flagged = await burnInitiatedLogs(chain, tokenId);
        const hash = flagged.at(-1)?.transactionHash;
        try {
          if (hash) await submitBurn(s, r, hash);
        } catch (err) {
          // Not this redemption's burn (another type or holder): the row stays as it is.
          if (!(err instanceof ApiError)) throw err;
        }
      }
      await notePayment(s, id);
      const row = mystery(s).redemptions[id];
      if (row && !row.is_burned && (await burnState(chain, tokenId)).burned) row.is_burned = true;
    });
  armWorker(s);
}
