import { offsetPageQuery } from "../paging.ts";
import { operation } from "../operation.ts";
import { identifier, withCode, z } from "../zod.ts";
import { RevealItem } from "./items.ts";
import { address, hex, isoTime, micros, txHash as anyTxHash, usdcString } from "../primitives.ts";

// Mystery-pack purchases (docs/mystery.md): custodial purchase, non-custodial
// prepare/submit, reads. The schemas declare what the wire takes; the
// emulator checks the body fields after the tier lookup, in its own order
// (emulator/areas/mystery/purchases/parse.ts).

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

const tierId = withCode(
  z
    .union([z.number().int().min(1), z.string().regex(/^[1-9]\d{0,15}$/)])
    .describe("The tier's numeric id (GET /mystery/catalog)"),
  "invalid_tier",
);
const wallet = withCode(address.describe("0x EVM address (EIP-55 checksum when mixed-case)"), "invalid_wallet_address");
const maxPrice = withCode(
  z
    .union([z.string().regex(/^(0|[1-9]\d{0,17})(\.\d{1,6})?$/), z.number().nonnegative()])
    .nullish()
    .describe('Decimal USDC with at most 6 places ("25.00"); default: the tier\'s price'),
  "invalid_amount",
);
const txHash = anyTxHash.describe("0x + 64 hex: the mined purchase transaction");
const endUser = withCode(identifier().nullish(), "invalid_value");

const prepareBody = z.object({ tier_id: tierId, wallet_address: wallet, max_price_usdc: maxPrice });
const submitBody = z.object({
  tier_id: tierId,
  transaction_hash: withCode(txHash.optional(), "invalid_tx_hash"),
  tx_hash: withCode(txHash.describe("Alias of transaction_hash").optional(), "invalid_tx_hash"),
  wallet_address: wallet.optional().describe("The wallet that bought; with external_user_id, at least one"),
  external_user_id: endUser,
  request_id: withCode(z.union([identifier(), z.number().int()]).nullish(), "invalid_value"),
});
const purchaseBody = z.object({
  tier_id: tierId,
  quantity: withCode(z.literal(1).optional().describe("Always 1: one pack per call"), "unsupported_quantity"),
  external_user_id: endUser,
  wallet_address: wallet.nullish(),
  max_price_usdc: maxPrice,
});

const purchaseId = z.object({ id: identifier().describe("The purchase id") });
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

const access = (scope: string) => ({ kinds: ["partner"], scopes: [scope] }) as const;
const common = { envelope: "partner" } as const;

export const PURCHASES = {
  prepare: operation({
    id: "gacha.prepare",
    method: "POST",
    path: "/mystery/purchase/prepare",
    summary: "The approve and purchase calls the end user sends from their own wallet (creates nothing)",
    access: access("packs:purchase"),
    ...common,
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
    access: access("packs:purchase"),
    ...common,
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
    access: access("packs:purchase"),
    ...common,
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
    access: access("packs:read"),
    ...common,
    schema: {
      params: purchaseId,
      responses: {
        200: { description: "The purchase", data: Purchase },
        400: { description: "Identifier too long", codes: ["identifier_too_long"] },
        404: { description: "No such purchase on this account", codes: ["not_found"] },
      },
    },
  }),
  listPurchases: operation({
    id: "gacha.listPurchases",
    method: "GET",
    path: "/mystery/purchases",
    summary: "The account's purchases, newest first, by status or end user",
    access: access("packs:read"),
    ...common,
    schema: {
      query: z.object({
        status: statusFilter,
        ...offsetPageQuery(),
        external_user_id: identifier()
          .optional()
          .transform((v) => v ?? null),
        wallet_address: z
          .string()
          .optional()
          .transform((v) => v?.toLowerCase() ?? null),
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
