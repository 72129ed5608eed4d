import { operation } from "../operation.ts";
import { ShippingAddress } from "../shipping.ts";
import { later, withCode, z } from "../zod.ts";
import {
  badJson,
  filteredList,
  idempotencyConflict,
  idempotencyKey,
  instant,
  int,
  notFound,
  pathId,
  READ_INVENTORY,
  scoped,
  text,
  uniqueIds,
} from "./common.ts";

// Withdrawals (docs/warehouse.md): cards leave the vault by pickup or shipment;
// REQUESTED holds them until the operator completes it.

export const WITHDRAWAL_STATUSES = ["REQUESTED", "COMPLETED"] as const;
export const WITHDRAWAL_METHODS = ["pickup", "ship"] as const;

export const Withdrawal = z.object({
  withdrawal_id: int,
  status: z.enum(WITHDRAWAL_STATUSES),
  unique_ids: z.array(z.string()),
  method: z.enum(WITHDRAWAL_METHODS),
  address: ShippingAddress.nullable(),
  notes: z.string().nullable(),
  created_at: instant,
  completed_at: instant.nullable(),
});
export type Withdrawal = z.output<typeof Withdrawal>;

const withdrawalBody = z.object({
  idempotency_key: idempotencyKey(),
  unique_ids: uniqueIds,
  method: withCode(
    z
      .enum(WITHDRAWAL_METHODS, { error: 'must be "pickup" or "ship"' })
      .nullish()
      .transform((m) => m ?? "pickup"),
    "invalid_method",
  ),
  // Checked by the shared address rule when method is ship (ignored for a pickup).
  address: later(ShippingAddress.describe("Required when method is ship")),
  notes: withCode(text(2000).nullish(), "invalid_notes"),
});

const withdrawalId = pathId("withdrawal_id", "withdrawal");

export const WAREHOUSE_WITHDRAWALS = {
  list: operation({
    id: "warehouse.withdrawals.list",
    method: "GET",
    path: "/withdrawals",
    summary: "The tenant's withdrawals, newest first",
    ...READ_INVENTORY,
    schema: filteredList("withdrawals", Withdrawal, WITHDRAWAL_STATUSES, "Withdrawals, newest first"),
  }),
  get: operation({
    id: "warehouse.withdrawals.get",
    method: "GET",
    path: "/withdrawals/:withdrawal_id",
    summary: "One withdrawal",
    ...READ_INVENTORY,
    schema: {
      params: withdrawalId,
      responses: { 200: { description: "The withdrawal", data: Withdrawal }, 404: notFound("withdrawal") },
    },
  }),
  create: operation({
    id: "warehouse.withdrawals.create",
    method: "POST",
    path: "/withdrawals",
    summary: "Request cards out of the vault, for pickup or shipment",
    ...scoped("write:withdrawal"),
    idempotencyKey: "optional",
    schema: {
      body: withdrawalBody,
      responses: {
        201: { description: "REQUESTED; the cards are held (a replay answers the original)", data: Withdrawal },
        400: {
          description: "A field is invalid",
          codes: [
            ...badJson,
            "invalid_idempotency_key",
            "invalid_unique_ids",
            "invalid_pagination",
            "identifier_too_long",
            "invalid_method",
            "invalid_notes",
            "missing_shipping_address",
            "invalid_address",
            "phone_required",
          ],
        },
        404: { description: "A card that is not the tenant's", codes: ["not_found"] },
        409: {
          description: "Cards not available (data.cards), or the key reused",
          codes: ["not_eligible", idempotencyConflict],
        },
      },
    },
  }),
};
