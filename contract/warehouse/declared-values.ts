import { operation } from "../operation.ts";
import { identifier, withCode, z } from "../zod.ts";
import {
  badJson,
  cents,
  idempotencyConflict,
  idempotencyKey,
  idText,
  instant,
  int,
  list,
  page,
  READ_INVENTORY,
  scoped,
} from "./common.ts";

// Declared values (docs/warehouse.md): the tenant's value, in USD cents, for
// a card pending identity.

export const DeclaredValueRecord = z.object({
  declared_value_id: int,
  unique_id: z.string(),
  amount: int.positive().describe("USD cents"),
  currency: z.literal("USD"),
  source: z.literal("tenant"),
  created_at: instant,
});
export type DeclaredValueRecord = z.output<typeof DeclaredValueRecord>;

const declaredValueBody = z.object({
  idempotency_key: idempotencyKey(),
  unique_id: withCode(idText(), "invalid_unique_ids"),
  amount: cents(),
  currency: withCode(
    z.literal("USD", { error: "amount is in USD cents; currency, when sent, must be USD" }).optional(),
    "invalid_amount",
  ),
});

export const WAREHOUSE_DECLARED_VALUES = {
  list: operation({
    id: "warehouse.declaredValues.list",
    method: "GET",
    path: "/declared-values",
    summary: "Declared values submitted, newest first",
    ...READ_INVENTORY,
    schema: {
      query: z.object({
        unique_id: withCode(identifier().optional().describe("Only this card's"), "identifier_too_long"),
        ...page,
      }),
      responses: {
        200: {
          description: "Declared values submitted, newest first",
          data: list("declared_values", DeclaredValueRecord),
        },
        400: { description: "unique_id too long, or bad paging", codes: ["identifier_too_long", "invalid_pagination"] },
      },
    },
  }),
  create: operation({
    id: "warehouse.declaredValues.create",
    method: "POST",
    path: "/declared-values",
    summary: "Declare the value of a card pending identity (USD cents)",
    ...scoped("write:declared_value"),
    idempotencyKey: "optional",
    schema: {
      body: declaredValueBody,
      responses: {
        201: {
          description: "The card pending identity now carries the tenant's value (a replay answers the original)",
          data: DeclaredValueRecord,
        },
        400: {
          description: "A field is invalid",
          codes: [...badJson, "invalid_idempotency_key", "invalid_unique_ids", "identifier_too_long", "invalid_amount"],
        },
        404: { description: "No such card", codes: ["not_found"] },
        409: {
          description: "The card is outside the vault or has a published identity (data), or the key reused",
          codes: ["not_eligible", idempotencyConflict],
        },
      },
    },
  }),
};
