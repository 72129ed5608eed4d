import { operation, partnerScoped } from "../operation.ts";
import { offsetPageQuery } from "../paging.ts";
import { withCode, z } from "../zod.ts";
import { isoTime, signedMicros as micros, usdcString } from "./fields.ts";

// Revenue terms, period summaries and payout statements (docs/mystery.md, SDK
// cardos.revenue; packs:read). A POOL key sees billing_model POOL, a 0 % share,
// no current period, no statements and `accruing: null`.

const pctString = z.string().regex(/^\d+\.\d{2}$/);
const model = z.enum(["TIER", "POOL"]);
/** Every schedule the service names; the emulator's periods are calendar quarters. */
export const PAYOUT_SCHEDULES = ["QUARTERLY", "MONTHLY", "CUSTOM"] as const;
const schedule = z.enum(PAYOUT_SCHEDULES);
export const PAYOUT_STATUSES = ["PENDING", "PAID", "FAILED", "VOID"] as const;

export const RevenueTerms = z.strictObject({
  billing_model: model.nullable(),
  plan: z.enum(["STANDARD", "ENTERPRISE"]).nullable(),
  revenue_share_bps: z.number().int().nullable(),
  revenue_share_pct: pctString.nullable(),
  instant_revenue_share_bps: z.number().int().nullable(),
  instant_revenue_share_pct: pctString.nullable(),
  payout_schedule: schedule.nullable(),
  payout_currency: z.literal("USDC"),
  payout_wallet: z.strictObject({ chain: z.string(), address: z.string() }).nullable(),
  // null on POOL: no revenue-share period accrues.
  current_period: z.strictObject({ kind: schedule, from: isoTime, to: isoTime, closes_at: isoTime }).nullable(),
  note: z.string(),
});
export type RevenueTerms = z.output<typeof RevenueTerms>;

const byProduct = z.strictObject({
  tier: z.strictObject({
    packs: z.number().int(),
    gross_usdc: usdcString,
    sellback_count: z.number().int(),
    sellback_usdc: usdcString,
    net_usdc: usdcString,
    share_bps: z.number().int(),
    share_usdc: usdcString,
  }),
  instant: z.strictObject({
    packs: z.number().int(),
    gross_usdc: usdcString,
    sellback_usdc: usdcString,
    net_usdc: usdcString,
    share_bps: z.number().int(),
    share_usdc: usdcString,
  }),
});
/** On a statement the instant block has no sellback_usdc (the emulator never sends it there; the SDK types it optional). */
const statementByProduct = byProduct.extend({
  instant: byProduct.shape.instant.extend({ sellback_usdc: usdcString.optional() }),
});

const pair = <N extends string>(name: N) =>
  ({ [`${name}_micros`]: micros, [`${name}_usdc`]: usdcString }) as Record<`${N}_micros` | `${N}_usdc`, z.ZodString>;

export const RevenueSummary = z.strictObject({
  billing_model: model.nullable(),
  currency: z.literal("USDC"),
  revenue_share_bps: z.number().int().nullable(),
  revenue_share_pct: pctString,
  instant_revenue_share_bps: z.number().int().nullable(),
  instant_revenue_share_pct: pctString,
  period: z.strictObject({ kind: z.enum(["ALL_TIME", "CUSTOM"]), from: isoTime.nullable(), to: isoTime.nullable() }),
  by_product: byProduct,
  qualifying_packs: z.number().int(),
  instant_packs: z.number().int(),
  ...pair("gross"),
  sellback_count: z.number().int(),
  ...pair("sellback"),
  ...pair("net"),
  ...pair("revenue_share"),
  ...pair("payout"),
  ...pair("rip_retained"),
  ...pair("fees"),
  components: z.strictObject({
    tier_gross_micros: micros,
    tier_sellback_micros: micros,
    tier_net_micros: micros,
    tier_share_micros: micros,
    instant_gross_micros: micros,
    instant_net_micros: micros,
    instant_share_micros: micros,
  }),
  note: z.string(),
});
export type RevenueSummary = z.output<typeof RevenueSummary>;

/** One closed period's statement. */
export const RevenuePayout = z.strictObject({
  payout_id: z.number().int(),
  period: z.strictObject({ kind: schedule, from: isoTime, to: isoTime }),
  qualifying_packs: z.number().int(),
  gross_usdc: usdcString,
  sellback_count: z.number().int(),
  sellback_usdc: usdcString,
  net_usdc: usdcString,
  revenue_share_bps: z.number().int(),
  revenue_share_pct: pctString,
  revenue_share_usdc: usdcString,
  fees_usdc: usdcString,
  rip_retained_usdc: usdcString,
  by_product: statementByProduct,
  payout_usdc: usdcString,
  payout_micros: micros,
  status: z.enum(PAYOUT_STATUSES),
  payout_address: z.string().nullable(),
  chain: z.string().nullable(),
  tx_hash: z.string().nullable(),
  paid_at: isoTime.nullable(),
  created_at: isoTime,
});
export type RevenuePayout = z.output<typeof RevenuePayout>;

/** The live share of activity no statement covers yet. */
export const RevenueAccruing = z.strictObject({
  /** End of the newest closed statement; null before the first. */
  since: isoTime.nullable(),
  as_of: isoTime,
  qualifying_packs: z.number().int(),
  instant_packs: z.number().int(),
  sellback_count: z.number().int(),
  gross_usdc: usdcString,
  sellback_usdc: usdcString,
  net_usdc: usdcString,
  payout_usdc: usdcString,
  period_closes_at: isoTime.nullable(),
});
export type RevenueAccruing = z.output<typeof RevenueAccruing>;

export const RevenuePayouts = z.strictObject({
  payouts: z.array(RevenuePayout),
  outstanding_usdc: usdcString,
  accruing: RevenueAccruing.nullable(),
  total_owed_usdc: usdcString,
});
export type RevenuePayouts = z.output<typeof RevenuePayouts>;

// --- requests ---------------------------------------------------------------------

const ISO_RULE = "must be an ISO-8601 date or timestamp (e.g. 2026-01-01 or 2026-01-01T00:00:00Z)";

/** An ISO-8601 date or timestamp → epoch ms (absent or empty: null). */
const isoQuery = (description: string) =>
  withCode(
    z
      .string()
      .optional()
      .refine(
        (raw) => raw === undefined || raw === "" || (/^\d{4}-\d{2}-\d{2}/.test(raw) && !Number.isNaN(Date.parse(raw))),
        ISO_RULE,
      )
      .transform((raw): number | null => (raw === undefined || raw === "" ? null : Date.parse(raw)))
      .describe(description),
    "invalid_value",
  );

const packsRead = partnerScoped("packs:read");

export const MYSTERY_REVENUE = {
  terms: operation({
    id: "revenue.terms",
    method: "GET",
    path: "/mystery/terms",
    summary: "This account's revenue-share rates, plan, payout schedule and wallet, and the open period",
    ...packsRead,
    schema: {
      responses: { 200: { description: "The account's revenue-share terms and open period", data: RevenueTerms } },
    },
  }),
  summary: operation({
    id: "revenue.summary",
    method: "GET",
    path: "/mystery/revenue",
    summary: "Gross, sell-backs, net and this account's share for a period (all time without from/to)",
    ...packsRead,
    schema: {
      query: z
        .object({
          from: isoQuery("Start (inclusive): an ISO-8601 date or timestamp"),
          to: isoQuery("End (exclusive): an ISO-8601 date or timestamp"),
        })
        .refine((q) => q.from === null || q.to === null || q.from < q.to, "from must be before to (to is exclusive)"),
      responses: {
        200: { description: "Revenue figures for the period (all time without from/to)", data: RevenueSummary },
        400: { description: "from or to is not an ISO-8601 date, or from is not before to", codes: ["invalid_value"] },
      },
    },
  }),
  payouts: operation({
    id: "revenue.payouts",
    method: "GET",
    path: "/mystery/payouts",
    summary:
      "Closed-period statements, newest first, with what is owed now (revenue.outstanding reads the same call's totals)",
    ...packsRead,
    schema: {
      query: z.object(offsetPageQuery()),
      responses: {
        200: {
          description: "Closed-period statements (newest first) and what is owed; none on POOL",
          data: RevenuePayouts,
        },
        400: { description: "Invalid paging", codes: ["invalid_pagination"] },
      },
    },
  }),
};
