import { START, type Lifecycle } from "../lifecycle.ts";
import type { WITHDRAWAL_STATUSES } from "../warehouse/withdrawals.ts";

// A withdrawal (docs/warehouse.md): the tenant asks to take cards out (they are held for it), the warehouse hands
// them over (an operator action: the cards leave, WITHDRAWN and EXTERNAL). No webhook; the activity log has both.

export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export type WithdrawalTrigger = "request" | "complete";

export const WITHDRAWAL: Lifecycle<WithdrawalStatus, WithdrawalTrigger, never, never> = {
  name: "withdrawal",
  states: ["REQUESTED", "COMPLETED"],
  transitions: [
    {
      from: [START],
      to: "REQUESTED",
      trigger: "request",
      moves: [],
      events: [],
      note: "POST /withdrawals: the cards held for it (idempotent on idempotency_key)",
    },
    {
      from: ["REQUESTED"],
      to: "COMPLETED",
      trigger: "complete",
      moves: [],
      events: [],
      note: "picked up or shipped (operator): the cards leave the vault",
    },
  ],
  catalogue: {},
};
