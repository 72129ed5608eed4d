import { badRequest } from "../pipeline/errors.ts";

// One validation for shipping addresses (warehouse quotes and mystery
// redemptions): missing_shipping_address, invalid_address (details.field and
// details.fields name what is wrong), phone_required outside the US.

// The address shapes and the rule are the contract's (contract/shipping.ts `readShippingAddress`).
export type { ShippingAddress } from "../../contract/shipping.ts";
import { isShippingProblem, readShippingAddress, type ShippingAddress } from "../../contract/shipping.ts";

/** `field` is the body field the address came in (`address` or `shipping_address`), for messages. */
export function parseShippingAddress(raw: unknown, field: string): ShippingAddress {
  const read = readShippingAddress(raw, field);
  if (!isShippingProblem(read)) return read;
  const fields = read.fields;
  throw badRequest(read.code, read.message, fields ? { details: { field: fields[0], fields } } : {});
}
