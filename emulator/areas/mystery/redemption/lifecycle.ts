import {
  REDEMPTION,
  type RedemptionEvent,
  type RedemptionTrigger,
} from "../../../../contract/lifecycles/redemption.ts";
import { begin, transition } from "../../../pipeline/lifecycle.ts";
import type { Services } from "../../../pipeline/services.ts";
import type { RedemptionRow } from "../state.ts";
import { emit } from "../util.ts";

// A redemption moves only through its table (contract/lifecycles/redemption.ts):
// this binds the table's events to their payloads and stamps updated_at.

function publish(s: Services, r: RedemptionRow, event: RedemptionEvent): void {
  const { redemption_id, purchase_id, token_id, item_type, status } = r;
  const base = { redemption_id, purchase_id, token_id, item_type, status };
  if (event === "redemption.prepared") emit(s, r.account_id, event, String(redemption_id), base);
  else {
    const data = { ...base, burn_tx_hash: r.burn_tx_hash, failure_reason: r.failure_reason };
    emit(s, r.account_id, event, `${redemption_id}:${status}`, data);
  }
}

/** Moves the redemption by `trigger` (409 invalid_status when its table has no such move), updated_at now. */
export function stepRedemption(
  s: Services,
  r: RedemptionRow,
  trigger: RedemptionTrigger,
  patch?: Partial<RedemptionRow>,
): RedemptionRow {
  // A move without an event (the payment seen) leaves updated_at as it was.
  const stamp = trigger === "paid" ? {} : { updated_at: s.clock.nowIso() };
  const ctx = { now: s.clock.now(), patch: { ...patch, ...stamp }, emit: (e: RedemptionEvent) => publish(s, r, e) };
  return transition(REDEMPTION, r, trigger, ctx);
}

/** The first move of a new redemption (stored PREPARED): redemption.prepared. */
export function beginRedemption(s: Services, r: RedemptionRow): RedemptionRow {
  return begin(REDEMPTION, r, "prepare", { now: s.clock.now(), emit: (e) => publish(s, r, e) });
}
