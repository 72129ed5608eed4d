import { badRequest } from "../../../pipeline/errors.ts";
import { intId } from "../../../pipeline/identifiers.ts";
import { offsetPageQuery } from "../../../pipeline/pagination.ts";
import { later, z, type RouteSchema } from "../../../pipeline/schema.ts";
import { shippingAddressSchema } from "../../../shipping/address.ts";
import { REDEMPTION_STATUSES, type RedemptionStatus } from "../state.ts";
import { isTxHash, tokenIdOf } from "../util.ts";
import type { TargetInput } from "./prepare.ts";
import { parseAddress, parseCarriers } from "./shipping.ts";

// What the redemption routes take and answer (interface "Mystery commerce";
// service-facts §4.7 generation A). The body is read by the area's own parsers
// inside transforms, which throw their coded 400s in the order the routes
// always checked them (address, carriers, then purchase_id's length). The
// token id is kept as sent: the rules answer it (a replayed prepare compares
// it before its length is checked: 409 idempotency_mismatch). Prepare checks
// its idempotency key (body or header) first, so its other fields are `later`.

const isoTime = z.iso.datetime();
const itemType = z.enum(["CARD", "GRADED_CARD", "PACKET", "SEALED_PRODUCT"]);
const ADDRESS_CODES = ["missing_shipping_address", "invalid_address", "phone_required", "unknown_carrier"] as const;
const TARGET_400 = ["identifier_too_long", "purchase_or_token_required", "token_required", "unsupported_item"] as const;
const TARGET_409 = ["invalid_token_id", "not_fulfilled", "no_items", "no_holder"] as const;

const fieldsDoc = {
  shipping_address: shippingAddressSchema.describe("Where to ship the item"),
  address: shippingAddressSchema.optional().describe("Alias of shipping_address"),
  carriers: z.array(z.string()).optional().describe("Carrier tokens to quote (default: all)"),
  purchase_id: z.number().int().optional().describe("The purchase (with token_id when it has several redeemable items)"),
  token_id: z.string().optional().describe("The token: uint256 in plain decimal"),
};

/** purchase_id and/or token_id as sent (the rules answer a missing or unknown one). */
function targetOf(b: { purchase_id?: unknown; token_id?: unknown }): TargetInput {
  const purchase = b.purchase_id === undefined || b.purchase_id === null ? null : { raw: b.purchase_id, id: intId(b.purchase_id, "purchase_id") };
  const token = b.token_id === undefined || b.token_id === null || b.token_id === "" ? null : { raw: b.token_id, id: tokenIdOf(b.token_id) };
  return { purchase, token };
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

const redemptionSchema = z.strictObject({
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

const unsignedSchema = z.strictObject({
  chain_id: z.number().int(),
  calls: z.array(z.strictObject({ kind: z.literal("burn"), to: z.string(), data: z.string().regex(/^0x[0-9a-fA-F]*$/), value: z.string(), description: z.string() })),
});

// --- POST /mystery/redemption/prepare -------------------------------------------------------------

export const prepareRoute = {
  body: z.object({
    idempotency_key: z.unknown().optional().meta({ type: "string", description: "Idempotency key (else the Idempotency-Key header)" }),
    ...Object.fromEntries(Object.entries(fieldsDoc).map(([k, v]) => [k, later(v)])),
  }),
  responses: {
    201: {
      description: "The redemption opened (or the one opened with this key): AWAITING_KYC or PREPARED with the burn calldata",
      data: redemptionSchema.extend({ unsigned: unsignedSchema.nullable() }),
    },
    400: { description: "Missing or invalid idempotency key, address, carriers or target", codes: ["missing_idempotency_key", "invalid_idempotency_key", ...ADDRESS_CODES, ...TARGET_400] },
    404: { description: "No such purchase or token on this account", codes: ["not_found", "token_not_found"] },
    409: {
      description: "The key was used for another item, the redemption expired, or the item cannot be redeemed",
      codes: ["idempotency_mismatch", "redemption_expired", "redemption_exists", "not_burnable", "not_owner", ...TARGET_409],
    },
  },
} satisfies RouteSchema;

// --- POST /mystery/redemption/submit -------------------------------------------------------------

export const submitRoute = {
  // redemption_id's length first, then the hash (tx_hash, else transaction_hash); the rule answers an unknown id.
  body: z
    .object({
      redemption_id: z.unknown().optional().meta({ type: "integer", description: "The redemption" }),
      tx_hash: z.unknown().optional().meta({ type: "string", description: "The holder's initiateBurn transaction: 0x + 64 hex" }),
      transaction_hash: z.unknown().optional().meta({ type: "string", description: "Alias of tx_hash" }),
    })
    .transform((b) => {
      const id = intId(b.redemption_id, "redemption_id");
      const hash = b.tx_hash ?? b.transaction_hash;
      if (!isTxHash(hash)) throw badRequest("invalid_tx_hash", "tx_hash must be 0x followed by 64 hex characters");
      return { id, label: String(b.redemption_id ?? ""), hash };
    }),
  responses: {
    202: { description: "The burn is recorded: BURN_SUBMITTED", data: redemptionSchema },
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
  responses: {
    200: { description: "The redemptions of the purchase (or token), newest first", data: listData },
    400: { description: "Id too long", codes: ["identifier_too_long"] },
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
