import {
  RedemptionItemType,
  RedemptionPrepareBody,
  RedemptionQuoteBody,
  RedemptionSubmitBody,
} from "../../../../contract/mystery/redemption.ts";
import { badRequest } from "../../../pipeline/errors.ts";
import { intId } from "../../../pipeline/identifiers.ts";
import { later, z } from "../../../pipeline/schema.ts";
import type { ItemTypeName } from "../state.ts";
import { isTxHash, tokenIdOf } from "../util.ts";
import type { TargetInput } from "./prepare.ts";
import { parseAddress, parseCarriers } from "./shipping.ts";

// How the redemption routes read their requests (the contract,
// contract/mystery/redemption.ts, documents them). The area's own parsers run
// inside transforms and throw their coded 400s in the order the routes always
// checked them (address, carriers, then purchase_id's length). The token id is
// kept as sent: the rules answer it (a replayed prepare compares it before its
// length is checked: 409 idempotency_mismatch). Prepare checks its idempotency
// key (body or header) first, so its other fields are `later`.

/** purchase_id and/or token_id as sent (the rules answer a missing or unknown one). */
function targetOf(b: { purchase_id?: unknown; token_id?: unknown; item_type?: unknown }): TargetInput {
  const purchase =
    b.purchase_id === undefined || b.purchase_id === null
      ? null
      : { raw: b.purchase_id, id: intId(b.purchase_id, "purchase_id") };
  const token =
    b.token_id === undefined || b.token_id === null || b.token_id === ""
      ? null
      : { raw: b.token_id, id: tokenIdOf(b.token_id) };
  const t = b.item_type;
  if (t !== undefined && t !== null && !RedemptionItemType.safeParse(t).success)
    throw badRequest("invalid_item_type", `item_type must be one of ${RedemptionItemType.options.join(", ")}`);
  return { purchase, token, itemType: (t ?? null) as ItemTypeName | null };
}

/** shipping_payer: only "end_user" (the holder pays shipping on chain). */
export function checkShippingPayer(v: unknown): void {
  if (v !== undefined && v !== null && v !== "end_user")
    throw badRequest("invalid_shipping_payer", 'shipping_payer must be "end_user": the holder pays shipping on chain');
}

const laterFields = <S extends z.ZodRawShape>(shape: S) =>
  Object.fromEntries(Object.keys(shape).map((k) => [k, later(shape[k] as z.ZodType)])) as Record<
    keyof S,
    ReturnType<typeof later>
  >;

/** The shipping request of a quote or prepare: address, carriers, target (checked in that order). */
export const shippingRequest = z
  .object(laterFields(RedemptionQuoteBody.shape))
  .transform((b) => ({ address: parseAddress(b), carriers: parseCarriers(b), target: targetOf(b) }));

/** Prepare: every field `later` (the idempotency key is checked first, by the route). */
export const prepareBody = z.object(laterFields(RedemptionPrepareBody.shape));

/** Submit: redemption_id's length first, then the hash (tx_hash, else transaction_hash); the rule answers an unknown id. */
export const submitBody = z.object(laterFields(RedemptionSubmitBody.shape)).transform((b) => {
  const id = intId(b.redemption_id, "redemption_id");
  const hash = b.tx_hash ?? b.transaction_hash;
  if (!isTxHash(hash)) throw badRequest("invalid_tx_hash", "tx_hash must be 0x followed by 64 hex characters");
  return { id, label: String(b.redemption_id ?? ""), hash };
});

/** GET /mystery/redemption/:purchase_id: the segment as sent and as a purchase id (null when it is none). */
export const byPurchaseParams = z.object({
  purchase_id: z.string().transform((raw) => ({ raw, id: intId(raw, "purchase_id") })),
});
