import { REDEMPTION, type RedemptionTrigger } from "../../../../contract/lifecycles/redemption.ts";
import { begin, transition } from "../../../pipeline/lifecycle.ts";
import type { Services } from "../../../pipeline/services.ts";
import type { RedemptionRow } from "../state.ts";
import { emit } from "../util.ts";

// A redemption moves only through its table (contract/lifecycles/redemption.ts):
// this binds the table's events to their payloads and stamps updated_at.

function publish(s: Services, r: RedemptionRow, event: "redemption.prepared" | "redemption.updated"): void {
  const base = { redemption_id: r.redemption_id, purchase_id: r.purchase_id, token_id: r.token_id, item_type: r.item_type, status: r.status };
  if (event === "redemption.prepared") emit(s, r.account_id, event, String(r.redemption_id), base);
  else emit(s, r.account_id, event, `${r.redemption_id}:${r.status}`, { ...base, burn_tx_hash: r.burn_tx_hash, failure_reason: r.failure_reason });
}

/** Moves the redemption by `trigger` (409 invalid_status when its table has no such move), updated_at now. */
export function stepRedemption(s: Services, r: RedemptionRow, trigger: RedemptionTrigger, patch?: Partial<RedemptionRow>): RedemptionRow {
  // A move without an event (the payment seen) leaves updated_at as it was.
  const stamp = trigger === "paid" ? {} : { updated_at: s.clock.nowIso() };
  return transition(REDEMPTION, r, trigger, { now: s.clock.now(), patch: { ...patch, ...stamp }, emit: (e) => publish(s, r, e) });
}

/** The first move of a new redemption (stored PREPARED): redemption.prepared. */
export function beginRedemption(s: Services, r: RedemptionRow): RedemptionRow {
  return begin(REDEMPTION, r, "prepare", { now: s.clock.now(), emit: (e) => publish(s, r, e) });
}
