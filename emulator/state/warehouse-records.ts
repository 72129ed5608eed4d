// The warehouse's card and invoice records, as plain JSON. They live here, in
// the data model, because the fixtures build them as well as the warehouse area
// (which re-exports them from its model.ts).

// The wire's enums are the contract's (contract/warehouse/cards.ts).
import { CARD_LOCATIONS, CARD_STATUSES, type CardLocation, type CardStatus } from "../../contract/index.ts";

export { CARD_LOCATIONS, CARD_STATUSES, type CardLocation, type CardStatus };

export interface DeclaredValue {
  /** USD cents. */
  amount: number;
  source: "tenant" | "service";
}

export interface CardRow {
  unique_id: string;
  type: "raw" | "graded";
  identity: { status: "unconfirmed" | "confirmed"; card_id: string | null; name: string | null; game: string | null };
  pricing: { status: "unverified" | "unpriced" | "priced"; market_price: string | null };
  insured_price: string | null;
  declared_value: DeclaredValue | null;
  grading: { company: string; grade: string; cert_number: string } | null;
  location: CardLocation;
  status: CardStatus;
  site_id: string;
  /** Order or withdrawal currently holding the card. */
  held_by: string | null;
  received_at: string;
  updated_at: string;
  /** Keyset position: bumped on every change, so `since` sweeps see updates. */
  rev: number;
}

export interface InvoiceLine {
  kind: "storage" | "label" | "inbound" | "withdrawal";
  description: string;
  quantity: number;
  unit_amount: string;
  amount: string;
}

export interface Invoice {
  invoice_id: string;
  month: string;
  period: { from: string; to: string };
  status: "ISSUED" | "PAID";
  currency: "USD";
  lines: InvoiceLine[];
  total: string;
  issued_at: string;
  due_at: string;
}
