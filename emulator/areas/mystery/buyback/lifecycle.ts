import {
  BUYBACK_OFFER,
  BUYBACK_TRANSFER,
  type OfferTrigger,
  type TransferTrigger,
} from "../../../../contract/lifecycles/buyback.ts";
import { begin, transition } from "../../../pipeline/lifecycle.ts";
import type { Services } from "../../../pipeline/services.ts";
import type { OfferRow, TransferRow } from "../state.ts";

// Offers and their forwarding move only through their tables (contract/lifecycles/buyback.ts).
// The events carry what the chain said (the acceptance's log, the transfer's error), so the
// caller publishes them: `publish` runs once, after the move, when the table names an event.

const publisher = (what: string, publish?: () => void) => () => {
  if (!publish) throw new Error(`buyback lifecycle: ${what} publishes an event and no publisher was given`);
  publish();
};

/** Moves the offer by `trigger` (409 invalid_status when its table has no such move). */
export function stepOffer(
  s: Services,
  o: OfferRow,
  trigger: OfferTrigger,
  patch?: Partial<OfferRow>,
  publish?: () => void,
): OfferRow {
  return transition(BUYBACK_OFFER, o, trigger, { now: s.clock.now(), patch, emit: publisher(trigger, publish) });
}

/** Moves the forwarding by `trigger` (409 invalid_status when its table has no such move). */
export function stepTransfer(
  s: Services,
  t: TransferRow,
  trigger: TransferTrigger,
  patch?: Partial<TransferRow>,
  publish?: () => void,
): TransferRow {
  return transition(BUYBACK_TRANSFER, t, trigger, { now: s.clock.now(), patch, emit: publisher(trigger, publish) });
}

/** The first move of a new offer (stored active). */
export const beginOffer = (s: Services, o: OfferRow): OfferRow =>
  begin(BUYBACK_OFFER, o, "offer", { now: s.clock.now(), emit: publisher("offer") });

/** The first move of a new forwarding (stored pending): due now. */
export const beginTransfer = (s: Services, t: TransferRow): TransferRow =>
  begin(BUYBACK_TRANSFER, t, "forward", { now: s.clock.now(), emit: publisher("forward") });
