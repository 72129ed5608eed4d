import { badRequest } from "../../../pipeline/errors.ts";
import { checkIdLength, intId } from "../../../pipeline/identifiers.ts";
import { offsetPageQuery } from "../../../pipeline/pagination.ts";
import { identifier, later, z, type RouteSchema } from "../../../pipeline/schema.ts";
import { PURCHASE_STATUSES, type PurchaseStatus } from "../state.ts";
import { isTxHash, optIdentifier, parseUsdc, tierParam, walletParam } from "../util.ts";

// What the purchase routes take and answer (service-facts §4.2–4.3).
//
// tier_id is read first (400 invalid_tier), then the tier is looked up:
// tier_id is 400 invalid_tier too; every other body field is `later` and checked by the handler after that
// lookup, in the order the routes always checked them. POST /mystery/purchase
// checks its Idempotency-Key header before the body, so its tier_id is `later` too.

/** A body field read by `parse` (which throws the field's coded 400), documented as `doc`. */
const read = <T>(doc: Record<string, unknown>, parse: (v: unknown) => T) => z.unknown().optional().transform(parse).meta(doc);

const tierId = read({ type: ["integer", "string"], description: "The tier's numeric id (GET /mystery/catalog)" }, (v) => tierParam(v));
const tierDoc = z.union([z.number().int(), z.string()]).describe("The tier's numeric id (GET /mystery/catalog)");
const walletDoc = z.string().describe("0x EVM address (EIP-55 checksum when mixed-case)");
const usdcDoc = z.string().describe('Decimal USDC with at most 6 places ("25.00")');

/** The buyer's wallet (checked late). */
export const walletSchema = read({}, (v) => walletParam(v));
/** max_price_usdc as micros, or null when not sent (checked late; the tier price decides the 409). */
export const maxPriceSchema = read({}, (v) => {
  if (v === undefined || v === null) return null;
  const m = parseUsdc(v);
  if (m === null) throw badRequest("invalid_amount", 'max_price_usdc must be a non-negative decimal USDC amount with at most 6 places, such as "25.00"');
  return m;
});

/** The rest of a submit, after the tier: hash, wallet, end user, request id, in that order. */
export const submitRestSchema = z
  .object({ transaction_hash: z.unknown().optional(), tx_hash: z.unknown().optional(), wallet_address: z.unknown().optional(), external_user_id: z.unknown().optional(), request_id: z.unknown().optional() })
  .transform((b) => {
    const hash = b.transaction_hash ?? b.tx_hash;
    if (hash === undefined || hash === null || hash === "") throw badRequest("missing_tx_hash", "transaction_hash is required (submit after the purchase transaction is mined)");
    if (!isTxHash(hash)) throw badRequest("invalid_tx_hash", "transaction_hash must be 0x followed by 64 hex characters");
    const wallet = walletParam(b.wallet_address);
    const external_user_id = optIdentifier(b, "external_user_id");
    checkIdLength(b.request_id, "request_id");
    const request_id = b.request_id === undefined || b.request_id === null ? null : String(b.request_id);
    return { hash, wallet, external_user_id, request_id };
  });

/** quantity: only 1 (checked late, after the tier). */
export const quantitySchema = read({}, (v) => {
  if (v !== undefined && v !== 1) throw badRequest("unsupported_quantity", "quantity is fixed at 1 (one pack per call)");
  return 1 as const;
});

// --- wire objects ---------------------------------------------------------------

const usdcString = z.string().regex(/^-?\d+\.\d{6}$/).describe('USDC, 6 places ("12.500000")');
const micros = z.string().regex(/^\d+$/).describe("USDC micros");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
const isoTime = z.iso.datetime();

const itemSchema = z.strictObject({
  token_id: z.string(),
  item_type: z.string(),
  category: z.enum(["card", "product", "unknown"]),
  card_id: z.string().optional(),
  name: z.string(),
  image_url: z.string().nullable(),
  value_usd: z.string(),
  rarity: z.string().optional(),
  card_number: z.string().optional(),
  set_id: z.string().optional(),
});

export const purchaseSchema = z.strictObject({
  id: z.number().int(),
  purchase_id: z.number().int(),
  memo: z.string(),
  status: z.enum(PURCHASE_STATUSES as [PurchaseStatus, ...PurchaseStatus[]]),
  custody: z.enum(["CUSTODIAL", "NON_CUSTODIAL"]),
  tier_id: z.number().int(),
  quantity: z.literal(1),
  price: micros,
  price_usdc: usdcString,
  volume_usdc: usdcString,
  onchain_request_id: z.string().nullable(),
  request_id: z.string().nullable(),
  transaction_hash: z.string().nullable(),
  purchaser_address: z.string(),
  external_user_id: z.string().nullable(),
  failure_reason: z.string().nullable(),
  reserved_at: isoTime.nullable(),
  submitted_at: isoTime.nullable(),
  fulfilled_at: isoTime.nullable(),
  created_at: isoTime,
  items: z.array(itemSchema).optional(),
});
export type PurchaseWire = z.output<typeof purchaseSchema>;

export const prepareSchema = z.strictObject({
  chain_id: z.number().int(),
  contract: address,
  payment_token: address,
  wallet_address: address,
  tier_id: z.number().int(),
  max_price: micros,
  max_price_usdc: usdcString,
  calls: z.array(z.strictObject({ kind: z.enum(["erc20-approve", "purchase"]), to: address, data: hex, value: z.literal("0"), description: z.string() })),
});

// --- routes -----------------------------------------------------------------------

export const prepareRoute = {
  body: z.object({ tier_id: tierId, wallet_address: later(walletDoc), max_price_usdc: later(usdcDoc.describe("Default: the tier's price")) }),
  responses: {
    200: { description: "The approve and purchase calls", data: prepareSchema },
    400: { description: "Invalid input", codes: ["invalid_json", "invalid_tier", "invalid_wallet_address", "invalid_amount", "identifier_too_long"] },
    409: { description: "The tier costs more than max_price_usdc", codes: ["max_price_exceeded"] },
  },
} satisfies RouteSchema;

export const submitRoute = {
  body: z.object({
    tier_id: tierId,
    transaction_hash: later(z.string().describe("0x + 64 hex: the mined purchase transaction")),
    tx_hash: later(z.string().describe("Alias of transaction_hash")),
    wallet_address: later(walletDoc),
    external_user_id: later(z.string()),
    request_id: later(z.union([z.string(), z.number()])),
  }),
  responses: {
    202: { description: "The recorded purchase", data: purchaseSchema },
    400: { description: "Invalid input or transaction", codes: ["invalid_json", "invalid_tier", "missing_tx_hash", "invalid_tx_hash", "invalid_wallet_address", "invalid_value", "identifier_too_long", "tx_unverified", "tx_reverted", "purchaser_mismatch"] },
    409: { description: "The transaction is recorded for another partner", codes: ["tx_already_recorded"] },
  },
} satisfies RouteSchema;

export const purchaseRoute = {
  body: z.object({
    tier_id: later(tierDoc),
    quantity: later(z.literal(1)),
    external_user_id: later(z.string()),
    wallet_address: later(walletDoc),
    max_price_usdc: later(usdcDoc.describe("Default: the tier's price")),
  }),
  responses: {
    202: { description: "The custodial purchase: RESERVED with the price held and on-chain fields null (then SUBMITTING → SUBMITTED → FULFILLED on the clock)", data: purchaseSchema },
    400: { description: "Invalid input", codes: ["invalid_json", "missing_idempotency_key", "invalid_tier", "unsupported_quantity", "missing_user_identifier", "invalid_wallet_address", "invalid_value", "invalid_amount", "identifier_too_long"] },
    402: { description: "The end user's balance does not cover the price", codes: ["insufficient_funds"] },
    409: { description: "Price above max_price_usdc, or an Idempotency-Key reused with another body", codes: ["max_price_exceeded", "idempotency_mismatch"] },
    503: { description: "An operator has the relayer off (retryable; Retry-After); nothing is held", codes: ["relayer_disabled"] },
  },
} satisfies RouteSchema;

export const readRoute = {
  // A non-numeric id is a 404 naming it, as before (identifier_too_long over 255 characters).
  params: z.object({ id: z.string().transform((v) => ({ id: intId(v, "purchase_id"), label: v })) }),
  responses: {
    200: { description: "The purchase", data: purchaseSchema },
    400: { description: "Identifier too long", codes: ["identifier_too_long"] },
    404: { description: "No such purchase on this account", codes: ["not_found"] },
  },
} satisfies RouteSchema;

export const listRoute = {
  query: z.object({
    status: read({ type: "string", enum: PURCHASE_STATUSES, description: "Case-insensitive" }, (v): PurchaseStatus | null => {
      if (v === undefined) return null;
      const up = String(v).toUpperCase() as PurchaseStatus;
      if (!PURCHASE_STATUSES.includes(up)) throw badRequest("invalid_status", `status must be one of ${PURCHASE_STATUSES.join(", ")}`);
      return up;
    }),
    ...offsetPageQuery(),
    external_user_id: identifier().optional(),
    wallet_address: z.string().optional().transform((v) => v?.toLowerCase() ?? null),
  }),
  responses: {
    200: { description: "The account's purchases", data: z.strictObject({ purchases: z.array(purchaseSchema) }) },
    400: { description: "Invalid filter or paging", codes: ["invalid_status", "invalid_pagination", "identifier_too_long"] },
  },
} satisfies RouteSchema;
