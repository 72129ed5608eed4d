import { operation, partnerScoped } from "../operation.ts";
import { identifier, later, MAX_IDENTIFIER, withCode, z, type IssueParams } from "../zod.ts";
import { address, hex, isoTime, micros, txHash, usdcString } from "../primitives.ts";

// /api/v1/mystery/buyback (docs/mystery.md "Buyback"): POOL-model offers the
// service signs on a partner's own tokens, and the holder's relayed accept.
// Shapes as the official SDK types them (BuybackOffer, BuybackAcceptPrepareResult,
// BuybackAcceptResult); a token or purchase id in a path, or a token id in a
// body, is read by the server's rules (a purchase id of the account wins, else
// a token id; one that is neither finds nothing: 404).

/** Which kind of token an offer is on; a request may name it (another kind finds no token). */
export const BUYBACK_ITEM_TYPES = ["CARD", "GRADED_CARD"] as const;
export type BuybackItemType = (typeof BUYBACK_ITEM_TYPES)[number];
/** Where the value an offer was priced from came from. */
export const BUYBACK_VALUE_SOURCES = ["card_raw_price", "buyback_oracle", "graded_market_price"] as const;
export const OFFER_STATUSES = ["active", "accepted", "cancelled", "expired"] as const;

const decimal = z.string().regex(/^\d+$/);
const deadline = isoTime.nullable().describe("When the offer lapses (ISO 8601, UTC)");
const itemType = z.enum(BUYBACK_ITEM_TYPES);

/** A ready-to-send transaction (`value` in wei, decimal). */
export const BuybackCall = z.strictObject({
  kind: z.string(),
  to: address,
  data: hex,
  value: decimal.describe("wei"),
  description: z.string(),
});
export type BuybackCall = z.output<typeof BuybackCall>;

/** The EIP-712 OfferRequest the service signs and the holder signs again to accept: uint256 fields as decimal strings. */
export const BuybackTypedData = z.strictObject({
  domain: z.strictObject({
    name: z.string(),
    version: z.string(),
    chainId: z.number().int(),
    verifyingContract: address,
  }),
  types: z.record(z.string(), z.array(z.strictObject({ name: z.string(), type: z.string() })).readonly()),
  primaryType: z.literal("OfferRequest"),
  message: z.strictObject({
    tokenContractAddress: address,
    tokenId: decimal,
    price: decimal.describe("USDC micros"),
    acceptedCurrency: address,
    deadline: decimal.describe("Unix seconds"),
    requester: address,
    chainId: decimal,
    minSellerAmount: decimal.describe("USDC micros"),
  }),
});
export type BuybackTypedData = z.output<typeof BuybackTypedData>;

/** A signed offer (created, replayed, or listed). */
export const BuybackOffer = z.strictObject({
  offer_id: z.number().int().nullable(),
  offer_signature: hex,
  signature: hex,
  offer_hash: hex,
  purchase_id: z.number().int().nullable(),
  token_id: z.string(),
  item_type: itemType,
  contract_address: address,
  requester: address,
  target: address,
  chain_id: z.number().int(),
  deadline,
  status: z.enum(OFFER_STATUSES),
  price: micros,
  price_usdc: usdcString,
  seller_receives_usdc: usdcString,
  marketplace_fee_usdc: usdcString,
  value_usdc: usdcString,
  value_source: z.enum(BUYBACK_VALUE_SOURCES),
  accepted_at: isoTime.nullable(),
  created_at: isoTime,
  typed_data: BuybackTypedData,
  calls: z.array(BuybackCall),
  note: z.string(),
  idempotent: z
    .boolean()
    .optional()
    .describe("true when an active offer for the token already existed and is answered again"),
});
export type BuybackOffer = z.output<typeof BuybackOffer>;

/** An offer as lists give it: a recorded offer always has its id. */
export const BuybackOfferSummary = BuybackOffer.extend({ offer_id: z.number().int() });
export type BuybackOfferSummary = z.output<typeof BuybackOfferSummary>;

/** What the holder needs to accept the active offer: relayed (approve once, sign typed_data) or self-submitted. */
export const BuybackAcceptPrepareResult = z.strictObject({
  offer_id: z.number().int(),
  token_id: z.string(),
  item_type: itemType,
  receiver: address.describe("The token's holder on chain now"),
  requester: address,
  deadline,
  price_usdc: usdcString,
  seller_receives_usdc: usdcString,
  marketplace_fee_usdc: usdcString,
  nft_approval: z.strictObject({ approved: z.boolean(), holder_owns_token: z.boolean(), call: BuybackCall.nullable() }),
  transfer_frozen: z.strictObject({
    frozen: z.boolean(),
    burn_type: z
      .string()
      .nullable()
      .describe("The pending burn (REDEEM_CARD, REDEEM_PRODUCT, GRADING); null when not frozen"),
    cancel_call: BuybackCall.nullable(),
  }),
  self_submit: z.strictObject({ call: BuybackCall }),
  typed_data: BuybackTypedData,
  note: z.string(),
});
export type BuybackAcceptPrepareResult = z.output<typeof BuybackAcceptPrepareResult>;

/** The relayed acceptOfferFor. */
export const BuybackAcceptResult = z.strictObject({
  offer_id: z.number().int(),
  token_id: z.string(),
  transaction_hash: txHash.nullable(),
  receiver: address,
  requester: address,
  price_usdc: usdcString,
  seller_receives_usdc: usdcString,
  status: z.literal("submitted"),
  note: z.string(),
});
export type BuybackAcceptResult = z.output<typeof BuybackAcceptResult>;

const offersData = z.strictObject({ offers: z.array(BuybackOfferSummary) });

// --- requests -----------------------------------------------------------------------

const tokenId = z.union([z.string(), z.number().int().nonnegative()]).describe("The token: uint256 in plain decimal");
/** Names the kind of token; optional, and another kind than the token's finds no token (or no active offer). */
export const buybackItemType = withCode(itemType.optional(), "invalid_value");
/** Read by the offer rules once the token is known eligible (400 invalid_amount / price_too_high then). */
const offerPrice = later(
  z
    .union([z.string(), z.number()])
    .nullable()
    .optional()
    .describe("Lower the offer to this USDC amount (at most the default price)"),
);

// token_id: required (token_required), at most 255 characters; one that is no token id finds no token (404).
const createBody = z.object({
  token_id: withCode(
    z
      .union([z.string(), z.number()], { error: "token_id is required" })
      .refine((v) => v !== "", "token_id is required")
      .refine((v) => String(v).length <= MAX_IDENTIFIER, {
        error: (iss) => `is ${String(iss.input).length} characters; identifiers are at most ${MAX_IDENTIFIER}`,
        params: { code: "identifier_too_long" } satisfies IssueParams,
      })
      .describe("The token: uint256 in plain decimal"),
    "token_required",
  ),
  item_type: buybackItemType,
  offer_price_usdc: offerPrice,
});
// Both read by the purchase's rules (which card of it; its length, then whether the purchase holds it).
const createForPurchaseBody = z.object({
  token_id: later(tokenId.nullable().optional().describe("Which card of the purchase (when it has several)")),
  offer_price_usdc: offerPrice,
});
const acceptPrepareBody = z.object({ item_type: buybackItemType });
const acceptBody = z.object({
  receiver_signature: withCode(
    z
      .string({
        error:
          "receiver_signature must be the holder's 65-byte (or 64-byte compact) EIP-712 signature, 0x-prefixed hex",
      })
      .regex(
        /^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/,
        "receiver_signature must be the holder's 65-byte (or 64-byte compact) EIP-712 signature, 0x-prefixed hex",
      )
      .transform((v) => v as `0x${string}`)
      .describe("The holder's EIP-712 signature of accept/prepare's OfferRequest typed_data (65 or 64 bytes, 0x hex)"),
    "invalid_receiver_signature",
  ),
  item_type: buybackItemType,
});

// Path segments are read by the server's rules (an unknown or malformed one is its 404).
const tokenPath = z.object({ token_id: identifier().describe("The token: uint256 in plain decimal") });
const purchasePath = z.object({
  purchase_id: identifier().describe("A purchase id of this account, or else a token id"),
});

const OFFER_400 = ["invalid_value", "invalid_amount", "price_too_high", "identifier_too_long"] as const;
const OFFER_409 = ["not_eligible", "value_unknown", "insufficient_liquidity", "not_fulfilled"] as const;
const noActiveOffer = {
  description: "No active offer for the token (of that item_type)",
  codes: ["no_active_offer"],
} as const;

// POOL model only: a TIER key is 403 not_pool_partner.
export const BUYBACK = {
  acceptPrepare: operation({
    id: "buyback.acceptPrepare",
    method: "POST",
    path: "/mystery/buyback/:token_id/accept/prepare",
    summary:
      "Everything the holder needs to accept the active offer: the typed data to sign, the one-time approval, or a self-submitted call",
    ...partnerScoped("packs:read", ["POOL"]),
    schema: {
      params: tokenPath,
      body: acceptPrepareBody,
      responses: {
        200: { description: "What the holder needs to accept the active offer", data: BuybackAcceptPrepareResult },
        400: {
          description: "An invalid item_type, or a token id over 255 characters",
          codes: ["invalid_json", "invalid_value", "identifier_too_long"],
        },
        404: noActiveOffer,
      },
    },
  }),
  accept: operation({
    id: "buyback.accept",
    method: "POST",
    path: "/mystery/buyback/:token_id/accept",
    summary: "Relay the holder's signed acceptance on chain (the service pays the gas)",
    ...partnerScoped("packs:buyback", ["POOL"]),
    schema: {
      params: tokenPath,
      body: acceptBody,
      responses: {
        200: { description: "The relayer submitted acceptOfferFor", data: BuybackAcceptResult },
        400: {
          description: "Not a signature, an invalid item_type, or a token id over 255 characters",
          codes: ["invalid_json", "invalid_receiver_signature", "invalid_value", "identifier_too_long"],
        },
        404: noActiveOffer,
        409: {
          description: "Signed by someone else, approval missing, or the accept would revert",
          codes: ["receiver_signature_mismatch", "nft_approval_missing", "accept_simulation_failed"],
        },
        503: {
          description: "An operator has the relayer off (retryable; Retry-After); self_submit still works",
          codes: ["relayer_disabled"],
        },
      },
    },
  }),
  create: operation({
    id: "buyback.create",
    method: "POST",
    path: "/mystery/buyback",
    summary: "Sign a buyback offer on one of the account's tokens (85% of its value; idempotent per token)",
    ...partnerScoped("packs:buyback", ["POOL"]),
    schema: {
      body: createBody,
      responses: {
        201: {
          description: "The offer (or the active one already made for the token, idempotent: true)",
          data: BuybackOffer,
        },
        400: {
          description: "Missing token, invalid item_type or offer price",
          codes: ["invalid_json", "token_required", ...OFFER_400],
        },
        404: {
          description: "No such token (of that item_type) from this account's purchases",
          codes: ["token_not_found"],
        },
        409: { description: "The token cannot be bought back now", codes: OFFER_409 },
      },
    },
  }),
  offers: operation({
    id: "buyback.offers",
    method: "GET",
    path: "/mystery/buyback",
    summary: "The account's offers on one token, newest first",
    ...partnerScoped("packs:read", ["POOL"]),
    schema: {
      query: z.object({
        token_id: withCode(
          identifier(z.string({ error: "token_id is required" }).min(1, "token_id is required")).describe(
            "The token: uint256 in plain decimal (one that is no token id matches no offer)",
          ),
          "token_required",
        ),
      }),
      responses: {
        200: { description: "The account's offers for the token", data: offersData },
        400: { description: "Missing or over-long token id", codes: ["token_required", "identifier_too_long"] },
      },
    },
  }),
  createForPurchase: operation({
    id: "buyback.createForPurchase",
    method: "POST",
    path: "/mystery/buyback/:purchase_id",
    summary: "Sign a buyback offer on a purchase's card (or on the token the path names)",
    ...partnerScoped("packs:buyback", ["POOL"]),
    schema: {
      params: purchasePath,
      body: createForPurchaseBody,
      responses: {
        201: {
          description: "The offer (or the active one already made for the token, idempotent: true)",
          data: BuybackOffer,
        },
        400: {
          description: "Several cards and no token_id, or invalid offer price",
          codes: ["invalid_json", "token_required", ...OFFER_400],
        },
        404: { description: "No such purchase or token", codes: ["not_found", "token_not_found"] },
        409: { description: "The token cannot be bought back now", codes: OFFER_409 },
      },
    },
  }),
  purchaseOffers: operation({
    id: "buyback.purchaseOffers",
    method: "GET",
    path: "/mystery/buyback/:purchase_id",
    summary: "The account's offers on a purchase (or on the token the path names)",
    ...partnerScoped("packs:read", ["POOL"]),
    schema: {
      params: purchasePath,
      responses: {
        200: { description: "The account's offers for the purchase (or token)", data: offersData },
        400: { description: "Over-long id", codes: ["identifier_too_long"] },
        404: { description: "No offers for it", codes: ["not_found"] },
      },
    },
  }),
};
