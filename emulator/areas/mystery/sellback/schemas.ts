import { badRequest } from "../../../pipeline/errors.ts";
import { intIn } from "../../../pipeline/identifiers.ts";
import { offsetPageQuery, paginationSchema } from "../../../pipeline/pagination.ts";
import { later, z, type RouteSchema } from "../../../pipeline/schema.ts";
import { isTxHash, optIdentifier, parseUsdc, tokenIdParam, walletParam } from "../util.ts";

// What the sell-back routes take and answer (service-facts §4.5).
//
// Every body field is read by the area's own parser inside a transform, which
// THROWS its coded 400: zod ends the parse at the first throw, so the first
// wrong field in declaration order answers — the order the routes always
// checked them in. min_total_usdc / slippage_bps are `later`: a batch that
// cannot be sold (409) answers before a wrong minimum.

const MAX_BATCH = 50;

/** A body field read by `parse` (which throws the field's coded 400), documented as `doc`. */
const read = <T>(doc: Record<string, unknown>, parse: (v: unknown) => T) => z.unknown().optional().transform(parse).meta(doc);

const tokenIds = read({ type: "array", items: { type: ["string", "integer"] }, minItems: 1, maxItems: MAX_BATCH, description: "uint256 token ids in plain decimal" }, (v): string[] => {
  if (!Array.isArray(v) || v.length === 0) throw badRequest("invalid_token_ids", "token_ids must be a non-empty array of token ids");
  if (v.length > MAX_BATCH) throw badRequest("too_many_tokens", `At most ${MAX_BATCH} tokens per sell-back batch (got ${v.length})`);
  const ids = v.map((x) => tokenIdParam(x, "token_ids[]"));
  if (ids.some((x) => x === null))
    throw badRequest("invalid_token_ids", "Every token id must be a uint256 in plain decimal (string or number; no sign, fraction, exponent, hex or leading zeros)");
  return [...new Set(ids as string[])];
});

const wallet = read({ type: "string", description: "0x EVM address (EIP-55 checksum when mixed-case)" }, (v) => walletParam(v));

/** min_total_usdc, checked once the batch is known sellable. */
export const minTotalSchema = z
  .unknown()
  .optional()
  .transform((v) => {
    if (v === undefined || v === null) return null;
    const m = parseUsdc(v);
    if (m === null) throw badRequest("invalid_amount", "min_total_usdc must be a non-negative decimal USDC amount with at most 6 places");
    return m;
  });
/** slippage_bps (default 100), checked once the batch is known sellable. */
export const slippageSchema = z
  .unknown()
  .optional()
  .transform((v) => {
    const bps = v === undefined || v === null ? 100 : intIn(v, 0, 10_000);
    if (bps === null) throw badRequest("invalid_amount", "slippage_bps must be an integer between 0 and 10000");
    return bps;
  });

const usdcString = z.string().regex(/^-?\d+\.\d{6}$/).describe('USDC, 6 places ("12.500000")');
const micros = z.string().regex(/^\d+$/).describe("USDC micros");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);

const quoteItem = z.strictObject({
  token_id: z.string(),
  eligible: z.boolean(),
  reason: z.enum(["no_window", "wrong_holder", "window_expired", "value_unknown"]).nullable(),
  expires_at: z.string().nullable(),
  group_id: z.number().int(),
  oracle_value_usdc: usdcString,
  payout_usdc: usdcString,
  payout_micros: micros,
  from_raw_card_pack: z.boolean(),
});

export const sellbackQuoteSchema = z.strictObject({
  seller: address,
  items: z.array(quoteItem),
  eligible_token_ids: z.array(z.string()),
  total_payout_micros: micros,
  total_payout_usdc: usdcString,
  approval_needed: z.boolean(),
  pool_liquidity_usdc: usdcString,
  sufficient_liquidity: z.boolean(),
});

export const sellbackCallsSchema = z.strictObject({
  chain_id: z.number().int(),
  contract: address,
  card_contract: address,
  buyback_pool: address,
  seller: address,
  token_ids: z.array(z.string()),
  quoted_payout_usdc: usdcString,
  min_total: micros,
  min_total_usdc: usdcString,
  approval_needed: z.boolean(),
  calls: z.array(z.strictObject({ kind: z.enum(["set-approval-for-all", "sellback"]), to: address, data: hex, description: z.string() })),
});

export const sellbackSchema = z.strictObject({
  sellback_id: z.number().int(),
  seller: address,
  item_type: z.literal("CARD"),
  token_ids: z.array(z.string()),
  total_usdc: usdcString,
  total_micros: micros,
  raw_card_count: z.number().int(),
  transaction_hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  sold_at: z.iso.datetime(),
});
export type SellbackWire = z.output<typeof sellbackSchema>;

const NOT_SELLABLE = ["not_eligible", "wrong_holder", "window_expired", "value_unknown", "insufficient_liquidity"];

export const quoteRoute = {
  body: z.object({ token_ids: tokenIds, wallet_address: wallet }),
  responses: {
    200: { description: "Each token's eligibility and payout", data: sellbackQuoteSchema },
    400: { description: "Invalid input", codes: ["invalid_json", "invalid_token_ids", "too_many_tokens", "invalid_wallet_address", "identifier_too_long"] },
  },
} satisfies RouteSchema;

export const prepareRoute = {
  body: z.object({
    token_ids: tokenIds,
    wallet_address: wallet,
    min_total_usdc: later(z.string().describe("Least total payout in USDC (default: the quote less slippage_bps)")),
    slippage_bps: later(z.number().int().min(0).max(10_000).describe("Default 100")),
  }),
  responses: {
    200: { description: "The calls that sell the batch back", data: sellbackCallsSchema },
    400: { description: "Invalid input", codes: ["invalid_json", "invalid_token_ids", "too_many_tokens", "invalid_wallet_address", "invalid_amount", "identifier_too_long"] },
    409: { description: "The batch cannot be sold back (all-or-nothing)", codes: NOT_SELLABLE },
  },
} satisfies RouteSchema;

const txHash = (v: unknown): `0x${string}` => {
  if (v === undefined || v === null || v === "") throw badRequest("missing_tx_hash", "transaction_hash is required");
  if (!isTxHash(v)) throw badRequest("tx_unverified", "transaction_hash must be 0x followed by 64 hex characters");
  return v;
};

export const submitRoute = {
  // Read as a whole: the hash (transaction_hash or its alias tx_hash) is checked first, as it always was.
  body: z
    .object({
      transaction_hash: z.unknown().optional().meta({ type: "string", description: "0x + 64 hex" }),
      tx_hash: z.unknown().optional().meta({ type: "string", description: "Alias of transaction_hash" }),
      external_user_id: z.unknown().optional().meta({ type: "string" }),
      wallet_address: z.unknown().optional().meta({ type: "string", description: "0x EVM address: must be the on-chain seller when sent" }),
    })
    .transform((b) => {
      const hash = txHash(b.transaction_hash ?? b.tx_hash);
      optIdentifier(b, "external_user_id");
      const claimed = b.wallet_address === undefined || b.wallet_address === null ? null : walletParam(b.wallet_address);
      return { hash, claimed };
    }),
  responses: {
    200: { description: "The recorded sell-back", data: sellbackSchema },
    400: { description: "Invalid input or transaction", codes: ["invalid_json", "missing_tx_hash", "tx_unverified", "tx_reverted", "invalid_value", "invalid_wallet_address", "identifier_too_long"] },
    403: { description: "The on-chain seller is not this partner's end user", codes: ["seller_mismatch"] },
    409: { description: "Recorded for another partner", codes: ["tx_already_recorded"] },
  },
} satisfies RouteSchema;

export const listRoute = {
  query: z.object(offsetPageQuery()),
  responses: {
    200: { description: "The partner's sell-backs, newest first", data: z.strictObject({ sellbacks: z.array(sellbackSchema) }) },
    400: { description: "Invalid paging", codes: ["invalid_pagination"] },
  },
} satisfies RouteSchema;
