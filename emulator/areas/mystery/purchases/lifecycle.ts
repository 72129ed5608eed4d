import {
  MYSTERY_PURCHASE,
  type WalletMove,
  type MysteryPurchaseEvent,
} from "../../../../contract/lifecycles/purchases.ts";
import { bindLifecycle, type Amounts, type TransitionContext } from "../../../pipeline/lifecycle.ts";
import type { Services } from "../../../pipeline/services.ts";
import type { PurchaseRow } from "../state.ts";
import { endUser } from "../wallet/end-users.ts";
import { applyMove, purchaseRef } from "../wallet/ledger.ts";
import { publishBuilt } from "../../../events/publish.ts";
import { PURCHASE_PAYLOADS } from "../payloads.ts";

// A mystery purchase moves only through its table (contract/lifecycles/purchases.ts):
// this binds the table's ledger movements to the end user's custodial balance
// (custodial purchases only) and its events to the purchase.* payloads.

/** What the purchase holds on the balance: its price cap (max_price_usdc, default the tier's price). */
export const holdOf = (p: PurchaseRow): bigint => BigInt(p.max_price_micros ?? p.price_micros);

type Context = TransitionContext<PurchaseRow, WalletMove, MysteryPurchaseEvent>;

function context(s: Services, p: PurchaseRow, patch?: Partial<PurchaseRow>, amounts?: Amounts): Context {
  const who = { external_user_id: p.external_user_id, wallet_address: p.purchaser_address };
  const ledger = (move: WalletMove, micros: bigint) =>
    void applyMove(s, p.account_id, endUser(s, p.account_id, who), move, micros, purchaseRef(p.id));
  return {
    now: s.clock.now(),
    patch,
    amounts: { hold: holdOf(p), ...amounts },
    ledger: p.custody === "CUSTODIAL" ? ledger : undefined,
    emit: (event) => publishBuilt(s, p.account_id, PURCHASE_PAYLOADS, event, p),
  };
}

const MOVES = bindLifecycle(MYSTERY_PURCHASE, context, ["reserve", "submit"]);

/** Moves the purchase by `trigger` (409 invalid_status when its table has no such move). */
export const stepPurchase = MOVES.step;

/** The first move of a new purchase: the custodial hold, its event and due time. */
export const beginPurchase = MOVES.begin;
