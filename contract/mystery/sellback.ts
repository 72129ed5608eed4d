import { offsetPageQuery } from "../paging.ts";
import { operation, partnerScoped } from "../operation.ts";
import { evmAddress, tokenIdText, usdcAmount } from "../input-fields.ts";
import { firstRepeat, later, MAX_IDENTIFIER, withCode, within, z, type IssueParams } from "../zod.ts";
import { endUserId, walletField } from "./fields.ts";
import { address, hex, isoTime, micros, txHash, usdcString } from "../primitives.ts";

// /api/v1/mystery/sellback* (docs/mystery.md "Sell-back"): the TIER model's
// native sell-back, as the official SDK types it (SellbackQuote,
// SellbackPrepareResult, SellbackRecord). Each request field carries its
// rule and code, checked in the order the fields are declared.

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

// --- requests -----------------------------------------------------------------------

const TOKEN_RULE =
  "Every token id must be a uint256 in plain decimal (string or number; no sign, fraction, exponent, hex or leading zeros)";
const idLength = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v).length : 0);
/** The batch, checked in this order: a non-empty array, at most 50, no id over 255 characters, every one a token id, none twice. */
const tokenIds = withCode(
  z
    .array(z.unknown(), { error: "token_ids must be a non-empty array of token ids" })
    .min(1, "token_ids must be a non-empty array of token ids")
    .refine((v) => v.length <= MAX_SELLBACK_BATCH, {
      error: (iss) =>
        `At most ${MAX_SELLBACK_BATCH} tokens per sell-back batch (got ${(iss.input as unknown[]).length})`,
      params: { code: "too_many_tokens" } satisfies IssueParams,
    })
    .refine((v) => v.every((x) => idLength(x) <= MAX_IDENTIFIER), {
      error: `names an id over ${MAX_IDENTIFIER} characters`,
      params: { code: "identifier_too_long" } satisfies IssueParams,
    })
    .refine((v) => v.every((x) => tokenIdText(x) !== null), TOKEN_RULE)
    .transform((v) => v.map((x) => tokenIdText(x)!))
    .refine((ids) => firstRepeat(ids) === undefined, {
      error: (iss) => `token_ids names token ${firstRepeat(iss.input as string[])} twice`,
    })
    .meta({
      type: "array",
      items: { anyOf: [{ type: "string" }, { type: "integer", minimum: 0 }] },
      minItems: 1,
      maxItems: MAX_SELLBACK_BATCH,
      description: "uint256 token ids in plain decimal",
    }),
  "invalid_token_ids",
);
const wallet = walletField("is required: the holder's 0x wallet");
const batch = { token_ids: tokenIds, wallet_address: wallet };

const minTotal = withCode(
  usdcAmount("min_total_usdc must be a non-negative decimal USDC amount with at most 6 places")
    .nullish()
    .transform((v) => v ?? null)
    .describe("Least total payout in USDC (default: the quote less slippage_bps)"),
  "invalid_amount",
);
/** An integer 0 … 10000 as a JSON number or canonical digits; else null. */
const bpsOf = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^(0|[1-9]\d{0,15})$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 0 && n <= 10_000 ? n : null;
};
const slippage = withCode(
  z
    .unknown()
    .refine(
      (v) => v === undefined || v === null || bpsOf(v) !== null,
      "slippage_bps must be an integer between 0 and 10000",
    )
    .transform((v) => (v === undefined || v === null ? 100 : bpsOf(v)!))
    .meta({ type: "integer", minimum: 0, maximum: 10_000, description: "Default 100" }),
  "invalid_amount",
);

/** The amounts of a prepare, checked once the batch is known sellable (a `later` field of its body). */
export const SELLBACK_INPUT = { minTotal, slippage };

const quoteBody = z.object(batch);
const prepareBody = z.object({ ...batch, min_total_usdc: later(minTotal), slippage_bps: later(slippage) });

const submitHash = withCode(
  z
    .unknown()
    .refine((v) => v !== undefined && v !== null && v !== "", "transaction_hash is required")
    .refine((v) => typeof v === "string" && /^0x[0-9a-fA-F]{64}$/.test(v), {
      error: "transaction_hash must be 0x followed by 64 hex characters",
      params: { code: "tx_unverified" } satisfies IssueParams,
    })
    .transform((v) => v as `0x${string}`)
    .meta({ type: "string", pattern: "^0x[0-9a-fA-F]{64}$", description: "0x + 64 hex" }),
  "missing_tx_hash",
);
const claimedWallet = withCode(
  evmAddress()
    .nullish()
    .transform((v) => v ?? null)
    .describe("0x EVM address: must be the on-chain seller when sent"),
  "invalid_wallet_address",
);
// Checked in this order: the hash (transaction_hash, else its alias tx_hash), the end user, the wallet.
const submitBody = z
  .object({
    transaction_hash: later(submitHash),
    tx_hash: later(submitHash.describe("Alias of transaction_hash")),
    external_user_id: later(endUserId),
    wallet_address: later(claimedWallet),
  })
  .transform((b, ctx) => {
    const named = b.transaction_hash != null ? "transaction_hash" : "tx_hash";
    const hash = within(ctx, [named], submitHash, b.transaction_hash ?? b.tx_hash);
    within(ctx, ["external_user_id"], endUserId, b.external_user_id);
    return { hash, claimed: within(ctx, ["wallet_address"], claimedWallet, b.wallet_address) };
  });

const BATCH_400 = [
  "invalid_json",
  "invalid_token_ids",
  "too_many_tokens",
  "invalid_wallet_address",
  "identifier_too_long",
] as const;

// TIER model only: a POOL key is 403 not_tier_partner.
export const SELLBACK = {
  quote: operation({
    id: "sellback.quote",
    method: "POST",
    path: "/mystery/sellback/quote",
    summary: "Which of a holder's cards can be sold back to the pool, and for how much (creates nothing)",
    ...partnerScoped("packs:read", ["TIER"]),
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
    ...partnerScoped("packs:buyback", ["TIER"]),
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
    ...partnerScoped("packs:buyback", ["TIER"]),
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
    ...partnerScoped("packs:read", ["TIER"]),
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
