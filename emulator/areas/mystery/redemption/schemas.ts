import { badRequest } from "../../../pipeline/errors.ts";
import { intId } from "../../../pipeline/identifiers.ts";
import { offsetPageQuery } from "../../../pipeline/pagination.ts";
import { later, withCode, z, type RouteSchema } from "../../../pipeline/schema.ts";
import { shippingAddressSchema } from "../../../shipping/address.ts";
import { REDEMPTION_STATUSES, type RedemptionStatus } from "../state.ts";
import { isTxHash, tokenIdOf } from "../util.ts";
import type { TargetInput } from "./prepare.ts";
import { parseAddress, parseCarriers } from "./shipping.ts";

// What the redemption routes take and answer (interface "Mystery commerce";
// service-facts §4.7; the SDK 0.1.2 shapes of sdk-wire-shapes §2). The body is read by the area's own parsers
// inside transforms, which throw their coded 400s in the order the routes
// always checked them (address, carriers, then purchase_id's length). The
// token id is kept as sent: the rules answer it (a replayed prepare compares
// it before its length is checked: 409 idempotency_mismatch). Prepare checks
// its idempotency key (body or header) first, so its other fields are `later`.

const isoTime = z.iso.datetime();
const itemType = z.enum(["CARD", "GRADED_CARD", "PACKET", "SEALED_PRODUCT"]);
const ADDRESS_CODES = ["missing_shipping_address", "invalid_address", "phone_required", "unknown_carrier"] as const;
const TARGET_400 = ["identifier_too_long", "purchase_or_token_required", "token_required", "unsupported_item", "invalid_item_type"] as const;
const TARGET_409 = ["invalid_token_id", "not_fulfilled", "no_items", "no_holder", "ambiguous_token", "item_type_mismatch"] as const;

const fieldsDoc = {
  shipping_address: shippingAddressSchema.describe("Where to ship the item"),
  address: shippingAddressSchema.optional().describe("Alias of shipping_address"),
  carriers: z.array(z.string()).optional().describe("Carrier tokens to quote (default: all)"),
  purchase_id: z.number().int().optional().describe("The purchase (with token_id when it has several redeemable items)"),
  token_id: z.string().optional().describe("The token: uint256 in plain decimal"),
  item_type: itemType.optional().describe("Only to disambiguate a token number (409 ambiguous_token without it, item_type_mismatch when wrong)"),
};

/** purchase_id and/or token_id as sent (the rules answer a missing or unknown one). */
function targetOf(b: { purchase_id?: unknown; token_id?: unknown; item_type?: unknown }): TargetInput {
  const purchase = b.purchase_id === undefined || b.purchase_id === null ? null : { raw: b.purchase_id, id: intId(b.purchase_id, "purchase_id") };
  const token = b.token_id === undefined || b.token_id === null || b.token_id === "" ? null : { raw: b.token_id, id: tokenIdOf(b.token_id) };
  const t = b.item_type;
  if (t !== undefined && t !== null && !itemType.safeParse(t).success)
    throw badRequest("invalid_item_type", `item_type must be one of ${itemType.options.join(", ")}`);
  return { purchase, token, itemType: (t ?? null) as TargetInput["itemType"] };
}

/** shipping_payer: only "end_user" (SDK 0.1.2; the holder pays shipping on chain). */
export function checkShippingPayer(v: unknown): void {
  if (v !== undefined && v !== null && v !== "end_user") throw badRequest("invalid_shipping_payer", 'shipping_payer must be "end_user": the holder pays shipping on chain');
}

/** The shipping request of a quote or prepare: address, carriers, target (checked in that order). */
export const shippingRequest = z
  .object(Object.fromEntries(Object.entries(fieldsDoc).map(([k, v]) => [k, later(v)])) as Record<keyof typeof fieldsDoc, ReturnType<typeof later>>)
  .transform((b) => ({ address: parseAddress(b), carriers: parseCarriers(b), target: targetOf(b) }));

const quoteSchema = z.strictObject({
  amount_usdc: z.string(),
  currency: z.literal("USD"),
  carrier: z.string(),
  service: z.string(),
  service_token: z.string(),
  estimated_days: z.number().int(),
  rate_id: z.string(),
  quoted_at: isoTime,
});

// --- POST /mystery/redemption/quote ------------------------------------------------------

export const quoteRoute = {
  body: shippingRequest,
  responses: {
    200: {
      description: "The shipping rates for redeeming the item, cheapest first (creates nothing)",
      data: z.strictObject({ purchase_id: z.number().int(), token_id: z.string(), item_type: itemType, shipping_quote: quoteSchema, rates: z.array(quoteSchema) }),
    },
    400: { description: "Invalid address, carriers or target", codes: [...ADDRESS_CODES, ...TARGET_400] },
    404: { description: "No such purchase or token on this account", codes: ["not_found", "token_not_found"] },
    409: { description: "The item cannot be redeemed", codes: TARGET_409 },
  },
} satisfies RouteSchema;

// --- the redemption view ----------------------------------------------------------------------

export const redemptionSchema = z.strictObject({
  redemption_id: z.number().int(),
  purchase_id: z.number().int(),
  token_id: z.string(),
  item_type: itemType,
  status: z.enum(REDEMPTION_STATUSES as [RedemptionStatus, ...RedemptionStatus[]]),
  failure_reason: z.string().nullable(),
  kyc: z.strictObject({ status: z.enum(["NOT_REQUIRED", "PENDING", "APPROVED", "DECLINED"]), kyc_url: z.string().nullable() }),
  burn: z.strictObject({
    db_status: z.enum(["NONE", "PENDING_REDEEM", "REDEEMED"]),
    is_burned: z.boolean(),
    burn_type: z.number().int(),
    burn_type_label: z.string(),
    label: z.string(),
  }),
  queue: z.strictObject({ status: z.enum(["NONE", "QUEUED", "PICKING", "SHIPPED"]) }),
  order: z.strictObject({ status: z.enum(["PENDING", "PROCESSING", "SHIPPED"]), tracking_number: z.string().nullable() }),
  burn_tx_hash: z.string().nullable(),
  shipping_quote: quoteSchema,
  shipping_address: shippingAddressSchema,
  expires_at: isoTime,
  created_at: isoTime,
  updated_at: isoTime,
});

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const unsignedSchema = z.strictObject({
  chain_id: z.number().int(),
  calls: z
    .array(z.strictObject({ kind: z.enum(["burn", "erc20-approve", "shipping-payment"]), to: address, data: z.string().regex(/^0x[0-9a-fA-F]*$/), description: z.string() }))
    .describe("In order: burn (flag the token), erc20-approve (USDC to the shipping processor), shipping-payment (payShipping; must follow the burn)"),
});

const shippingPaymentSchema = z.strictObject({
  payer: address.describe("The holder wallet that pays shipping"),
  processor: address.describe("The shipping payment processor contract"),
  total_usdc: z.string(),
  total_micros: z.string().regex(/^\d+$/),
  expiration_time: z.number().int().describe("Unix seconds; matches expires_at"),
  provider_order_id: z.string().describe("The fulfilment order this payment settles"),
});

// --- POST /mystery/redemption/prepare -------------------------------------------------------------

/** A redemption as prepare answers it: with the shipping payment and the holder's calls. */
export const preparedRedemptionSchema = redemptionSchema.extend({
  shipping_payer: z.literal("end_user"),
  shipping_payment: shippingPaymentSchema.nullable().describe("The signed shipping quote the holder pays; null once paid or ended"),
  unsigned: unsignedSchema.nullable(),
});

export const prepareRoute = {
  body: z.object({
    idempotency_key: z.unknown().optional().meta({ type: "string", description: "Idempotency key (else the Idempotency-Key header)" }),
    shipping_payer: later(z.literal("end_user").optional().describe('Who pays shipping: only "end_user" (400 invalid_shipping_payer)')),
    ...Object.fromEntries(Object.entries(fieldsDoc).map(([k, v]) => [k, later(v)])),
  }),
  responses: {
    201: {
      description:
        "The redemption opened (or the one opened with this key): AWAITING_KYC (partners that require KYC) or PREPARED with the holder's calls and the shipping payment",
      data: preparedRedemptionSchema,
    },
    400: {
      description: "Missing or invalid idempotency key, shipping payer, address, carriers or target",
      codes: ["missing_idempotency_key", "invalid_idempotency_key", "invalid_shipping_payer", ...ADDRESS_CODES, ...TARGET_400],
    },
    404: { description: "No such purchase or token on this account", codes: ["not_found", "token_not_found"] },
    409: {
      description: "The key was used for another item, the redemption expired, or the item cannot be redeemed",
      codes: ["idempotency_mismatch", "redemption_expired", "redemption_exists", "not_burnable", "not_owner", ...TARGET_409],
    },
    503: { description: "The shipping quote signer is unavailable (retryable; retry with the same key)", codes: ["shipping_signer_unavailable"] },
  },
} satisfies RouteSchema;

// --- POST /mystery/redemption/submit -------------------------------------------------------------

export const submitRoute = {
  // redemption_id's length first, then the hash (tx_hash, else transaction_hash); the rule answers an unknown id.
  body: z
    .object({
      redemption_id: z.unknown().optional().meta({ type: "integer", description: "The redemption" }),
      tx_hash: z.unknown().optional().meta({ type: "string", description: "The holder's burn (initiateBurn) or shipping payment (payShipping) transaction: 0x + 64 hex" }),
      transaction_hash: z.unknown().optional().meta({ type: "string", description: "Alias of tx_hash" }),
    })
    .transform((b) => {
      const id = intId(b.redemption_id, "redemption_id");
      const hash = b.tx_hash ?? b.transaction_hash;
      if (!isTxHash(hash)) throw badRequest("invalid_tx_hash", "tx_hash must be 0x followed by 64 hex characters");
      return { id, label: String(b.redemption_id ?? ""), hash };
    }),
  responses: {
    202: { description: "The burn is recorded: BURN_SUBMITTED (the item ships once the shipping payment is on chain)", data: redemptionSchema },
    400: { description: "Invalid id or transaction hash, or the transaction is not this burn", codes: ["identifier_too_long", "invalid_tx_hash"] },
    404: { description: "No such redemption on this account", codes: ["not_found"] },
    409: { description: "Not PREPARED, KYC pending, or the hash is another redemption's", codes: ["invalid_status", "kyc_required", "tx_already_recorded"] },
  },
} satisfies RouteSchema;

// --- GET /mystery/redemption/:purchase_id ---------------------------------------------------------------

const listData = z.strictObject({ redemptions: z.array(redemptionSchema) });

export const byPurchaseRoute = {
  params: z.object({
    purchase_id: z
      .string()
      .transform((raw) => ({ raw, id: intId(raw, "purchase_id") }))
      .meta({ description: "A purchase id of this account, or else a token id" }),
  }),
  query: z.object({
    verify: withCode(
      z
        .enum(["true", "false", "1", "0"])
        .optional()
        .transform((v) => v === "true" || v === "1"),
      "invalid_value",
    ).meta({ description: "true: reconcile each row with the chain first (burn state, shipping payment, a burn flagged but not submitted)" }),
  }),
  responses: {
    200: { description: "The redemptions of the purchase (or token), newest first", data: listData },
    400: { description: "Id too long, or verify not a boolean", codes: ["identifier_too_long", "invalid_value"] },
    404: { description: "No redemption for it", codes: ["not_found"] },
  },
} satisfies RouteSchema;

// --- GET /mystery/redemptions ----------------------------------------------------------------------------

export const listRoute = {
  query: z.object({
    // Read first, as it always was (before the paging).
    status: z
      .string()
      .optional()
      .transform((v): RedemptionStatus | null => {
        if (v === undefined) return null;
        const up = v.toUpperCase() as RedemptionStatus;
        if (!REDEMPTION_STATUSES.includes(up)) throw badRequest("invalid_status", `status must be one of ${REDEMPTION_STATUSES.join(", ")}`);
        return up;
      })
      .meta({ description: `Only redemptions in this status (${REDEMPTION_STATUSES.join(", ")}; any case)` }),
    ...offsetPageQuery(),
  }),
  responses: {
    200: { description: "The account's redemptions, newest first", data: listData },
    400: { description: "Invalid status or paging", codes: ["invalid_status", "invalid_pagination"] },
  },
} satisfies RouteSchema;
