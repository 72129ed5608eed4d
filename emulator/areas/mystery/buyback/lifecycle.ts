import {
  BUYBACK_OFFER,
  BUYBACK_TRANSFER,
  type OfferEvent,
  type OfferTrigger,
  type TransferEvent,
  type TransferTrigger,
} from "../../../../contract/lifecycles/buyback.ts";
import { begin, transition } from "../../../pipeline/lifecycle.ts";
import type { Services } from "../../../pipeline/services.ts";
import { publishBuilt } from "../../../events/publish.ts";
import type { OfferRow, TransferRow } from "../state.ts";
import { OFFER_PAYLOADS, TRANSFER_PAYLOADS, type AcceptedLog, type TransferInput } from "../payloads.ts";

// Offers and their forwarding move only through their tables (contract/lifecycles/buyback.ts).
// The events carry what the chain said (the acceptance's log, the transfer's error), so the
// caller passes it beside the move; the payloads are built in ../payloads.ts.

/** What the chain said about the move: the acceptance's log (buyback.confirmed). */
export interface OfferNews {
  accepted?: AcceptedLog;
}

const offerContext = (s: Services, o: OfferRow, trigger: OfferTrigger, news: OfferNews, patch?: Partial<OfferRow>) => ({
  now: s.clock.now(),
  patch,
  emit: (event: OfferEvent) => {
    if (!news.accepted) throw new Error(`buyback lifecycle: ${trigger} publishes ${event} and no log was given`);
    publishBuilt(s, o.account_id, OFFER_PAYLOADS, event, { o, accepted: news.accepted });
  },
});

const transferContext = (s: Services, t: TransferRow, news: TransferNews, patch?: Partial<TransferRow>) => ({
  now: s.clock.now(),
  patch,
  emit: (event: TransferEvent) => publishBuilt(s, t.account_id, TRANSFER_PAYLOADS, event, { s, t, ...news }),
});

/** What a forwarding attempt said (the held reason, the error message, the card contract). */
export type TransferNews = Omit<TransferInput, "s" | "t">;

/** Moves the offer by `trigger` (409 invalid_status when its table has no such move). */
export function stepOffer(
  s: Services,
  o: OfferRow,
  trigger: OfferTrigger,
  patch?: Partial<OfferRow>,
  news: OfferNews = {},
): OfferRow {
  return transition(BUYBACK_OFFER, o, trigger, offerContext(s, o, trigger, news, patch));
}

/** Moves the forwarding by `trigger` (409 invalid_status when its table has no such move). */
export function stepTransfer(
  s: Services,
  t: TransferRow,
  trigger: TransferTrigger,
  patch?: Partial<TransferRow>,
  news: TransferNews = {},
): TransferRow {
  return transition(BUYBACK_TRANSFER, t, trigger, transferContext(s, t, news, patch));
}

/** The first move of a new offer (stored active). */
export const beginOffer = (s: Services, o: OfferRow): OfferRow =>
  begin(BUYBACK_OFFER, o, "offer", offerContext(s, o, "offer", {}));

/** The first move of a new forwarding (stored pending): due now. */
export const beginTransfer = (s: Services, t: TransferRow): TransferRow =>
  begin(BUYBACK_TRANSFER, t, "forward", transferContext(s, t, {}));
