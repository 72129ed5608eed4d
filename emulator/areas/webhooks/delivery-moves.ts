import { WEBHOOK_DELIVERY, type DeliveryTrigger } from "../../../contract/lifecycles/webhook-delivery.ts";
import { startState, transition } from "../../pipeline/lifecycle.ts";
import type { DeliveryRecord } from "./model.ts";

// A delivery changes state only by its table (contract/lifecycles/webhook-delivery.ts): the dispatcher's
// attempts and the operator's resend both move it here, the retry time and the answer written beside the move.

/** The state a new delivery starts in. */
export const NEW_DELIVERY_STATUS = startState(WEBHOOK_DELIVERY, "create");

/** Moves `d` by `trigger` (409 invalid_status, nothing written, for a move the table lacks), writing `patch` too. */
export function moveDelivery(
  d: DeliveryRecord,
  trigger: DeliveryTrigger,
  now: number,
  patch: Partial<DeliveryRecord>,
): DeliveryRecord {
  return transition(WEBHOOK_DELIVERY, d, trigger, { now, patch, emit: () => undefined });
}
