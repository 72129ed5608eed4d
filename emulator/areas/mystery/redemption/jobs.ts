import { encodeFunctionData } from "viem";
import { cardNftAbi } from "../../../../chain/index.ts";
import type { Services } from "../../../pipeline/services.ts";
import { burnState, ownerOf, sendAs } from "../chain-io.ts";
import { mystery, type RedemptionRow } from "../state.ts";
import { isoAt, JOB_RETRY_MS, type JobErrorHandler } from "../util.ts";
import { dispatch, PREPARE_TTL_MS, startFulfillment, touch } from "./redemption.ts";

// The worker's redemption jobs: the warehouse steps of auto mode and the
// expiry of redemptions whose burn never came.

/** Auto mode: takes every warehouse step that is due; one failing step is logged and retried later, never stopping the rest. */
export async function runDueRedemptions(s: Services, onError: JobErrorHandler): Promise<void> {
  const now = s.clock.now();
  const due = Object.values(mystery(s).redemptions)
    .filter((r) => r.next_step_at !== null && r.next_step_at <= now)
    .map((r) => r.redemption_id);
  for (const id of due) {
    try {
      const r = mystery(s).redemptions[id];
      if (!r || r.next_step_at === null || r.next_step_at > now) continue;
      if (r.status === "BURN_SUBMITTED") startFulfillment(s, id);
      else if (r.status === "IN_FULFILLMENT") await dispatch(s, id);
      else r.next_step_at = null;
    } catch (err) {
      onError(`redemption ${id} warehouse step`, err);
      // Not due again at once: a step that keeps failing must not spin the clock.
      const r = mystery(s).redemptions[id];
      if (r && r.next_step_at !== null && r.next_step_at <= s.clock.now()) r.next_step_at = s.clock.now() + JOB_RETRY_MS;
    }
  }
}

export const newExpiry = (s: Services) => isoAt(s.clock.now() + PREPARE_TTL_MS);

/** When a redemption expires (ms), or null once the burn is submitted or it ended. */
export function expiryDue(r: RedemptionRow): number | null {
  return r.status === "AWAITING_KYC" || r.status === "PREPARED" ? Date.parse(r.expires_at) : null;
}

/**
 * Expires every pre-burn redemption past `expires_at` (service-facts §4.7: 24 h).
 * A burn the holder flagged on chain but never submitted is cancelled by the
 * operator, so the card is not left frozen; the end user retries with a new key.
 */
export async function expireDueRedemptions(s: Services, onError: JobErrorHandler): Promise<void> {
  const now = s.clock.now();
  const due = Object.values(mystery(s).redemptions)
    .filter((r) => {
      const at = expiryDue(r);
      return at !== null && at <= now;
    })
    .map((r) => r.redemption_id);
  for (const id of due) {
    const before = mystery(s).redemptions[id]!;
    let cancelled = false;
    if (s.chain)
      try {
        const chain = s.chain.chain;
        const tokenId = BigInt(before.token_id);
        const [burn, owner] = [await burnState(chain, tokenId), await ownerOf(chain, tokenId)];
        if (burn.pending && burn.burnType === before.burn_type && owner?.toLowerCase() === before.holder.toLowerCase()) {
          const data = encodeFunctionData({ abi: cardNftAbi, functionName: "cancelBurn", args: [tokenId] });
          cancelled = (await sendAs(chain, chain.operator, chain.addresses.cardNft, data)).status === "success";
        }
      } catch (err) {
        // The redemption expires all the same; only the clean-up on chain is lost.
        onError(`redemption ${id} expiry (cancelBurn)`, err);
      }
    const r = mystery(s).redemptions[id];
    if (!r || expiryDue(r) === null) continue;
    r.failure_reason = cancelled ? "expired (the burn flagged on chain was cancelled)" : "expired";
    r.next_step_at = null;
    touch(s, r, "EXPIRED");
  }
}
