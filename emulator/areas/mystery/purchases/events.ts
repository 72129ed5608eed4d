import { publishBuilt } from "../../../events/publish.ts";
import type { Services } from "../../../pipeline/services.ts";
import type { PurchaseRow } from "../state.ts";
import { PURCHASE_SIDE_PAYLOADS } from "../payloads.ts";
import { COUNTERS } from "../../../state/ids.ts";

// pool.item_pulled, a side event of the purchase table (contract/lifecycles/purchases.ts): who gets it and
// when; its payload is built in ../payloads.ts.

/** The account's billing model, read from its partner keys (POOL when any key says so). */
function isPoolAccount(s: Services, accountId: string): boolean {
  return Object.values(s.store.state.keys).some(
    (k) => k.account_id === accountId && k.kind === "partner" && k.billing_model === "POOL",
  );
}

/** pool.item_pulled (POOL model only): one event per item a reveal drew from the partner's pool. */
export function emitItemsPulled(
  s: Services,
  p: PurchaseRow,
  ctx: { cardContract: string; revealTx: string | null },
): void {
  if (!isPoolAccount(s, p.account_id)) return;
  for (const item of p.items ?? []) {
    const usageId = s.store.nextId(COUNTERS.mysteryPulledItem);
    publishBuilt(s, p.account_id, PURCHASE_SIDE_PAYLOADS, "pool.item_pulled", { s, p, item, usageId, ...ctx });
  }
}
