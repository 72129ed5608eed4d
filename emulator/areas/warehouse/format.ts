import type { CardRow, InboundShipment, Order, TenantState, Withdrawal } from "./model.ts";
import { toCents } from "./money.ts";
import type {
  InboundShipment as InboundWire,
  InventoryCard as InventoryCardWire,
  Order as OrderWire,
  WarehouseCard as CardWire,
  Withdrawal as WithdrawalWire,
} from "../../../contract/index.ts";

// Wire shapes (the contract's: contract/warehouse/). Cards: the interface's raw-card table
// (unique_id, identity, pricing, insured_price, declared_value) plus location
// and, for slabs, the grading; `status` only where the inventory listing adds it.

export function warehouseCardWire(c: CardRow): CardWire;
export function warehouseCardWire(c: CardRow, opts: { withStatus: true }): InventoryCardWire;
export function warehouseCardWire(c: CardRow, opts: { withStatus?: boolean } = {}): CardWire | InventoryCardWire {
  return {
    unique_id: c.unique_id,
    type: c.type,
    identity: { ...c.identity },
    pricing: { ...c.pricing },
    insured_price: c.insured_price,
    declared_value: c.declared_value ? { ...c.declared_value } : null,
    ...(c.grading ? { grading: { ...c.grading } } : {}),
    location: c.location,
    site_id: c.site_id,
    ...(opts.withStatus ? { status: c.status, held_by: c.held_by } : {}),
    received_at: c.received_at,
    updated_at: c.updated_at,
  };
}

export function orderWire(o: Order): OrderWire {
  const { quoted_by: _by, due_at_ms: _due, label_billed_month: _billed, awaiting_scan, ...rest } = o;
  // The interface types rate_id as a string: until a rate is chosen (and after a failed label purchase undid the
  // choice) it is the quote's cheapest rate (docs/decisions.md); the record keeps null there, meaning "none chosen".
  const rate_id = o.rate_id ?? cheapestRate(o.rates)?.rate_id ?? "";
  return { ...structuredClone(rest), rate_id, awaiting_scan_unique_ids: [...awaiting_scan] };
}

/** The quote's cheapest rate, the first of equals (a quote has at least one). */
function cheapestRate(rates: Order["rates"]): Order["rates"][number] | undefined {
  let best: Order["rates"][number] | undefined;
  for (const r of rates) if (!best || toCents(r.amount) < toCents(best.amount)) best = r;
  return best;
}

/** Cards in the vault: listed by /cards and /inventory (shipped, returning, withdrawn and transferred ones are not; GET /cards/{id} still answers for them). */
export const IN_VAULT: ReadonlySet<string> = new Set(["AVAILABLE", "RESERVED"]);

export function vaultCards(t: TenantState): CardRow[] {
  return Object.values(t.cards).filter((c) => IN_VAULT.has(c.status));
}

/** An inbound shipment as the API shows it (a copy: the stored record stays the store's). */
export const inboundWire = (s: InboundShipment): InboundWire => structuredClone(s);

/** A withdrawal is stored in its wire shape; a copy keeps callers off the state. */
export const withdrawalWire = (w: Withdrawal): WithdrawalWire => structuredClone(w);
