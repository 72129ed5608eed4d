import type { Services } from "../../../pipeline/services.ts";
import { mystery, type RedemptionRow } from "../state.ts";
import { JOB_RETRY_MS, type JobErrorHandler } from "../jobs.ts";
import { isoOf } from "../../../../contract/time.ts";
import { isPaid } from "./payment.ts";
import { dispatch, endUnshipped, notePayment, PREPARE_TTL_MS, startFulfillment } from "./redemption.ts";

// The worker's redemption jobs: the warehouse steps of auto mode, the watch for
// shipping payments, and the end of redemptions whose burn or payment never came.

/** Auto mode: takes every warehouse step that is due; one failing step is logged and retried later, never stopping the rest. */
export async function runDueRedemptions(s: Services, onError: JobErrorHandler): Promise<void> {
  const now = s.clock.now();
  const due = Object.values(mystery(s).redemptions)
    .filter((r) => r.due_at_ms !== null && r.due_at_ms <= now)
    .map((r) => r.redemption_id);
  for (const id of due) {
    try {
      const r = mystery(s).redemptions[id];
      if (!r || r.due_at_ms === null || r.due_at_ms > now) continue;
      if (r.status === "BURN_SUBMITTED") startFulfillment(s, id);
      else if (r.status === "IN_FULFILLMENT") await dispatch(s, id);
      else r.due_at_ms = null;
    } catch (err) {
      onError(`redemption ${id} warehouse step`, err);
      // Not due again at once: a step that keeps failing must not spin the clock.
      const r = mystery(s).redemptions[id];
      if (r && r.due_at_ms !== null && r.due_at_ms <= s.clock.now()) r.due_at_ms = s.clock.now() + JOB_RETRY_MS;
    }
  }
}

export const newExpiry = (s: Services) => isoOf(s.clock.now() + PREPARE_TTL_MS);

const unpaidBurn = (r: RedemptionRow) => r.status === "BURN_SUBMITTED" && !isPaid(r);

/**
 * When a redemption ends unshipped (ms), or null: a pre-burn redemption expires at
 * `expires_at`; a burn whose shipping payment never landed is cancelled then (the quote the
 * holder pays with is valid until the same time).
 */
export function expiryDue(r: RedemptionRow): number | null {
  return r.status === "PREPARED" || unpaidBurn(r) ? Date.parse(r.expires_at) : null;
}

/** Something on chain may still move a redemption: a burn waiting for its shipping payment. */
export const watchingRedemptions = (s: Services) => Object.values(mystery(s).redemptions).some(unpaidBurn);

/**
 * Watches the chain for shipping payments of submitted burns, then ends every redemption past
 * `expires_at` (docs/reference/live-service.md “Redemption”: 24 h): a pre-burn one EXPIRED, a burn whose shipping was
 * never paid CANCELLED (a burn without payment does not ship). The burn flagged on chain is
 * cancelled by the operator so the card is not left frozen; the end user retries with a new key.
 */
export async function expireDueRedemptions(s: Services, onError: JobErrorHandler): Promise<void> {
  if (s.chainHost)
    for (const id of Object.values(mystery(s).redemptions)
      .filter(unpaidBurn)
      .map((r) => r.redemption_id))
      try {
        await notePayment(s, id);
      } catch (err) {
        onError(`redemption ${id} shipping payment`, err);
      }
  const now = s.clock.now();
  const due = Object.values(mystery(s).redemptions)
    .filter((r) => {
      const at = expiryDue(r);
      return at !== null && at <= now;
    })
    .map((r) => r.redemption_id);
  for (const id of due) {
    const r = mystery(s).redemptions[id];
    if (!r || expiryDue(r) === null) continue;
    if (r.status === "BURN_SUBMITTED")
      await endUnshipped(
        s,
        id,
        "CANCELLED",
        `shipping payment for ${r.shipping?.provider_order_id} not received by ${r.expires_at}`,
        onError,
      );
    else await endUnshipped(s, id, "EXPIRED", "expired", onError);
  }
}
