import { operation } from "./operation.ts";
import { withCode, z } from "./zod.ts";
import { isoTime as instant, txHash } from "./primitives.ts";

// What /api/v1/credits/topup and /api/v1/account/usage take and answer
// (docs/credits.md: the credit account and the x402 top-up). The x402
// exchange itself (challenge, verify, settle) is a rule of topup.ts: the
// schemas check the amount and describe the answers.

export const CREDITS_PER_USD = 500;
export const MIN_USD = 5;
export const MAX_USD = 1000;
const ATOMIC_PER_CENT = 10_000n; // the stablecoin has 6 decimals

const USD_RULE = `a number of dollars from ${MIN_USD} to ${MAX_USD} with at most 2 decimals`;
const got = (input: unknown) => `must be ${USD_RULE}, got ${JSON.stringify(input)}`;

/** Whole cents of a checked decimal text ("19.9" → 1990), exactly: no float on the way. */
const centsOf = (text: string): number => {
  const [whole, frac = ""] = text.split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
};

/** `usd` is a decimal with at most 2 places (so credits stay whole), from 5 to 1000. */
const usd = withCode(
  z
    .string({ error: `is required: ${USD_RULE}` })
    .trim()
    .regex(/^\d{1,7}(\.\d{1,2})?$/, { error: (iss) => got(iss.input) })
    .transform(centsOf)
    .refine((cents) => cents >= MIN_USD * 100 && cents <= MAX_USD * 100, {
      error: (iss) => got((iss.input as number) / 100),
    })
    .transform((cents) => ({
      usd: cents / 100,
      cents,
      credits: (cents * CREDITS_PER_USD) / 100,
      atomic: BigInt(cents) * ATOMIC_PER_CENT,
    }))
    .describe(`Dollars to top up: ${USD_RULE} (500 credits per USD).`),
  "invalid_amount",
);

export const topupQuery = z.object({ usd });
/** A checked top-up amount: dollars, cents, credits granted and stablecoin atomic units. */
export type Amount = z.output<typeof usd>;

const int = z.number().int();
const count = int.nonnegative();

export const topupResultSchema = z.object({
  credits_granted: count,
  balance_credits: count,
  usd: z.number(),
  tx_hash: txHash,
});
export type TopupResultWire = z.output<typeof topupResultSchema>;

// x402 v2 PaymentRequired, as @x402/core builds it (its own zod 3 schemas cannot be mixed in).
const paymentRequirements = z.object({
  scheme: z.string(),
  network: z.string(),
  amount: z.string().describe("Stablecoin atomic units (6 decimals)"),
  asset: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
const paymentRequired = z.object({
  x402Version: z.number().int().describe("The x402 protocol version: 2"),
  error: z.string().optional(),
  resource: z.object({ url: z.string(), description: z.string().optional(), mimeType: z.string().optional() }),
  accepts: z.array(paymentRequirements).min(1),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

/** `details` of the top-up's 402: what x402 says (payment required, or why a payment was refused). */
export const x402DetailsSchema = z.union([
  z.object({ x402_error: z.literal("payment_required"), payment_required: paymentRequired }),
  z.object({
    x402_error: z.literal("payment_invalid"),
    reason: z.string().describe("The x402 reason"),
    payment_required: paymentRequired,
  }),
  z.object({
    x402_error: z.literal("payment_invalid"),
    reason: z.literal("invalid_exact_evm_transfer_event_mismatch"),
    tx_hash: z.string(),
  }),
]);
export type X402Details = z.output<typeof x402DetailsSchema>;

const planSchema = z.object({
  name: z.string(),
  included_credits_per_month: count,
  rate_limit_per_min: count,
  status: z.enum(["available", "coming_soon"]),
  available: z.boolean(),
});

export const usageSchema = z.object({
  balance: count,
  free_credits: count,
  purchased_credits: count,
  plan: z.string(),
  plans: z.array(planSchema),
  month_to_date_usage: count,
  month_to_date_requests: count,
  period: z.object({ month: z.string().regex(/^\d{4}-\d{2}$/), start: instant, end: instant }),
  free_credits_monthly: count,
  free_credits_reset_at: instant,
  rate_limit: z.object({ limit_per_min: int.positive(), window_seconds: int.positive() }),
  metering: z.literal("metered"),
});
export type UsageWire = z.output<typeof usageSchema>;
export type PlanWire = z.output<typeof planSchema>;

/** Partner keys, whatever their scopes: the credit balance belongs to the key. Tenant keys never spend credits; legacy keys are unmetered. */
const METERED = { kinds: ["partner"] } as const;

export const CREDITS = {
  topup: operation({
    id: "credits.topup",
    method: "POST",
    path: "/credits/topup",
    summary: "Buy credits with the stablecoin over x402 (500 credits per USD)",
    access: METERED,
    envelope: "partner",
    schema: {
      query: topupQuery,
      responses: {
        200: {
          description:
            "Settled (or a replay of a settled payment: Idempotent-Replayed); PAYMENT-RESPONSE carries the x402 SettleResponse",
          data: topupResultSchema,
        },
        400: { description: "usd missing, outside 5..1000 or with more than 2 decimals", codes: ["invalid_amount"] },
        402: {
          description:
            "The x402 challenge (no payment header) or a refused payment: PAYMENT-REQUIRED carries the base64 PaymentRequired; the body also has the x402 v1 form (x402Version 1, accepts[])",
          codes: ["insufficient_credits"],
          details: x402DetailsSchema,
        },
        503: { description: "The emulator runs without its chain", codes: ["chain_unavailable"] },
      },
    },
  }),
  usage: operation({
    id: "account.usage",
    method: "GET",
    path: "/account/usage",
    summary: "The key's credit balance, plan, month-to-date usage, reset date and rate limit",
    access: METERED,
    envelope: "partner",
    // Metered at 0 so it carries X-Credits-Cost: 0 and the same X-Credits-Remaining as `balance`.
    cost: 0,
    schema: {
      responses: {
        200: {
          description: "Balance (free and purchased), plan, month-to-date usage, reset date and rate limit",
          data: usageSchema,
        },
      },
    },
  }),
};
