import { offsetPageQuery } from "./paging.ts";
import { operation, partnerScoped } from "./operation.ts";
import { endUserFilters, evmAddress, purchaseByIdErrors, purchasePath, usdcAmount } from "./input-fields.ts";
import { identifier, withCode, z, type IssueParams } from "./zod.ts";
import { address, hex, isoTime, micros, usdcString } from "./primitives.ts";

// /api/v1/instant/* (docs/instant.md): packs bought and opened in one
// transaction. Each field names its 400 code; the rules that need the chain
// (unknown packet type, stock, price, the receipt) are the server's.

/** Instant purchase statuses (no PARTIALLY_FULFILLED: a bundle is delivered whole). */
export const INSTANT_STATUSES = [
  "PENDING",
  "RESERVED",
  "SUBMITTING",
  "SUBMITTED",
  "FULFILLED",
  "REFUNDED",
  "FAILED",
] as const;
export type InstantStatus = (typeof INSTANT_STATUSES)[number];

/** One purchasable packet type with its live price and stock. */
export const InstantCatalogItem = z.strictObject({
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
export type InstantCatalogItem = z.output<typeof InstantCatalogItem>;

/** The delivered (already opened) pack. */
export const InstantPack = z.strictObject({
  unique_id: z.string(),
  set_id: z.string(),
  name: z.string(),
  image_url: z.string().nullable(),
  opened_at: isoTime.nullable(),
});
export type InstantPack = z.output<typeof InstantPack>;

/** One delivered card; every field but token_id is null for a token the catalog has not indexed. */
export const InstantCard = z.strictObject({
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
export type InstantCard = z.output<typeof InstantCard>;

/** An instant purchase; `pack` and `cards` once FULFILLED. */
export const InstantPurchase = z.strictObject({
  id: z.number().int(),
  memo: z.string().optional().describe("`<partner-slug>-instant-<id>`"),
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
  pack: InstantPack.nullable().optional(),
  cards: z.array(InstantCard).optional(),
});
export type InstantPurchase = z.output<typeof InstantPurchase>;

/** The approve and purchaseInstantOpenFor calls, in that order (position decides; no `kind`). */
export const InstantPrepare = z.strictObject({
  chain_id: z.number().int(),
  payment_token: address,
  contract: address,
  packet_type_id: z.number().int(),
  price: micros,
  price_usdc: usdcString,
  calls: z.array(z.strictObject({ to: address, data: hex, description: z.string() })).length(2),
});
export type InstantPrepare = z.output<typeof InstantPrepare>;

// --- requests -----------------------------------------------------------------------

const packetTypeId = withCode(
  z.union(
    [
      z
        .number()
        .int()
        .min(1)
        .max(2 ** 32 - 1),
      z
        .string()
        .regex(/^[1-9]\d{0,9}$/)
        .transform(Number),
    ],
    { error: "must be the numeric packet_type_id of an instant pack (GET /instant/catalog)" },
  ),
  "invalid_packet_type",
);
const wallet = withCode(
  evmAddress("is required: the user's own 0x wallet (it signs, pays and receives)"),
  "invalid_wallet_address",
);
const maxPrice = withCode(
  usdcAmount('must be a non-negative decimal USDC amount with at most 6 places, such as "25.00"')
    .nullish()
    .transform((v) => v ?? null)
    .describe('Decimal USDC with at most 6 places ("25.00"); default: the live price'),
  "invalid_amount",
);
const txHash = withCode(
  z
    .string({ error: "is required: the mined buy-and-open transaction" })
    .min(1, "is required: the mined buy-and-open transaction")
    .refine((v) => /^0x[0-9a-fA-F]{64}$/.test(v), {
      error: "must be 0x followed by 64 hex characters; no such transaction can be verified",
      params: { code: "tx_unverified" } satisfies IssueParams,
    })
    .transform((v) => v as `0x${string}`),
  "missing_tx_hash",
);

const prepareBody = z.object({ packet_type_id: packetTypeId, wallet_address: wallet, max_price_usdc: maxPrice });
const submitBody = z.object({
  packet_type_id: packetTypeId,
  transaction_hash: txHash,
  request_id: withCode(identifier(z.string()).or(z.number().int().transform(String)).nullish(), "invalid_value"),
  external_user_id: withCode(identifier(z.string()).nullish(), "invalid_value"),
  wallet_address: wallet.nullish(),
});

const disabled = {
  description: "An operator has instant packs off (retryable; Retry-After)",
  codes: ["instant_disabled"],
} as const;

export const INSTANT = {
  catalog: operation({
    id: "instant.catalog",
    method: "GET",
    path: "/instant/catalog",
    summary: "Instant packs with their live price and stock",
    ...partnerScoped("read:catalog"),
    schema: {
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
        200: {
          description: "Instant packs with live price and stock (sold-out ones only with include_unavailable=1)",
          data: z.strictObject({ packs: z.array(InstantCatalogItem) }),
        },
        400: { description: "Invalid filter or paging", codes: ["invalid_value", "invalid_pagination"] },
      },
    },
  }),
  prepare: operation({
    id: "instant.prepare",
    method: "POST",
    path: "/instant/purchase/prepare",
    summary: "The approve and buy-and-open calls the end user sends from their own wallet (creates nothing)",
    ...partnerScoped("packs:purchase"),
    schema: {
      body: prepareBody,
      responses: {
        200: { description: "The approve and purchaseInstantOpenFor calls (creates nothing)", data: InstantPrepare },
        400: {
          description: "Invalid input",
          codes: ["invalid_json", "invalid_packet_type", "invalid_wallet_address", "invalid_amount"],
        },
        409: {
          description: "Sold out, or the pack costs more than max_price_usdc",
          codes: ["sold_out", "max_price_exceeded"],
        },
        503: disabled,
      },
    },
  }),
  submit: operation({
    id: "instant.submit",
    method: "POST",
    path: "/instant/purchase/submit",
    summary: "Record the mined buy-and-open transaction; the pack is opened by the VRF draw",
    ...partnerScoped("packs:purchase"),
    schema: {
      body: submitBody,
      responses: {
        202: {
          description: "The recorded purchase (SUBMITTED; FULFILLED once the VRF draw opened the pack)",
          data: InstantPurchase,
        },
        400: {
          description: "Invalid input or transaction",
          codes: [
            "invalid_json",
            "invalid_packet_type",
            "missing_tx_hash",
            "invalid_wallet_address",
            "invalid_value",
            "identifier_too_long",
            "tx_unverified",
            "tx_reverted",
            "packet_type_mismatch",
            "purchaser_mismatch",
          ],
        },
        409: { description: "The transaction is recorded for another partner", codes: ["tx_already_recorded"] },
        503: disabled,
      },
    },
  }),
  getPurchase: operation({
    id: "instant.getPurchase",
    method: "GET",
    path: "/instant/purchase/:id",
    summary: "One instant purchase, with its pack and cards once FULFILLED",
    ...partnerScoped("packs:read"),
    schema: {
      params: purchasePath(),
      responses: {
        200: { description: "The purchase (pack and cards once FULFILLED)", data: InstantPurchase },
        ...purchaseByIdErrors("instant purchase"),
      },
    },
  }),
  listPurchases: operation({
    id: "instant.listPurchases",
    method: "GET",
    path: "/instant/purchases",
    summary: "The account's instant purchases, newest first, by status or end user",
    ...partnerScoped("packs:read"),
    schema: {
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
        ...endUserFilters(),
        ...offsetPageQuery(),
      }),
      responses: {
        200: {
          description: "The account's instant purchases, newest first",
          data: z.strictObject({ purchases: z.array(InstantPurchase) }),
        },
        400: {
          description: "Invalid filter or paging",
          codes: ["invalid_status", "invalid_pagination", "identifier_too_long"],
        },
      },
    },
  }),
};
