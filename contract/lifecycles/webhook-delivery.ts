import { START, type Lifecycle } from "../lifecycle.ts";

// A webhook delivery (docs/webhooks.md): one event to one webhook, attempted now and retried on the schedule
// until the receiver answers 2xx or the schedule runs out. The retry times vary per attempt, so the dispatcher
// writes `next_retry_at` beside each move (the table leaves the due time alone); a delivery publishes no event
// of its own (each attempt is recorded instead).

export type DeliveryStatus = "PENDING" | "DELIVERED" | "FAILED";

export type DeliveryTrigger = "create" | "retry" | "deliver" | "give_up" | "deactivated" | "resend";

export const WEBHOOK_DELIVERY: Lifecycle<DeliveryStatus, DeliveryTrigger, never, never> = {
  name: "delivery",
  states: ["PENDING", "DELIVERED", "FAILED"],
  transitions: [
    {
      from: [START],
      to: "PENDING",
      trigger: "create",
      moves: [],
      events: [],
      note: "an event matches the webhook: the first attempt is due now",
    },
    {
      from: ["PENDING"],
      to: "PENDING",
      trigger: "retry",
      moves: [],
      events: [],
      note: "an attempt failed (non-2xx, timeout, refused): the next is due on the schedule",
    },
    {
      from: ["PENDING"],
      to: "DELIVERED",
      trigger: "deliver",
      moves: [],
      events: [],
      note: "the receiver answered 2xx",
    },
    {
      from: ["PENDING"],
      to: "FAILED",
      trigger: "give_up",
      moves: [],
      events: [],
      note: "the last attempt of the schedule failed",
    },
    {
      from: ["PENDING"],
      to: "FAILED",
      trigger: "deactivated",
      moves: [],
      events: [],
      note: "the webhook was deactivated: its retries stop",
    },
    {
      from: ["PENDING", "DELIVERED", "FAILED"],
      to: "PENDING",
      trigger: "resend",
      moves: [],
      events: [],
      note: "the operator resends it (control plane): attempted again at once",
    },
  ],
  catalogue: {},
};
