import {
  INSTANT_PURCHASE,
  type WalletMove,
  type InstantPurchaseEvent,
} from "../../../contract/lifecycles/purchases.ts";
import { userWalletOf, type UserWalletRef } from "../../pipeline/user-wallet-port.ts";
import { bindLifecycle, type Amounts, type TransitionContext } from "../../pipeline/lifecycle.ts";
import type { Services } from "../../pipeline/services.ts";
import { publishBuilt } from "../../events/publish.ts";
import { INSTANT_PAYLOADS } from "./payloads.ts";
import type { InstantPurchaseRow } from "./state.ts";

// An instant purchase moves only through its table (contract/lifecycles/purchases.ts):
// this binds the table's ledger movements to the end user's custodial balance (the
// mystery area's wallet, through pipeline/user-wallet-port.ts; custodial purchases only)
// and its events to the instant_purchase.* payloads.

/** How the end user's custodial ledger names a custodial instant purchase. */
export const userWalletRefOf = (p: InstantPurchaseRow): UserWalletRef => ({
  source: "instant_purchase",
  id: p.id,
  label: `instant purchase ${p.id}`,
});

type Context = TransitionContext<InstantPurchaseRow, WalletMove, InstantPurchaseEvent>;

function context(s: Services, p: InstantPurchaseRow, patch?: Partial<InstantPurchaseRow>, amounts?: Amounts): Context {
  const user = p.custody === "CUSTODIAL" ? p.external_user_id : null;
  return {
    now: s.clock.now(),
    patch,
    amounts: { hold: BigInt(p.price_micros), ...amounts },
    ledger:
      user === null
        ? undefined
        : (move, micros) => userWalletOf(s).move(p.account_id, user, move, micros, userWalletRefOf(p)),
    emit: (event) => publishBuilt(s, p.account_id, INSTANT_PAYLOADS, event, { s, p }),
  };
}

const MOVES = bindLifecycle(INSTANT_PURCHASE, context, ["reserve", "submit"]);

/** Moves the purchase by `trigger` (409 invalid_status when its table has no such move). */
export const stepInstant = MOVES.step;

/** The first move of a new purchase: the custodial hold, its event and due time. */
export const beginInstant = MOVES.begin;
