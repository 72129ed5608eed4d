import type { Hex } from "viem";
import { badRequest, notFound } from "../../../pipeline/errors.ts";
import { checkIdLength } from "../../../pipeline/identifiers.ts";
import { z, type RouteSchema } from "../../../pipeline/schema.ts";
import { parseUsdc, tokenIdOf, tokenIdParam } from "../util.ts";
import type { OfferPrice } from "./offers.ts";

// What the buyback offer and relayed-accept routes take and answer (POOL
// model). A token or purchase id in the path is read by the rules (a purchase
// id of this account wins, else it is a token id; an unknown one is their
// 404). offer_price_usdc is kept as sent: the rules answer a bad one only once
// the token is known eligible.

const usdcString = z.string().regex(/^-?\d+\.\d{6}$/).describe('USDC, 6 places ("12.500000")');
const micros = z.string().regex(/^\d+$/).describe("USDC micros");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
const isoTime = z.iso.datetime();
const itemType = z.enum(["CARD", "GRADED_CARD", "PACKET", "SEALED_PRODUCT"]);

const typedField = z.strictObject({ name: z.string(), type: z.string() });
const domainSchema = z.strictObject({ name: z.string(), version: z.string(), chainId: z.number().int(), verifyingContract: address });
const typedData = <M extends z.ZodType>(message: M) => z.strictObject({ domain: domainSchema, types: z.record(z.string(), z.array(typedField)), primaryType: z.string(), message });

/** BuybackTypedData.message (sdk-wire-shapes §7): uint256 fields as decimal strings, addresses as hex. */
const decimal = z.string().regex(/^\d+$/);
const offerRequestMessage = z.strictObject({
  tokenContractAddress: address,
  tokenId: decimal,
  price: decimal.describe("USDC micros"),
  acceptedCurrency: address,
  deadline: decimal.describe("Unix seconds"),
  requester: address,
  chainId: decimal,
  minSellerAmount: decimal.describe("USDC micros"),
});

const callSchema = z.strictObject({ kind: z.string(), to: address, data: hex, value: z.string().optional(), description: z.string() });

const offerSchema = z.strictObject({
  offer_id: z.number().int(),
  offer_signature: hex,
  signature: hex,
  offer_hash: hex,
  purchase_id: z.number().int().nullable(),
  token_id: z.string(),
  item_type: itemType,
  contract_address: address,
  requester: address,
  target: z.string(),
  chain_id: z.number().int(),
  deadline: z.number().int(),
  status: z.enum(["active", "accepted", "cancelled", "expired"]),
  price: micros,
  price_usdc: usdcString,
  seller_receives_usdc: usdcString,
  marketplace_fee_usdc: usdcString,
  value_usdc: usdcString,
  value_source: z.literal("buyback_oracle"),
  accepted_at: isoTime.nullable(),
  created_at: isoTime,
  typed_data: typedData(offerRequestMessage).extend({ primaryType: z.literal("OfferRequest") }),
  calls: z.array(callSchema),
  note: z.string(),
  idempotent: z.boolean().optional().describe("true when an active offer for the token already existed and is answered again"),
});

const offersData = z.strictObject({ offers: z.array(offerSchema) });

const offerPrice = z
  .unknown()
  .optional()
  .transform((v): OfferPrice | null => (v === undefined || v === null ? null : { micros: parseUsdc(v) }))
  .meta({ type: "string", description: "Lower the offer to this USDC amount (at most the default price)" });

const OFFER_400 = ["invalid_amount", "price_too_high", "identifier_too_long"] as const;
const OFFER_409 = ["not_eligible", "value_unknown", "insufficient_liquidity", "not_fulfilled"] as const;

// --- POST /mystery/buyback/:token_id/accept/prepare ----------------------------------------

const tokenPath = z.object({ token_id: z.string().meta({ description: "The token: uint256 in plain decimal" }) });

export const acceptPrepareRoute = {
  params: tokenPath,
  responses: {
    200: {
      description: "What the holder needs to accept the active offer: relayed (approve once, sign typed_data) or self-submitted",
      data: z.strictObject({
        offer_id: z.number().int(),
        token_id: z.string(),
        item_type: itemType,
        receiver: address.nullable(),
        requester: address,
        deadline: z.number().int(),
        price_usdc: usdcString,
        seller_receives_usdc: usdcString,
        marketplace_fee_usdc: usdcString,
        nft_approval: z.strictObject({ approved: z.boolean(), holder_owns_token: z.boolean(), call: callSchema.nullable() }),
        transfer_frozen: z.strictObject({ frozen: z.boolean(), burn_type: z.number().int().nullable(), burn_type_label: z.string().nullable(), cancel_call: z.null() }),
        self_submit: z.strictObject({ call: callSchema }),
        typed_data: typedData(offerRequestMessage).extend({ primaryType: z.literal("OfferRequest") }),
        note: z.string(),
      }),
    },
    404: { description: "No active offer for the token", codes: ["no_active_offer"] },
  },
} satisfies RouteSchema;

// --- POST /mystery/buyback/:token_id/accept -----------------------------------------------------

const isSignature = (v: unknown): v is Hex => typeof v === "string" && /^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/.test(v);

export const acceptRoute = {
  params: tokenPath,
  body: z.object({
    receiver_signature: z
      .unknown()
      .optional()
      .transform((v): Hex => {
        if (!isSignature(v)) throw badRequest("invalid_receiver_signature", "receiver_signature must be the holder's 65-byte (or 64-byte compact) EIP-712 signature, 0x-prefixed hex");
        return v;
      })
      .meta({ type: "string", description: "The holder's EIP-712 signature of accept/prepare's OfferRequest typed_data (65 or 64 bytes, 0x hex)" }),
  }),
  responses: {
    200: {
      description: "The relayer submitted acceptOfferFor",
      data: z.strictObject({
        offer_id: z.number().int(),
        token_id: z.string(),
        transaction_hash: hex,
        receiver: address,
        requester: address,
        price_usdc: usdcString,
        seller_receives_usdc: usdcString,
        status: z.literal("submitted"),
        note: z.string(),
      }),
    },
    400: { description: "Not a signature", codes: ["invalid_receiver_signature"] },
    404: { description: "No active offer for the token", codes: ["no_active_offer"] },
    409: { description: "Signed by someone else, approval missing, or the accept would revert", codes: ["receiver_signature_mismatch", "nft_approval_missing", "accept_simulation_failed"] },
    503: { description: "An operator has the relayer off (retryable; Retry-After); self_submit still works", codes: ["relayer_disabled"] },
  },
} satisfies RouteSchema;

// --- POST /mystery/buyback ------------------------------------------------------------------------

export const createRoute = {
  body: z.object({
    token_id: z
      .unknown()
      .optional()
      .transform((v): string => {
        if (v === undefined || v === null || v === "") throw badRequest("token_required", "token_id is required");
        const id = tokenIdParam(v);
        if (id === null) throw notFound(`No token ${String(v)}`, "token_not_found");
        return id;
      })
      .meta({ type: "string", description: "The token: uint256 in plain decimal" }),
    offer_price_usdc: offerPrice,
  }),
  responses: {
    201: { description: "The offer (or the active one already made for the token, idempotent: true)", data: offerSchema },
    400: { description: "Missing token, or invalid offer price", codes: ["token_required", ...OFFER_400] },
    404: { description: "No such token from this account's purchases", codes: ["token_not_found"] },
    409: { description: "The token cannot be bought back now", codes: OFFER_409 },
  },
} satisfies RouteSchema;

// --- GET /mystery/buyback?token_id= --------------------------------------------------------------------

export const listByTokenRoute = {
  query: z.object({
    token_id: z
      .string()
      .optional()
      .transform((raw): string | null => {
        if (!raw) throw badRequest("token_required", "token_id is required");
        checkIdLength(raw, "token_id");
        // A filter: a string that is no token id matches no offer.
        return tokenIdOf(raw);
      })
      .meta({ description: "The token: uint256 in plain decimal (required)" }),
  }),
  responses: {
    200: { description: "The account's offers for the token", data: offersData },
    400: { description: "Missing or over-long token id", codes: ["token_required", "identifier_too_long"] },
  },
} satisfies RouteSchema;

// --- POST /mystery/buyback/:purchase_id -------------------------------------------------------------------

const purchasePath = z.object({ purchase_id: z.string().meta({ description: "A purchase id of this account, or else a token id" }) });

export const createForPurchaseRoute = {
  params: purchasePath,
  body: z.object({
    token_id: z.unknown().optional().meta({ type: "string", description: "Which card of the purchase (when it has several)" }),
    offer_price_usdc: offerPrice,
  }),
  responses: {
    201: { description: "The offer (or the active one already made for the token, idempotent: true)", data: offerSchema },
    400: { description: "Several cards and no token_id, or invalid offer price", codes: ["token_required", ...OFFER_400] },
    404: { description: "No such purchase or token", codes: ["not_found", "token_not_found"] },
    409: { description: "The token cannot be bought back now", codes: OFFER_409 },
  },
} satisfies RouteSchema;

// --- GET /mystery/buyback/:purchase_id ----------------------------------------------------------------------

export const listForPurchaseRoute = {
  params: purchasePath,
  responses: {
    200: { description: "The account's offers for the purchase (or token)", data: offersData },
    400: { description: "Over-long id", codes: ["identifier_too_long"] },
    404: { description: "No offers for it", codes: ["not_found"] },
  },
} satisfies RouteSchema;
