import { offsetPageQuery } from "../paging.ts";
import { operation } from "../operation.ts";
import { withCode, z } from "../zod.ts";
import { address, hex, isoTime, micros, txHash, usdcString } from "../primitives.ts";

// /api/v1/mystery/sellback* (docs/mystery.md "Sell-back"): the TIER model's
// native sell-back, as the official SDK types it (SellbackQuote,
// SellbackPrepareResult, SellbackRecord). The batch and amount rules need the
// server's parsers (their codes come in a fixed order); the schemas here say
// what is taken and answered.

/** Tokens per sell-back batch (docs/mystery.md). */
export const MAX_SELLBACK_BATCH = 50;
/** Why a token cannot be sold back; null when it can. */
export const SELLBACK_REASONS = ["no_window", "wrong_holder", "window_expired", "value_unknown"] as const;
export type SellbackReason = (typeof SELLBACK_REASONS)[number];
export const SELLBACK_CALL_KINDS = ["set-approval-for-all", "sellback"] as const;

/** One token's eligibility and payout; value and payout are null when the oracle has no price for it. */
export const SellbackQuoteItem = z.strictObject({
  token_id: z.string(),
  eligible: z.boolean(),
  reason: z.enum(SELLBACK_REASONS).nullable(),
  expires_at: isoTime.nullable(),
  group_id: z.number().int().nullable().describe("The oracle pricing group; null for a token the pool never minted"),
  oracle_value_usdc: usdcString.nullable(),
  payout_usdc: usdcString.nullable(),
  payout_micros: micros.nullable(),
  from_raw_card_pack: z.boolean(),
});
export type SellbackQuoteItem = z.output<typeof SellbackQuoteItem>;

export const SellbackQuote = z.strictObject({
  seller: address,
  items: z.array(SellbackQuoteItem),
  eligible_token_ids: z.array(z.string()),
  total_payout_micros: micros,
  total_payout_usdc: usdcString,
  approval_needed: z.boolean(),
  pool_liquidity_usdc: usdcString.nullable(),
  sufficient_liquidity: z.boolean(),
});
export type SellbackQuote = z.output<typeof SellbackQuote>;

export const SellbackPrepareResult = z.strictObject({
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
  calls: z.array(
    z.strictObject({ kind: z.enum(SELLBACK_CALL_KINDS), to: address, data: hex, description: z.string() }),
  ),
});
export type SellbackPrepareResult = z.output<typeof SellbackPrepareResult>;

/** A recorded sell-back; the payout is decoded from the chain's CardSellExecuted log. */
export const SellbackRecord = z.strictObject({
  sellback_id: z.number().int(),
  seller: address,
  item_type: z.literal("CARD"),
  token_ids: z.array(z.string()),
  total_usdc: usdcString,
  total_micros: micros,
  raw_card_count: z.number().int(),
  transaction_hash: txHash,
  sold_at: isoTime.nullable(),
});
export type SellbackRecord = z.output<typeof SellbackRecord>;

// --- requests (declarations; the server reads them with its own rules and codes) ---

const tokenIds = withCode(
  z
    .array(z.union([z.string(), z.number().int().nonnegative()]))
    .min(1)
    .max(MAX_SELLBACK_BATCH)
    .describe("uint256 token ids in plain decimal"),
  "invalid_token_ids",
);
const wallet = withCode(address.describe("0x EVM address (EIP-55 checksum when mixed-case)"), "invalid_wallet_address");
const batch = { wallet_address: wallet, token_ids: tokenIds };

const quoteBody = z.object(batch);
const prepareBody = z.object({
  ...batch,
  min_total_usdc: withCode(
    z.string().nullable().optional().describe("Least total payout in USDC (default: the quote less slippage_bps)"),
    "invalid_amount",
  ),
  slippage_bps: withCode(
    z.number().int().min(0).max(10_000).nullable().optional().describe("Default 100"),
    "invalid_amount",
  ),
});
const submitBody = z.object({
  transaction_hash: withCode(txHash.optional().describe("0x + 64 hex"), "tx_unverified"),
  tx_hash: z.string().optional().describe("Alias of transaction_hash"),
  external_user_id: z.string().nullable().optional(),
  wallet_address: wallet.nullable().optional().describe("0x EVM address: must be the on-chain seller when sent"),
});

const BATCH_400 = [
  "invalid_json",
  "invalid_token_ids",
  "too_many_tokens",
  "invalid_wallet_address",
  "identifier_too_long",
] as const;

// TIER model only: a POOL key is 403 not_tier_partner.
const access = (scope: string) => ({ kinds: ["partner"], scopes: [scope], models: ["TIER"] }) as const;
const common = { envelope: "partner" } as const;

export const SELLBACK = {
  quote: operation({
    id: "sellback.quote",
    method: "POST",
    path: "/mystery/sellback/quote",
    summary: "Which of a holder's cards can be sold back to the pool, and for how much (creates nothing)",
    access: access("packs:read"),
    ...common,
    schema: {
      body: quoteBody,
      responses: {
        200: { description: "Each token's eligibility and payout", data: SellbackQuote },
        400: { description: "Invalid input", codes: BATCH_400 },
      },
    },
  }),
  prepare: operation({
    id: "sellback.prepare",
    method: "POST",
    path: "/mystery/sellback/prepare",
    summary: "The calls the holder signs to sell a batch back (approve once, then acceptCardBuyback)",
    access: access("packs:buyback"),
    ...common,
    schema: {
      body: prepareBody,
      responses: {
        200: { description: "The calls that sell the batch back", data: SellbackPrepareResult },
        400: { description: "Invalid input", codes: [...BATCH_400, "invalid_amount"] },
        409: {
          description: "The batch cannot be sold back (all-or-nothing)",
          codes: ["not_eligible", "wrong_holder", "window_expired", "value_unknown", "insufficient_liquidity"],
        },
      },
    },
  }),
  submit: operation({
    id: "sellback.submit",
    method: "POST",
    path: "/mystery/sellback/submit",
    summary: "Record a sell-back the holder broadcast (the payout is read from the chain; re-submitting is safe)",
    access: access("packs:buyback"),
    ...common,
    schema: {
      body: submitBody,
      responses: {
        200: { description: "The recorded sell-back", data: SellbackRecord },
        400: {
          description: "Invalid input or transaction",
          codes: [
            "invalid_json",
            "missing_tx_hash",
            "tx_unverified",
            "tx_reverted",
            "invalid_value",
            "invalid_wallet_address",
            "identifier_too_long",
          ],
        },
        403: { description: "The on-chain seller is not this partner's end user", codes: ["seller_mismatch"] },
        409: { description: "Recorded for another partner", codes: ["tx_already_recorded"] },
      },
    },
  }),
  list: operation({
    id: "sellback.list",
    method: "GET",
    path: "/mystery/sellbacks",
    summary: "The partner's sell-backs across its end users, newest first",
    access: access("packs:read"),
    ...common,
    schema: {
      query: z.object(offsetPageQuery()),
      responses: {
        200: {
          description: "The partner's sell-backs, newest first",
          data: z.strictObject({ sellbacks: z.array(SellbackRecord) }),
        },
        400: { description: "Invalid paging", codes: ["invalid_pagination"] },
      },
    },
  }),
};
