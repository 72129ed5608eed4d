import { badRequest } from "../../../pipeline/errors.ts";
import { checkIdLength } from "../../../pipeline/identifiers.ts";
import { z } from "../../../pipeline/schema.ts";
import { isTxHash, optIdentifier, parseUsdc, tierParam, walletParam } from "../util.ts";

// The purchase bodies as the emulator reads them (contract/mystery/purchases.ts
// documents them). tier_id is read first (400 invalid_tier), then the tier is
// looked up; every other field is taken as sent and checked by the handler
// after that lookup (`checkLater`), in the order the routes always checked
// them. POST /mystery/purchase checks its Idempotency-Key header before the
// body, so its tier_id is read late too.

/** A body field read by `parse`, which throws the field's coded 400. */
const read = <T>(parse: (v: unknown) => T) => z.unknown().optional().transform(parse);
/** A body field taken as sent, checked later by the handler. */
const asSent = z.unknown().optional();

const tierId = read((v) => tierParam(v));

/** The buyer's wallet (checked late). */
export const walletSchema = read((v) => walletParam(v));
/** max_price_usdc as micros, or null when not sent (checked late; the tier price decides the 409). */
export const maxPriceSchema = read((v) => {
  if (v === undefined || v === null) return null;
  const m = parseUsdc(v);
  if (m === null)
    throw badRequest(
      "invalid_amount",
      'max_price_usdc must be a non-negative decimal USDC amount with at most 6 places, such as "25.00"',
    );
  return m;
});

/** The rest of a submit, after the tier: hash, wallet, end user, request id, in that order. */
export const submitRestSchema = z
  .object({
    transaction_hash: asSent,
    tx_hash: asSent,
    wallet_address: asSent,
    external_user_id: asSent,
    request_id: asSent,
  })
  .transform((b) => {
    const hash = b.transaction_hash ?? b.tx_hash;
    if (hash === undefined || hash === null || hash === "")
      throw badRequest(
        "missing_tx_hash",
        "transaction_hash is required (submit after the purchase transaction is mined)",
      );
    if (!isTxHash(hash))
      throw badRequest("invalid_tx_hash", "transaction_hash must be 0x followed by 64 hex characters");
    const raw = b.wallet_address;
    const wallet = raw === undefined || raw === null || raw === "" ? null : walletParam(raw);
    const external_user_id = optIdentifier(b, "external_user_id");
    // The end user as UserIdentity names them: either is enough (without a wallet the receipt's buyer is the purchaser).
    if (!wallet && !external_user_id)
      throw badRequest(
        "missing_user_identifier",
        "Send wallet_address (the wallet that bought) and/or external_user_id",
      );
    checkIdLength(b.request_id, "request_id");
    const request_id = b.request_id === undefined || b.request_id === null ? null : String(b.request_id);
    return { hash, wallet, external_user_id, request_id };
  });

/** quantity: only 1 (checked late, after the tier). */
export const quantitySchema = read((v) => {
  if (v !== undefined && v !== 1)
    throw badRequest("unsupported_quantity", "quantity is fixed at 1 (one pack per call)");
  return 1 as const;
});

export const prepareBody = z.object({ tier_id: tierId, wallet_address: asSent, max_price_usdc: asSent });
export const submitBody = z.object({
  tier_id: tierId,
  transaction_hash: asSent,
  tx_hash: asSent,
  wallet_address: asSent,
  external_user_id: asSent,
  request_id: asSent,
});
export const purchaseBody = z.object({
  tier_id: asSent,
  quantity: asSent,
  external_user_id: asSent,
  wallet_address: asSent,
  max_price_usdc: asSent,
});
