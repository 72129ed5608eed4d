import { operation, partnerScoped } from "../operation.ts";
import { offsetPageQuery } from "../paging.ts";
import { tokenIdText } from "../input-fields.ts";
import { isShippingProblem, readCarriers, readShippingAddress, ShippingAddressInput } from "../shipping.ts";
import { identifier, later, MAX_IDENTIFIER, withCode, z, type IssueParams } from "../zod.ts";
import { address, isoTime } from "../primitives.ts";

// Physical redemption (docs/mystery.md "Redemption"): quote, prepare, submit
// and the reads, as the official SDK types them (RedemptionShippingQuote,
// RedemptionPrepareResult, RedemptionSubmitResult, Redemption), plus the `kyc`
// object the interface document shows on every redemption. KYC "if required"
// is an emulator switch (off by default, as on the live service): while it is
// pending a redemption is PREPARED with `kyc.status` PENDING, a `kyc_url` and
// no calls yet (docs/decisions.md "Redemption as the live service runs it").

/** The lifecycle: PREPARED → BURN_SUBMITTED → IN_FULFILLMENT → COMPLETED, or FAILED / CANCELLED / EXPIRED. */
export const REDEMPTION_STATUSES = [
  "PREPARED",
  "BURN_SUBMITTED",
  "IN_FULFILLMENT",
  "COMPLETED",
  "FAILED",
  "CANCELLED",
  "EXPIRED",
] as const;
export type RedemptionStatus = (typeof REDEMPTION_STATUSES)[number];
export const RedemptionStatus = z.enum(REDEMPTION_STATUSES);

export const REDEMPTION_ITEM_TYPES = ["CARD", "GRADED_CARD", "PACKET", "SEALED_PRODUCT"] as const;
export const RedemptionItemType = z.enum(REDEMPTION_ITEM_TYPES);

export const KYC_STATUSES = ["NOT_REQUIRED", "PENDING", "APPROVED", "DECLINED"] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

const int = z.number().int();
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const txHash = z.string().regex(TX_HASH);

// --- shapes ------------------------------------------------------------------------------------

/** A shipping rate; the one prepare snapshots is the cheapest. */
export const RedemptionShippingQuote = z.strictObject({
  amount_usdc: z.string().describe("USD, decimal"),
  currency: z.string().describe("USD"),
  carrier: z.string().nullable(),
  service: z.string().nullable(),
  service_token: z.string().nullable().describe("The servicelevel token the warehouse buys the label with"),
  estimated_days: int.nullable(),
  rate_id: z.string().nullable(),
  quoted_at: isoTime,
});
export type RedemptionShippingQuote = z.output<typeof RedemptionShippingQuote>;

/** KYC of the redemption's holder: NOT_REQUIRED unless the partner requires KYC (an emulator switch). */
export const RedemptionKyc = z.strictObject({
  status: z.enum(KYC_STATUSES),
  kyc_url: z.string().nullable().describe("Where to send the end user while the status is PENDING"),
});

export const RedemptionShippingPayment = z.strictObject({
  payer: address.describe("The holder wallet that pays shipping"),
  processor: address.describe("The shipping payment processor contract"),
  total_usdc: z.string(),
  total_micros: z.string().regex(/^\d+$/),
  expiration_time: int.describe("Unix seconds; matches expires_at"),
  provider_order_id: z.string().describe("The fulfilment order this payment settles"),
});

export const REDEMPTION_CALL_KINDS = ["burn", "erc20-approve", "shipping-payment"] as const;
export const RedemptionUnsignedCalls = z.strictObject({
  chain_id: int,
  calls: z
    .array(
      z.strictObject({
        kind: z.enum(REDEMPTION_CALL_KINDS),
        to: address,
        data: z.string().regex(/^0x[0-9a-fA-F]*$/),
        description: z.string(),
      }),
    )
    .describe(
      "In order: burn (flag the token), erc20-approve (USDC to the shipping processor), shipping-payment (payShipping; must follow the burn)",
    ),
});

/** One redemption, as get and list answer it. */
export const Redemption = z.strictObject({
  redemption_id: int,
  purchase_id: int.nullable(),
  token_id: z.string(),
  item_type: RedemptionItemType,
  status: RedemptionStatus,
  kyc: RedemptionKyc,
  burn: z.strictObject({
    db_status: z
      .enum(["PENDING_REDEEM", "REDEEMED"])
      .nullable()
      .describe("The recorded burn; null before a burn is submitted"),
    is_burned: z.boolean().describe("Flips when the item ships"),
    burn_type: int.nullable(),
    burn_type_label: z.string().nullable().describe("e.g. REDEEM_CARD"),
  }),
  queue: z.strictObject({
    status: z.enum(["QUEUED", "PICKING", "SHIPPED"]).nullable().describe("null until the burn is submitted"),
  }),
  order: z.strictObject({
    status: z.enum(["PENDING", "PROCESSING", "SHIPPED"]).nullable(),
    tracking_number: z.string().nullable(),
  }),
  burn_tx_hash: txHash.nullable(),
  shipping_quote: RedemptionShippingQuote.nullable(),
  failure_reason: z.string().nullable(),
  expires_at: isoTime.nullable(),
  created_at: isoTime,
  updated_at: isoTime,
});
export type Redemption = z.output<typeof Redemption>;

/** What prepare answers: the holder's calls and the shipping payment they carry. */
export const RedemptionPrepareResult = z.strictObject({
  redemption_id: int,
  purchase_id: int.nullable(),
  status: RedemptionStatus,
  item_type: RedemptionItemType,
  token_id: z.string(),
  kyc: RedemptionKyc,
  shipping_quote: RedemptionShippingQuote.nullable(),
  shipping_payer: z.literal("end_user"),
  shipping_payment: RedemptionShippingPayment.nullable().describe(
    "The signed shipping quote the holder pays; null while KYC is pending, once paid or ended",
  ),
  expires_at: isoTime.nullable(),
  unsigned: RedemptionUnsignedCalls.nullable().describe(
    "null while KYC is pending and once the redemption moved past PREPARED",
  ),
});
export type RedemptionPrepareResult = z.output<typeof RedemptionPrepareResult>;

const labelField = (what: string) =>
  z
    .string()
    .nullable()
    .optional()
    .describe(
      `${what}: only when the label was bought at submit, which the emulator never does (tracking reaches get and redemption.updated)`,
    );

/** What submit answers (202). */
export const RedemptionSubmitResult = z.strictObject({
  redemption_id: int,
  status: RedemptionStatus,
  burn_tx_hash: txHash,
  tracking_number: labelField("Tracking number"),
  tracking_url: labelField("Tracking URL"),
  label_url: labelField("Label URL"),
  carrier: labelField("Carrier"),
  service: labelField("Service"),
});
export type RedemptionSubmitResult = z.output<typeof RedemptionSubmitResult>;

// --- requests ----------------------------------------------------------------------------------

/** The shipping request of quote and prepare; the rules check the address, then carriers, then the target. */
const shippingRequest = {
  shipping_address: withCode(
    ShippingAddressInput.optional().describe(
      "Where to ship the item (400 missing_shipping_address without it or address)",
    ),
    "invalid_address",
  ),
  address: withCode(ShippingAddressInput.optional().describe("Alias of shipping_address"), "invalid_address"),
  carriers: withCode(
    z.array(z.string()).optional().describe("Carrier tokens to quote (default: all)"),
    "unknown_carrier",
  ),
  purchase_id: int.nullable().optional().describe("The purchase (with token_id when it has several redeemable items)"),
  token_id: z
    .string()
    .nullable()
    .optional()
    .describe("The token: uint256 in plain decimal; alone, a token-first redemption"),
  item_type: withCode(
    RedemptionItemType.nullable()
      .optional()
      .describe("Only to disambiguate a token number (409 ambiguous_token without it, item_type_mismatch when wrong)"),
    "invalid_item_type",
  ),
};

/** Every field of `shape` as sent (`later`), documented as declared: the object's transform checks them in its own order. */
const asSentFields = <S extends z.ZodRawShape>(shape: S) =>
  Object.fromEntries(Object.keys(shape).map((k) => [k, later(shape[k] as z.ZodType)])) as Record<
    keyof S,
    ReturnType<typeof later>
  >;

/** Adds a refused shipping field's issue (its own code) at `path`. */
function refuse(
  ctx: z.RefinementCtx,
  path: PropertyKey[],
  input: unknown,
  code: string,
  message: string,
  details?: Record<string, unknown>,
) {
  ctx.addIssue({
    code: "custom",
    input,
    path,
    message,
    params: { code, ...(details && { details }) } satisfies IssueParams,
  });
}

/** A positive integer id as a JSON number or canonical digits; else null. */
const rowId = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^(0|[1-9]\d{0,15})$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
};
const tooLong = (v: unknown) => (typeof v === "string" || typeof v === "number") && String(v).length > MAX_IDENTIFIER;

/**
 * The shipping request of a quote or prepare, checked in this order: the address (shipping_address, else
 * address), the carriers, then the target (purchase_id's length, item_type). purchase_id and token_id are
 * kept as sent beside what they parse to (null when they name nothing): the rules answer a missing or unknown
 * one, and a replayed prepare compares the token as sent before its length is checked.
 */
export const RedemptionQuoteBody = z.object(asSentFields(shippingRequest)).transform((b, ctx) => {
  const address = readShippingAddress(b.shipping_address ?? b.address, "shipping_address");
  if (isShippingProblem(address)) {
    const fields = address.fields;
    const details = fields ? { field: fields[0], fields } : undefined;
    refuse(ctx, ["shipping_address"], b, address.code, address.message, details);
    return z.NEVER;
  }
  const carriers = readCarriers(b.carriers);
  if (isShippingProblem(carriers)) {
    refuse(ctx, ["carriers"], b.carriers, carriers.code, carriers.message, carriers.details);
    return z.NEVER;
  }
  if (tooLong(b.purchase_id)) {
    refuse(
      ctx,
      ["purchase_id"],
      b.purchase_id,
      "identifier_too_long",
      `is ${String(b.purchase_id).length} characters; identifiers are at most ${MAX_IDENTIFIER}`,
    );
    return z.NEVER;
  }
  const t = b.item_type;
  if (t !== undefined && t !== null && !RedemptionItemType.safeParse(t).success) {
    refuse(
      ctx,
      ["item_type"],
      t,
      "invalid_item_type",
      `item_type must be one of ${RedemptionItemType.options.join(", ")}`,
    );
    return z.NEVER;
  }
  const purchase =
    b.purchase_id === undefined || b.purchase_id === null ? null : { raw: b.purchase_id, id: rowId(b.purchase_id) };
  const token =
    b.token_id === undefined || b.token_id === null || b.token_id === ""
      ? null
      : { raw: b.token_id, id: tokenIdText(b.token_id) };
  return {
    address,
    carriers,
    target: { purchase, token, itemType: (t ?? null) as z.output<typeof RedemptionItemType> | null },
  };
});

const idempotencyKeyField = withCode(
  z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe("Idempotency key (else the Idempotency-Key header; one of them is required)"),
  "invalid_idempotency_key",
);
const shippingPayer = withCode(
  z
    .literal("end_user", { error: 'shipping_payer must be "end_user": the holder pays shipping on chain' })
    .nullable()
    .optional()
    .describe('Who pays shipping: only "end_user"'),
  "invalid_shipping_payer",
);
/** Prepare: every field as sent; the server checks the idempotency key (body or header) first, then REDEMPTION_INPUT. */
export const RedemptionPrepareBody = z.object(
  asSentFields({ idempotency_key: idempotencyKeyField, shipping_payer: shippingPayer, ...shippingRequest }),
);

/** What a prepare checks after its idempotency key, in this order. */
export const REDEMPTION_INPUT = { shippingPayer, shipping: RedemptionQuoteBody };

/** Submit: redemption_id's length first, then the hash (tx_hash, else transaction_hash); the rules answer an unknown id. */
export const RedemptionSubmitBody = z
  .object(
    asSentFields({
      redemption_id: int.optional().describe("The redemption (404 not_found when absent or unknown)"),
      tx_hash: txHash
        .optional()
        .describe("The holder's burn (initiateBurn) or shipping payment (payShipping) transaction: 0x + 64 hex"),
      transaction_hash: txHash.optional().describe("Alias of tx_hash"),
    }),
  )
  .transform((b, ctx) => {
    if (tooLong(b.redemption_id)) {
      refuse(
        ctx,
        ["redemption_id"],
        b.redemption_id,
        "identifier_too_long",
        `is ${String(b.redemption_id).length} characters; identifiers are at most ${MAX_IDENTIFIER}`,
      );
      return z.NEVER;
    }
    const hash = b.tx_hash ?? b.transaction_hash;
    if (typeof hash !== "string" || !TX_HASH.test(hash)) {
      refuse(
        ctx,
        [b.tx_hash != null ? "tx_hash" : "transaction_hash"],
        hash,
        "invalid_tx_hash",
        "tx_hash must be 0x followed by 64 hex characters",
      );
      return z.NEVER;
    }
    return { id: rowId(b.redemption_id), label: String(b.redemption_id ?? ""), hash: hash as `0x${string}` };
  });

const verify = withCode(
  z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => v === "true" || v === "1")
    .describe(
      "true: reconcile each row with the chain first (burn state, shipping payment, a burn flagged but not submitted)",
    ),
  "invalid_value",
);

const statusFilter = withCode(
  z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(RedemptionStatus)
    .optional()
    .meta({ enum: [...REDEMPTION_STATUSES], description: `Only redemptions in this status (any case)` }),
  "invalid_status",
);

// --- operations --------------------------------------------------------------------------------

const ADDRESS_400 = ["missing_shipping_address", "invalid_address", "phone_required", "unknown_carrier"] as const;
const TARGET_400 = [
  "identifier_too_long",
  "purchase_or_token_required",
  "token_required",
  "unsupported_item",
  "invalid_item_type",
] as const;
const TARGET_409 = [
  "invalid_token_id",
  "not_fulfilled",
  "no_items",
  "no_holder",
  "ambiguous_token",
  "item_type_mismatch",
] as const;
const targetNotFound = {
  description: "No such purchase or token on this account",
  codes: ["not_found", "token_not_found"],
} as const;

const redeem = partnerScoped("cards:redeem");
const read = partnerScoped("packs:read");
const list = z.strictObject({ redemptions: z.array(Redemption) });

export const REDEMPTION = {
  quote: operation({
    id: "redemption.quote",
    method: "POST",
    path: "/mystery/redemption/quote",
    summary: "Price shipping an item to an address before redeeming it (creates nothing)",
    ...redeem,
    schema: {
      body: RedemptionQuoteBody,
      responses: {
        200: {
          description: "The shipping rates for redeeming the item, cheapest first",
          data: z.strictObject({
            purchase_id: int,
            token_id: z.string(),
            item_type: RedemptionItemType,
            shipping_quote: RedemptionShippingQuote,
            rates: z.array(RedemptionShippingQuote),
          }),
        },
        400: { description: "Invalid address, carriers or target", codes: [...ADDRESS_400, ...TARGET_400] },
        404: targetNotFound,
        409: { description: "The item cannot be redeemed", codes: TARGET_409 },
      },
    },
  }),
  prepare: operation({
    id: "redemption.prepare",
    method: "POST",
    path: "/mystery/redemption/prepare",
    summary: "Open a redemption: snapshot the cheapest rate and return the calls the holder signs",
    ...redeem,
    idempotencyKey: "optional",
    schema: {
      body: RedemptionPrepareBody,
      responses: {
        201: {
          description:
            "The redemption opened (or the one opened with this key): PREPARED with the holder's calls and the shipping payment (with KYC pending: the kyc_url and no calls yet)",
          data: RedemptionPrepareResult,
        },
        400: {
          description: "Missing or invalid idempotency key, shipping payer, address, carriers or target",
          codes: [
            "missing_idempotency_key",
            "invalid_idempotency_key",
            "invalid_shipping_payer",
            ...ADDRESS_400,
            ...TARGET_400,
          ],
        },
        404: targetNotFound,
        409: {
          description: "The key was used for another item, the redemption expired, or the item cannot be redeemed",
          codes: [
            "idempotency_mismatch",
            "redemption_expired",
            "redemption_exists",
            "not_burnable",
            "not_owner",
            ...TARGET_409,
          ],
        },
        503: {
          description: "The shipping quote signer is unavailable (retryable; retry with the same key)",
          codes: ["shipping_signer_unavailable"],
        },
      },
    },
  }),
  submit: operation({
    id: "redemption.submit",
    method: "POST",
    path: "/mystery/redemption/submit",
    summary: "Record the burn transaction the holder sent (PREPARED → BURN_SUBMITTED)",
    ...redeem,
    schema: {
      body: RedemptionSubmitBody,
      responses: {
        202: {
          description:
            "The burn is recorded: BURN_SUBMITTED (the item ships once the shipping payment is on chain); the same hash again answers the redemption as it is",
          data: RedemptionSubmitResult,
        },
        400: {
          description: "Invalid id or transaction hash, or the transaction is not this burn",
          codes: ["identifier_too_long", "invalid_tx_hash"],
        },
        404: { description: "No such redemption on this account", codes: ["not_found"] },
        409: {
          description: "Not PREPARED, KYC pending, or the hash is another redemption's",
          codes: ["invalid_status", "kyc_required", "tx_already_recorded"],
        },
      },
    },
  }),
  get: operation({
    id: "redemption.get",
    method: "GET",
    path: "/mystery/redemption/:purchase_id",
    summary: "The redemptions of a purchase or a token, newest first",
    ...read,
    schema: {
      params: z.object({ purchase_id: identifier().describe("A purchase id of this account, or else a token id") }),
      query: z.object({ verify }),
      responses: {
        200: { description: "The redemptions of the purchase (or token), newest first", data: list },
        400: { description: "Id too long, or verify not a boolean", codes: ["identifier_too_long", "invalid_value"] },
        404: { description: "No redemption for it", codes: ["not_found"] },
      },
    },
  }),
  list: operation({
    id: "redemption.list",
    method: "GET",
    path: "/mystery/redemptions",
    summary: "The account's redemptions, newest first",
    ...read,
    schema: {
      // status is read first (before the paging).
      query: z.object({ status: statusFilter, ...offsetPageQuery() }),
      responses: {
        200: { description: "The account's redemptions, newest first", data: list },
        400: { description: "Invalid status or paging", codes: ["invalid_status", "invalid_pagination"] },
      },
    },
  }),
};
