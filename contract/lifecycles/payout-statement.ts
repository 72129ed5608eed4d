import { START, type Lifecycle } from "../lifecycle.ts";
import type { PAYOUT_STATUSES } from "../mystery/revenue.ts";
import { payoutStatement } from "../event-shapes.ts";
import { examplePayoutStatement } from "../event-fixtures.ts";

// A revenue-share payout statement of a TIER partner (docs/mystery.md "Revenue share"): the operator closes the
// open period into a frozen PENDING statement and later pays it (PAID with the transaction). FAILED and VOID are
// statuses the SDK types; nothing in the emulator moves a statement there.

export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
export type PayoutTrigger = "close" | "pay";
export type PayoutEvent = "payout.statement_ready" | "payout.paid";

export const PAYOUT_STATEMENT: Lifecycle<PayoutStatus, PayoutTrigger, never, PayoutEvent> = {
  name: "payout",
  states: ["PENDING", "PAID", "FAILED", "VOID"],
  transitions: [
    {
      from: [START],
      to: "PENDING",
      trigger: "close",
      moves: [],
      events: ["payout.statement_ready"],
      note: "the operator closes the open period (POST /_emulator/mystery/payouts/close)",
    },
    {
      from: ["PENDING"],
      to: "PAID",
      trigger: "pay",
      moves: [],
      events: ["payout.paid"],
      note: "the operator pays it: USDC to the payout wallet, its hash recorded",
    },
  ],
  catalogue: {
    "payout.statement_ready": { data: payoutStatement, example: (f) => examplePayoutStatement(f, "PENDING") },
    "payout.paid": { data: payoutStatement, example: (f) => examplePayoutStatement(f, "PAID") },
  },
};
