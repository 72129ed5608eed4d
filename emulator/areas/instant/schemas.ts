import { getAddress, isAddress } from "viem";
import { intId } from "../../pipeline/identifiers.ts";
import { parseUsdc } from "../../pipeline/money.ts";
import { offsetPageQuery } from "../../pipeline/pagination.ts";
import { identifier, withCode, z, type IssueParams, type RouteSchema } from "../../pipeline/schema.ts";
import { INSTANT_STATUSES } from "./state.ts";

// What /api/v1/instant/* takes and answers (sdk-contract §5.2, sdk-wire-shapes §1,
// service-facts §4.4). Each field names its 400 code; the rules that need the
// chain (unknown packet type, stock, price, the receipt) are in purchases.ts.

const packetTypeId = withCode(
  z.union([z.number().int().min(1).max(2 ** 32 - 1), z.string().regex(/^[1-9]\d{0,9}$/).transform(Number)], { error: "must be the numeric packet_type_id of an instant pack (GET /instant/catalog)" }),
  "invalid_packet_type",
);
const wallet = withCode(
  z
    .string({ error: "is required: the user's own 0x wallet (it signs, pays and receives)" })
    .refine((v) => isAddress(v, { strict: true }), "must be a 0x-prefixed 20-byte EVM address (EIP-55 checksum when mixed-case)")
    .transform((v) => getAddress(v)),
  "invalid_wallet_address",
);
const maxPrice = withCode(
  z
    .union([z.string(), z.number()])
    .refine((v) => parseUsdc(v) !== null, 'must be a non-negative decimal USDC amount with at most 6 places, such as "25.00"')
    .transform((v) => parseUsdc(v)!)
    .nullish()
    .transform((v) => v ?? null),
  "invalid_amount",
);
const txHash = withCode(
  z
    .string({ error: "is required: the mined buy-and-open transaction" })
    .min(1, "is required: the mined buy-and-open transaction")
    .refine((v) => /^0x[0-9a-fA-F]{64}$/.test(v), { error: "must be 0x followed by 64 hex characters; no such transaction can be verified", params: { code: "tx_unverified" } satisfies IssueParams })
    .transform((v) => v as `0x${string}`),
  "missing_tx_hash",
);

// --- wire objects ---------------------------------------------------------------

const usdcString = z.string().regex(/^\d+\.\d{6}$/).describe('USDC, 6 places ("4.990000")');
const micros = z.string().regex(/^\d+$/).describe("USDC micros");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
const isoTime = z.iso.datetime();

export const catalogItemSchema = z.strictObject({
  packet_type_id: z.number().int(),
  set_id: z.string(),
  set_name: z.string(),
  product_id: z.string(),
  name: z.string(),
  image_url: z.string().nullable(),
  large_image_url: z.string().nullable(),
  price: micros,
  price_usdc: usdcString,
  available_packs: z.number().int().min(0),
  tcg_type: z.string(),
  language: z.string(),
});

const packSchema = z.strictObject({ unique_id: z.string(), set_id: z.string(), name: z.string(), image_url: z.string().nullable(), opened_at: isoTime.nullable() });

const cardSchema = z.strictObject({
  token_id: z.string(),
  unique_id: z.string().nullable(),
  card_id: z.string().nullable(),
  name: z.string().nullable(),
  card_number: z.string().nullable(),
  rarity: z.string().nullable(),
  is_chase: z.boolean().nullable(),
  small_image_url: z.string().nullable(),
  large_image_url: z.string().nullable(),
  front_image_url: z.string().nullable(),
  value_usd: usdcString.nullable(),
  set_id: z.string().nullable(),
});

export const purchaseSchema = z.strictObject({
  id: z.number().int(),
  memo: z.string().optional(),
  status: z.enum(INSTANT_STATUSES),
  custody: z.enum(["CUSTODIAL", "NON_CUSTODIAL"]),
  packet_type_id: z.number().int(),
  set_id: z.string().nullable(),
  product_id: z.string().nullable(),
  quantity: z.number().int(),
  price: micros,
  price_usdc: usdcString,
  onchain_request_id: z.string().nullable(),
  transaction_hash: hex.nullable(),
  purchaser_address: address.nullable(),
  recipient_address: address.nullable(),
  failure_reason: z.string().nullable(),
  reserved_at: isoTime.nullable(),
  submitted_at: isoTime.nullable(),
  fulfilled_at: isoTime.nullable(),
  created_at: isoTime,
  pack: packSchema.nullable().optional(),
  cards: z.array(cardSchema).optional(),
});
export type InstantPurchaseWire = z.output<typeof purchaseSchema>;

export const prepareSchema = z.strictObject({
  chain_id: z.number().int(),
  payment_token: address,
  contract: address,
  packet_type_id: z.number().int(),
  price: micros,
  price_usdc: usdcString,
  calls: z.array(z.strictObject({ to: address, data: hex, description: z.string() })).length(2),
});

const disabled = { description: "An operator has instant packs off (retryable; Retry-After)", codes: ["instant_disabled"] } as const;

// --- routes -----------------------------------------------------------------------

export const catalogRoute = {
  query: z.object({
    include_unavailable: withCode(
      z
        .enum(["1", "true", "0", "false"], { error: 'must be "1" (or "true") to include sold-out packs' })
        .optional()
        .transform((v) => v === "1" || v === "true"),
      "invalid_value",
    ),
    ...offsetPageQuery(),
  }),
  responses: {
    200: { description: "Instant packs with live price and stock (sold-out ones only with include_unavailable=1)", data: z.strictObject({ packs: z.array(catalogItemSchema) }) },
    400: { description: "Invalid filter or paging", codes: ["invalid_value", "invalid_pagination"] },
  },
} satisfies RouteSchema;

export const prepareRoute = {
  body: z.object({ packet_type_id: packetTypeId, wallet_address: wallet, max_price_usdc: maxPrice }),
  responses: {
    200: { description: "The approve and purchaseInstantOpenFor calls (creates nothing)", data: prepareSchema },
    400: { description: "Invalid input", codes: ["invalid_json", "invalid_packet_type", "invalid_wallet_address", "invalid_amount"] },
    409: { description: "Sold out, or the pack costs more than max_price_usdc", codes: ["sold_out", "max_price_exceeded"] },
    503: disabled,
  },
} satisfies RouteSchema;

export const submitRoute = {
  body: z.object({
    packet_type_id: packetTypeId,
    transaction_hash: txHash,
    request_id: withCode(identifier(z.string()).or(z.number().int().transform(String)).nullish(), "invalid_value"),
    external_user_id: withCode(identifier(z.string()).nullish(), "invalid_value"),
    wallet_address: wallet.nullish(),
  }),
  responses: {
    202: { description: "The recorded purchase (SUBMITTED; FULFILLED once the VRF draw opened the pack)", data: purchaseSchema },
    400: {
      description: "Invalid input or transaction",
      codes: ["invalid_json", "invalid_packet_type", "missing_tx_hash", "invalid_wallet_address", "invalid_value", "identifier_too_long", "tx_unverified", "tx_reverted", "packet_type_mismatch", "purchaser_mismatch"],
    },
    409: { description: "The transaction is recorded for another partner", codes: ["tx_already_recorded"] },
    503: disabled,
  },
} satisfies RouteSchema;

export const readRoute = {
  params: z.object({ id: z.string().transform((v) => ({ id: intId(v, "purchase_id"), label: v })) }),
  responses: {
    200: { description: "The purchase (pack and cards once FULFILLED)", data: purchaseSchema },
    400: { description: "Identifier too long", codes: ["identifier_too_long"] },
    404: { description: "No such instant purchase on this account", codes: ["not_found"] },
  },
} satisfies RouteSchema;

export const listRoute = {
  query: z.object({
    status: withCode(
      z
        .string()
        .transform((v) => v.toUpperCase())
        .pipe(z.enum(INSTANT_STATUSES, { error: `must be one of ${INSTANT_STATUSES.join(", ")}` }))
        .optional()
        .transform((v) => v ?? null),
      "invalid_status",
    ),
    external_user_id: identifier().optional().transform((v) => v ?? null),
    wallet_address: z.string().optional().transform((v) => v?.toLowerCase() ?? null),
    ...offsetPageQuery(),
  }),
  responses: {
    200: { description: "The account's instant purchases, newest first", data: z.strictObject({ purchases: z.array(purchaseSchema) }) },
    400: { description: "Invalid filter or paging", codes: ["invalid_status", "invalid_pagination", "identifier_too_long"] },
  },
} satisfies RouteSchema;
