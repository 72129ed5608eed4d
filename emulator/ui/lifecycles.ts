import { START } from "../../contract/lifecycle.ts";
import {
  LIFECYCLE_DOCS,
  type InboundTrigger,
  type MysteryPurchaseTrigger,
  type OrderTrigger,
  type RedemptionTrigger,
  type DeliveryTrigger,
  type WithdrawalTrigger,
} from "../../contract/lifecycles/index.ts";
import { z } from "../pipeline/schema.ts";

// The lifecycle tables (contract/lifecycles/) as the control plane serves them at GET /_emulator/lifecycles: per
// table, each status with the triggers its table allows from it and, for a trigger an operator can pull, the
// control route that pulls it. The dashboard reads its row buttons from here (docs/dashboard.md): a trigger
// added to a table with an action here gets its button without touching the page.

/** A control route that fires a trigger on one record: the record's id fills `:record` in the path, or the body field `record`. */
export interface TriggerAction {
  method: "POST";
  /** The control route's path under /_emulator (Hono syntax), as in the control client's table. */
  path: string;
  /** The path parameter or body field that names the record. */
  record: string;
  /** Fixed body fields besides the record's id. */
  body: Record<string, string>;
  /** A short name for the action (the dashboard's button test id). */
  name: string;
  /** The button's label. */
  label: string;
}

const post = (path: string, record: string, name: string, label: string, body: Record<string, string> = {}) =>
  Object.freeze({ method: "POST", path, record, body: Object.freeze(body), name, label }) as TriggerAction;

/**
 * The operator's control routes by lifecycle (its id in LIFECYCLE_DOCS) and trigger. The other triggers are
 * the API's or a worker's (a purchase, a reveal, a timer): served with no action. Typed by each table's
 * triggers, so a renamed trigger fails the typecheck; test/ui/lifecycles.test.ts holds each path to a
 * registered control route.
 */
const ACTIONS = Object.freeze({
  "mystery-purchase": { refund: post("/mystery/purchases/:id/refund", "id", "refund", "Refund") },
  "mystery-redemption": {
    kyc_approved: post("/mystery/redemptions/:id/kyc", "id", "kyc-approve", "Approve KYC", { decision: "approve" }),
    kyc_declined: post("/mystery/redemptions/:id/kyc", "id", "kyc-decline", "Decline KYC", { decision: "decline" }),
    fulfil: post("/mystery/redemptions/:id/start-fulfillment", "id", "start", "Start fulfilment"),
    dispatch: post("/mystery/redemptions/:id/dispatch", "id", "dispatch", "Dispatch"),
  },
  "warehouse-order": {
    ship: post("/warehouse/orders/:order_id/ship", "order_id", "ship", "ship"),
    deliver: post("/warehouse/orders/:order_id/deliver", "order_id", "deliver", "deliver"),
    return: post("/warehouse/orders/:order_id/return", "order_id", "return", "return"),
  },
  "inbound-shipment": { receive: post("/warehouse/inbound-shipments/:id/receive", "id", "receive", "Receive") },
  withdrawal: { complete: post("/warehouse/withdrawals/:id/complete", "id", "complete", "Complete") },
  "webhook-delivery": { resend: post("/webhooks/resend", "delivery_id", "resend", "Resend") },
} satisfies {
  "mystery-purchase": Partial<Record<MysteryPurchaseTrigger, TriggerAction>>;
  "mystery-redemption": Partial<Record<RedemptionTrigger, TriggerAction>>;
  "warehouse-order": Partial<Record<OrderTrigger, TriggerAction>>;
  "inbound-shipment": Partial<Record<InboundTrigger, TriggerAction>>;
  withdrawal: Partial<Record<WithdrawalTrigger, TriggerAction>>;
  "webhook-delivery": Partial<Record<DeliveryTrigger, TriggerAction>>;
});

/** Every action of the table above, for the test that holds them to the control routes. */
export const triggerActions = (): TriggerAction[] =>
  Object.values(ACTIONS).flatMap((byTrigger) => Object.values(byTrigger) as TriggerAction[]);

const actionSchema = z.object({
  method: z.literal("POST"),
  path: z.string(),
  record: z.string(),
  body: z.record(z.string(), z.string()),
  name: z.string(),
  label: z.string(),
});

export const lifecyclesSchema = z.object({
  lifecycles: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      statuses: z.array(
        z.object({
          status: z.string(),
          triggers: z.array(z.object({ trigger: z.string(), to: z.string(), action: actionSchema.nullable() })),
        }),
      ),
    }),
  ),
});
export type ServedLifecycles = z.infer<typeof lifecyclesSchema>;

/** The tables as served: a status lists the triggers of the rows whose `from` holds it, in table order (rows read by their own fields only). */
export function servedLifecycles(): ServedLifecycles {
  return {
    lifecycles: LIFECYCLE_DOCS.map(({ id, lifecycle }) => {
      const actions: Readonly<Record<string, TriggerAction>> =
        (ACTIONS as Readonly<Record<string, Readonly<Record<string, TriggerAction>>>>)[id] ?? {};
      return {
        id,
        name: lifecycle.name,
        statuses: lifecycle.states.map((status) => ({
          status,
          triggers: lifecycle.transitions
            .filter((t) => t.from.some((f) => f !== START && f === status))
            .map((t) => ({
              trigger: t.trigger,
              to: t.to,
              action: Object.hasOwn(actions, t.trigger) ? actions[t.trigger]! : null,
            })),
        })),
      };
    }),
  };
}
