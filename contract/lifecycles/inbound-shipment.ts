import { START, type Lifecycle } from "../lifecycle.ts";
import type { InboundStatus } from "../warehouse/inbound.ts";

// An inbound shipment (docs/warehouse.md): announced by the tenant, changed or cancelled while it is on its way,
// received by the warehouse (an operator action: its cards appear pending identity). Attachments may still be
// added or removed once it is received. Every move logs the tenant's activity beside it; none publishes a webhook.

export type InboundTrigger = "announce" | "update" | "cancel" | "receive" | "attach";

export const INBOUND_SHIPMENT: Lifecycle<InboundStatus, InboundTrigger, never, never> = {
  name: "inbound shipment",
  states: ["ANNOUNCED", "RECEIVED", "CANCELLED"],
  transitions: [
    {
      from: [START],
      to: "ANNOUNCED",
      trigger: "announce",
      moves: [],
      events: [],
      note: "POST /inbound-shipments (idempotent on submission_key)",
    },
    {
      from: ["ANNOUNCED"],
      to: "ANNOUNCED",
      trigger: "update",
      moves: [],
      events: [],
      note: "PATCH: tracking, counts, declared value",
    },
    {
      from: ["ANNOUNCED"],
      to: "CANCELLED",
      trigger: "cancel",
      moves: [],
      events: [],
      note: "cancelled by the tenant",
    },
    {
      from: ["ANNOUNCED"],
      to: "RECEIVED",
      trigger: "receive",
      moves: [],
      events: [],
      note: "the package arrived (operator): its cards appear pending identity",
    },
    {
      from: ["ANNOUNCED"],
      to: "ANNOUNCED",
      trigger: "attach",
      moves: [],
      events: [],
      note: "an attachment added or removed",
    },
    {
      from: ["RECEIVED"],
      to: "RECEIVED",
      trigger: "attach",
      moves: [],
      events: [],
      note: "an attachment added or removed after receipt",
    },
  ],
  catalogue: {},
};
