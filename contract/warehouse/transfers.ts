import { operation } from "../operation.ts";
import { later, withCode, z } from "../zod.ts";
import {
  badJson,
  idempotencyConflict,
  idempotencyKey,
  idText,
  instant,
  int,
  notFound,
  pagedList,
  pathId,
  READ_INVENTORY,
  scoped,
  text,
  uniqueIdParam,
} from "./common.ts";

// Card transfers (docs/warehouse.md): a card moves to another tenant account's
// vault; the card keeps its unique_id.

export const CardTransfer = z.object({
  transfer_id: int,
  unique_id: z.string(),
  from_account: z.string(),
  to_account: z.string(),
  status: z.literal("COMPLETED"),
  note: z.string().nullable(),
  created_at: instant,
});
export type CardTransfer = z.output<typeof CardTransfer>;

const recipient = (description: string) => withCode(idText().optional().describe(description), "invalid_recipient");
/** A transfer's note: checked after the recipient and the card (their 404/409 come first). */
export const transferNote = withCode(text(2000).nullish(), "invalid_note");

const transferBody = z
  .object({
    idempotency_key: idempotencyKey(),
    to_account_id: recipient("The tenant account receiving custody"),
    to_tenant: recipient("Alias of to_account_id"),
    note: later(transferNote),
  })
  .refine((b) => b.to_account_id !== undefined || b.to_tenant !== undefined, {
    path: ["to_account_id"],
    error: "is required: the tenant account receiving custody",
  });

export const WAREHOUSE_TRANSFERS = {
  list: operation({
    id: "warehouse.transfers.list",
    method: "GET",
    path: "/card-transfers",
    summary: "Card transfers in and out, newest first",
    ...READ_INVENTORY,
    schema: pagedList("transfers", CardTransfer, "Card transfers in and out, newest first"),
  }),
  get: operation({
    id: "warehouse.transfers.get",
    method: "GET",
    path: "/card-transfers/:transfer_id",
    summary: "One card transfer",
    ...READ_INVENTORY,
    schema: {
      params: pathId("transfer_id", "card transfer"),
      responses: { 200: { description: "The transfer", data: CardTransfer }, 404: notFound("card transfer") },
    },
  }),
  create: operation({
    id: "warehouse.transfers.create",
    method: "POST",
    path: "/cards/:unique_id/transfer",
    summary: "Move a card's custody to another tenant account",
    ...scoped("write:transfer"),
    idempotencyKey: "optional",
    schema: {
      params: uniqueIdParam,
      body: transferBody,
      responses: {
        201: {
          description: "Custody moved; the card keeps its unique_id (a replay answers the original)",
          data: CardTransfer,
        },
        400: {
          description: "Recipient missing, invalid or the tenant itself; then the note",
          codes: [...badJson, "invalid_idempotency_key", "invalid_recipient", "identifier_too_long", "invalid_note"],
        },
        404: { description: "No such recipient account, or no such card", codes: ["recipient_not_found", "not_found"] },
        409: {
          description: "The card is not available, the recipient holds that id, or the key reused",
          codes: ["not_eligible", idempotencyConflict],
        },
      },
    },
  }),
};
