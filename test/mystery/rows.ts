import type { PurchaseRow } from "../../emulator/areas/mystery/state.ts";
import type { InstantPurchaseRow } from "../../emulator/areas/instant/state.ts";

// Purchase rows of the fixture partner acme, as the store keeps them: for tests of how rows are answered
// (written into the store directly, no chain).

/** A revealed mystery purchase without items. */
export const purchaseRow = (id: number): PurchaseRow => ({
  id,
  account_id: "acme",
  custody: "NON_CUSTODIAL",
  status: "FULFILLED",
  tier_id: 1,
  price_micros: "25000000",
  onchain_request_id: "1",
  transaction_hash: `0x${"ab".repeat(32)}`,
  purchaser_address: `0x${"12".repeat(20)}`,
  external_user_id: null,
  failure_reason: null,
  reserved_at: null,
  submitted_at: "2026-01-01T00:00:00.000Z",
  fulfilled_at: "2026-01-01T00:00:01.000Z",
  created_at: "2026-01-01T00:00:00.000Z",
  items: [],
});

/** A submitted instant purchase (not opened yet). */
export const instantRow = (id: number): InstantPurchaseRow => ({
  id,
  account_id: "acme",
  status: "SUBMITTED",
  custody: "NON_CUSTODIAL",
  packet_type_id: 1,
  set_id: null,
  product_id: null,
  price_micros: "5000000",
  onchain_request_id: "2",
  transaction_hash: `0x${"cd".repeat(32)}`,
  purchaser_address: `0x${"34".repeat(20)}`,
  recipient_address: `0x${"34".repeat(20)}`,
  external_user_id: null,
  failure_reason: null,
  reserved_at: null,
  submitted_at: "2026-01-01T00:00:00.000Z",
  fulfilled_at: null,
  created_at: "2026-01-01T00:00:00.000Z",
  due_at_ms: null,
  pack: null,
  cards: null,
});
