import { offsetPageQuery } from "../paging.ts";
import { operation, partnerScoped } from "../operation.ts";
import { endUserFilters, purchaseByIdErrors, purchasePath, usdcAmount } from "../input-fields.ts";
import { identifier, later, MAX_IDENTIFIER, withCode, within, z, type IssueParams } from "../zod.ts";
import { endUserId, endUserWallet, namesUser, userOf, walletField } from "./fields.ts";
import { RevealItem } from "./items.ts";
import { address, hex, isoTime, micros, usdcString } from "../primitives.ts";

// Mystery-pack purchases (docs/mystery.md): custodial purchase, non-custodial
// prepare/submit, reads. tier_id is checked with the body; the server then
// looks the tier up and checks the other fields (`later`) by PURCHASE_INPUT,
// in the order given there.

/** Every status a purchase can have (docs/mystery.md "Custodial purchase lifecycle"). */
export const PURCHASE_STATUSES = [
  "PENDING",
  "RESERVED",
  "SUBMITTING",
  "SUBMITTED",
  "FULFILLED",
  "PARTIALLY_FULFILLED",
  "REFUNDED",
  "FAILED",
] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

export const PURCHASE_CUSTODY = ["CUSTODIAL", "NON_CUSTODIAL"] as const;

/** What an unsigned call does: clients dispatch on it (an approve goes as its own userop). */
export const UNSIGNED_CALL_KINDS = [
  "erc20-approve",
  "purchase",
  "set-approval-for-all",
  "sellback",
  "burn",
  "shipping-payment",
] as const;

/** A pack purchase; `items` once the reveal settled (FULFILLED / PARTIALLY_FULFILLED). */
export const Purchase = z.strictObject({
  id: z.number().int(),
  memo: z.string().optional().describe("`{partner-slug}-{id}`; absent when the partner has no slug"),
  status: z.enum(PURCHASE_STATUSES),
  custody: z.enum(PURCHASE_CUSTODY),
  tier_id: z.number().int(),
  quantity: z.literal(1),
  price: micros,
  price_usdc: usdcString,
  volume_usdc: usdcString,
  onchain_request_id: z.string().nullable(),
  transaction_hash: hex.nullable(),
  purchaser_address: address.nullable(),
  external_user_id: z
    .string()
    .nullable()
    .describe("The end user's id as the partner sent it; null for a wallet-only user"),
  failure_reason: z.string().nullable(),
  reserved_at: isoTime.nullable(),
  submitted_at: isoTime.nullable(),
  fulfilled_at: isoTime.nullable(),
  created_at: isoTime,
  items: z.array(RevealItem).optional(),
});
export type Purchase = z.output<typeof Purchase>;

/** One unsigned transaction for the end user's wallet to send, in order. */
export const PurchaseCall = z.strictObject({
  kind: z.enum(UNSIGNED_CALL_KINDS),
  to: address,
  data: hex,
  value: z.literal("0"),
  description: z.string(),
});
export type PurchaseCall = z.output<typeof PurchaseCall>;

/** The approve and purchase calls of a non-custodial purchase. */
export const PurchasePrepare = z.strictObject({
  chain_id: z.number().int(),
  contract: address,
  payment_token: address,
  wallet_address: address,
  tier_id: z.number().int(),
  max_price: micros,
  max_price_usdc: usdcString,
  calls: z.array(PurchaseCall),
});
export type PurchasePrepare = z.output<typeof PurchasePrepare>;

// --- requests -----------------------------------------------------------------------

const TIER_RULE = "must be the numeric id of a tier (see GET /mystery/catalog)";
/** A tier id as a JSON number or canonical digits, 1 … 2^53 − 1; else null. */
const tierNumber = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^[1-9]\d{0,15}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
};
/** A tier id (a numeric string is accepted): over 255 characters identifier_too_long, anything else not a tier invalid_tier. */
export const tierIdField = withCode(
  z
    .union([z.number(), z.string()], { error: TIER_RULE })
    .refine((v) => String(v).length <= MAX_IDENTIFIER, {
      error: (iss) => `is ${String(iss.input).length} characters; identifiers are at most ${MAX_IDENTIFIER}`,
      params: { code: "identifier_too_long" } satisfies IssueParams,
    })
    .refine((v) => tierNumber(v) !== null, TIER_RULE)
    .transform((v) => tierNumber(v)!)
    .describe("The tier's numeric id (GET /mystery/catalog)"),
  "invalid_tier",
);
const wallet = walletField("is required: the end user's own 0x wallet (it approves and pays)");
const maxPrice = withCode(
  usdcAmount('must be a non-negative decimal USDC amount with at most 6 places, such as "25.00"')
    .nullish()
    .transform((v) => v ?? null)
    .describe('Decimal USDC with at most 6 places ("25.00"); default: the tier\'s price'),
  "invalid_amount",
);
const txHash = withCode(
  z
    .unknown()
    .refine(
      (v) => v !== undefined && v !== null && v !== "",
      "is required (submit after the purchase transaction is mined)",
    )
    .refine((v) => typeof v === "string" && /^0x[0-9a-fA-F]{64}$/.test(v), {
      error: "must be 0x followed by 64 hex characters",
      params: { code: "invalid_tx_hash" } satisfies IssueParams,
    })
    .transform((v) => v as `0x${string}`)
    .meta({
      type: "string",
      pattern: "^0x[0-9a-fA-F]{64}$",
      description: "0x + 64 hex: the mined purchase transaction",
    }),
  "missing_tx_hash",
);
const quantity = withCode(
  z
    .literal(1, { error: "quantity is fixed at 1 (one pack per call)" })
    .optional()
    .describe("Always 1: one pack per call"),
  "unsupported_quantity",
);
const requestId = withCode(
  z
    .union([identifier(), z.number().int().transform(String)])
    .nullish()
    .transform((v) => v ?? null),
  "invalid_value",
);

/** What a submit names after its tier: the hash (transaction_hash, else tx_hash), the buyer's wallet, the end user, the request id, in that order. */
const submitRest = z
  .object({
    transaction_hash: later(txHash),
    tx_hash: later(txHash.describe("Alias of transaction_hash")),
    wallet_address: later(endUserWallet.describe("The wallet that bought; with external_user_id, at least one")),
    external_user_id: later(endUserId),
    request_id: later(requestId),
  })
  .transform((b, ctx) => {
    const named = b.transaction_hash != null ? "transaction_hash" : "tx_hash";
    const hash = within(ctx, [named], txHash, b.transaction_hash ?? b.tx_hash);
    const who = {
      wallet_address: within(ctx, ["wallet_address"], endUserWallet, b.wallet_address),
      external_user_id: within(ctx, ["external_user_id"], endUserId, b.external_user_id),
    };
    // Either is enough (without a wallet the receipt's buyer is the purchaser).
    if (!ctx.issues.length && !namesUser(who))
      ctx.addIssue({
        code: "custom",
        input: b,
        message: "Send wallet_address (the wallet that bought) and/or external_user_id",
        params: { code: "missing_user_identifier" } satisfies IssueParams,
      });
    const request_id = within(ctx, ["request_id"], requestId, b.request_id);
    return { hash, wallet: who.wallet_address, external_user_id: who.external_user_id, request_id };
  });

/**
 * The body fields a purchase route checks only after its tier is known (a `later` field of its body), with
 * the rule each is checked by.
 */
export const PURCHASE_INPUT = {
  wallet,
  maxPrice,
  quantity,
  buyer: userOf("Send external_user_id and/or wallet_address to say which end user buys"),
  submitRest,
};

// tier_id is checked first; the tier is then looked up, and the other fields checked after it (PURCHASE_INPUT).
const prepareBody = z.object({ tier_id: tierIdField, wallet_address: later(wallet), max_price_usdc: later(maxPrice) });
const submitBody = z.object({ tier_id: tierIdField, ...submitRest.in.shape });
const purchaseBody = z.object({
  tier_id: tierIdField,
  quantity: later(quantity),
  external_user_id: later(endUserId),
  wallet_address: later(endUserWallet),
  max_price_usdc: later(maxPrice),
});

/** A status filter, case-insensitive. */
const statusFilter = withCode(
  z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(PURCHASE_STATUSES, { error: `must be one of ${PURCHASE_STATUSES.join(", ")}` }))
    .optional()
    .transform((v) => v ?? null),
  "invalid_status",
);

export const PURCHASES = {
  prepare: operation({
    id: "gacha.prepare",
    method: "POST",
    path: "/mystery/purchase/prepare",
    summary: "The approve and purchase calls the end user sends from their own wallet (creates nothing)",
    ...partnerScoped("packs:purchase"),
    schema: {
      body: prepareBody,
      responses: {
        200: { description: "The approve and purchase calls", data: PurchasePrepare },
        400: {
          description: "Invalid input",
          codes: ["invalid_json", "invalid_tier", "invalid_wallet_address", "invalid_amount", "identifier_too_long"],
        },
        409: { description: "The tier costs more than max_price_usdc", codes: ["max_price_exceeded"] },
      },
    },
  }),
  submit: operation({
    id: "gacha.submit",
    method: "POST",
    path: "/mystery/purchase/submit",
    summary: "Record the mined purchase transaction the end user sent, to link its reveal",
    ...partnerScoped("packs:purchase"),
    schema: {
      body: submitBody,
      responses: {
        202: { description: "The recorded purchase", data: Purchase },
        400: {
          description: "Invalid input or transaction",
          codes: [
            "invalid_json",
            "invalid_tier",
            "missing_tx_hash",
            "invalid_tx_hash",
            "invalid_wallet_address",
            "missing_user_identifier",
            "invalid_value",
            "identifier_too_long",
            "tx_unverified",
            "tx_reverted",
            "purchaser_mismatch",
          ],
        },
        409: { description: "The transaction is recorded for another partner", codes: ["tx_already_recorded"] },
      },
    },
  }),
  purchase: operation({
    id: "gacha.purchase",
    method: "POST",
    path: "/mystery/purchase",
    summary: "Buy one pack from the end user's custodial balance; the reveal follows asynchronously",
    ...partnerScoped("packs:purchase"),
    idempotencyKey: "required",
    schema: {
      body: purchaseBody,
      responses: {
        202: {
          description:
            "The custodial purchase: RESERVED with the price held and on-chain fields null (then SUBMITTING → SUBMITTED → FULFILLED on the clock)",
          data: Purchase,
        },
        400: {
          description: "Invalid input",
          codes: [
            "invalid_json",
            "missing_idempotency_key",
            "invalid_tier",
            "unsupported_quantity",
            "missing_user_identifier",
            "invalid_wallet_address",
            "invalid_value",
            "invalid_amount",
            "identifier_too_long",
          ],
        },
        402: { description: "The end user's balance does not cover the price", codes: ["insufficient_funds"] },
        409: {
          description: "Price above max_price_usdc, or an Idempotency-Key reused with another body",
          codes: ["max_price_exceeded", "idempotency_mismatch"],
        },
        503: {
          description: "An operator has the relayer off (retryable; Retry-After); nothing is held",
          codes: ["relayer_disabled"],
        },
      },
    },
  }),
  getPurchase: operation({
    id: "gacha.getPurchase",
    method: "GET",
    path: "/mystery/purchase/:id",
    summary: "One purchase: status, on-chain linkage and the revealed items once settled",
    ...partnerScoped("packs:read"),
    schema: {
      params: purchasePath(),
      responses: {
        200: { description: "The purchase", data: Purchase },
        ...purchaseByIdErrors("purchase"),
      },
    },
  }),
  listPurchases: operation({
    id: "gacha.listPurchases",
    method: "GET",
    path: "/mystery/purchases",
    summary: "The account's purchases, newest first, by status or end user",
    ...partnerScoped("packs:read"),
    schema: {
      query: z.object({
        status: statusFilter,
        ...offsetPageQuery(),
        ...endUserFilters(),
      }),
      responses: {
        200: { description: "The account's purchases", data: z.strictObject({ purchases: z.array(Purchase) }) },
        400: {
          description: "Invalid filter or paging",
          codes: ["invalid_status", "invalid_pagination", "identifier_too_long"],
        },
      },
    },
  }),
};
