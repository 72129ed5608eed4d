import { operation } from "../operation.ts";
import { withCode, z } from "../zod.ts";
import {
  badJson,
  cents,
  count,
  idempotencyConflict,
  idempotencyKey,
  instant,
  int,
  pagedList,
  READ_INVENTORY,
  scoped,
  text,
} from "./common.ts";

// SLA metrics and service credits (docs/warehouse.md): how the orders
// committed in a month shipped, and credits asked for late ones.

/** A billing or SLA month: `YYYY-MM`. */
export const isMonth = (s: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(s);

export const Sla = z.object({
  month: z.string(),
  target_on_time_rate: z.string(),
  orders_committed: count,
  orders_shipped: count,
  shipped_on_time: count,
  missed_sla: count,
  on_time_rate: z.string().nullable().describe("A 4-decimal fraction; null with nothing shipped or late"),
  average_handling_hours: z.string().nullable(),
  late_order_ids: z.array(int),
});
export type Sla = z.output<typeof Sla>;

export const ServiceCredit = z.object({
  service_credit_id: int,
  status: z.enum(["APPROVED", "UNDER_REVIEW"]),
  reason: z.string(),
  order_id: int.nullable(),
  amount: int.positive().nullable().describe("USD cents requested"),
  decision: z.string(),
  created_at: instant,
});
export type ServiceCredit = z.output<typeof ServiceCredit>;

const serviceCreditBody = z.object({
  idempotency_key: idempotencyKey(),
  reason: withCode(text(2000), "invalid_reason"),
  amount: cents().nullish(),
  order_id: withCode(z.int({ error: "must be an integer" }).nullish(), "invalid_order_id"),
});

export const WAREHOUSE_SLA = {
  sla: operation({
    id: "warehouse.sla.get",
    method: "GET",
    path: "/sla",
    summary: "SLA metrics of the orders committed in a month",
    ...READ_INVENTORY,
    schema: {
      query: z.object({
        month: withCode(
          z.string().refine(isMonth, "must be YYYY-MM").optional().describe("YYYY-MM (default: the current month)"),
          "invalid_month",
        ),
      }),
      responses: {
        200: { description: "SLA metrics of the orders committed that month", data: Sla },
        400: { description: "month is not YYYY-MM", codes: ["invalid_month"] },
      },
    },
  }),
  serviceCredits: operation({
    id: "warehouse.serviceCredits.list",
    method: "GET",
    path: "/service-credits",
    summary: "Service credit requests, newest first",
    ...READ_INVENTORY,
    schema: pagedList("service_credits", ServiceCredit, "Service credit requests, newest first"),
  }),
  requestServiceCredit: operation({
    id: "warehouse.serviceCredits.create",
    method: "POST",
    path: "/service-credits",
    summary: "Ask for a service credit (approved at once for an order that missed its SLA)",
    ...scoped("write:service_credit"),
    idempotencyKey: "optional",
    schema: {
      body: serviceCreditBody,
      responses: {
        201: {
          description:
            "APPROVED for an order that missed its SLA, otherwise UNDER_REVIEW (a replay answers the original)",
          data: ServiceCredit,
        },
        400: {
          description: "A field is invalid",
          codes: [...badJson, "invalid_idempotency_key", "invalid_reason", "invalid_amount", "invalid_order_id"],
        },
        404: { description: "No such order", codes: ["not_found"] },
        409: {
          description: "The order already has a request (data: it), or the key reused",
          codes: ["service_credit_exists", idempotencyConflict],
        },
      },
    },
  }),
};
