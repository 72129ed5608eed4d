import {
  REDEMPTION,
  type RedemptionEvent,
  type RedemptionTrigger,
} from "../../../../contract/lifecycles/redemption.ts";
import { begin, transition } from "../../../pipeline/lifecycle.ts";
import type { Services } from "../../../pipeline/services.ts";
import type { RedemptionRow } from "../state.ts";
import { publishBuilt } from "../../../events/publish.ts";
import { REDEMPTION_PAYLOADS } from "../payloads.ts";

// A redemption moves only through its table (contract/lifecycles/redemption.ts):
// this binds the table's events to their payloads (../payloads.ts) and stamps updated_at.

const publish = (s: Services, r: RedemptionRow, event: RedemptionEvent): void =>
  publishBuilt(s, r.account_id, REDEMPTION_PAYLOADS, event, r);

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
