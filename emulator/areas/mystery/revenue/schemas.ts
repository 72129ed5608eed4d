import { badRequest } from "../../../pipeline/errors.ts";
import { offsetPageQuery } from "../../../pipeline/pagination.ts";
import { z, type RouteSchema } from "../../../pipeline/schema.ts";

// What the revenue routes take and answer (service-facts §4.8, SDK cardos.revenue).

const usdcString = z.string().regex(/^-?\d+\.\d{6}$/).describe('USDC, 6 places ("12.500000")');
const micros = z.string().regex(/^-?\d+$/).describe("USDC micros");
const pctString = z.string().regex(/^\d+\.\d{2}$/);
const isoTime = z.iso.datetime();
const model = z.enum(["TIER", "POOL"]);
/** Every schedule the service names; the emulator's periods are calendar quarters. */
const schedule = z.enum(["QUARTERLY", "MONTHLY", "CUSTOM"]);

// --- GET /mystery/terms -----------------------------------------------------------------

export const termsRoute = {
  responses: {
    200: {
      description: "The account's revenue-share terms and open period",
      data: z.strictObject({
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
      }),
    },
  },
} satisfies RouteSchema;

// --- GET /mystery/revenue ----------------------------------------------------------------

/** An ISO-8601 date or timestamp → epoch ms (absent or empty: null). */
const isoParam = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw): number | null => {
      if (raw === undefined || raw === "") return null;
      const t = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : NaN;
      if (Number.isNaN(t)) throw badRequest("invalid_value", `${name} must be an ISO-8601 date or timestamp (e.g. 2026-01-01 or 2026-01-01T00:00:00Z)`);
      return t;
    });

const byProductSchema = z.strictObject({
  tier: z.strictObject({
    packs: z.number().int(),
    gross_usdc: usdcString,
    sellback_count: z.number().int(),
    sellback_usdc: usdcString,
    net_usdc: usdcString,
    share_bps: z.number().int(),
    share_usdc: usdcString,
  }),
  instant: z.strictObject({ packs: z.number().int(), gross_usdc: usdcString, sellback_usdc: usdcString, net_usdc: usdcString, share_bps: z.number().int(), share_usdc: usdcString }),
});
/** On a statement the instant block has no sellback_usdc (the emulator never sends it there; the SDK types it optional). */
const statementByProductSchema = byProductSchema.extend({ instant: byProductSchema.shape.instant.extend({ sellback_usdc: usdcString.optional() }) });

const pair = <N extends string>(name: N) => ({ [`${name}_micros`]: micros, [`${name}_usdc`]: usdcString }) as Record<`${N}_micros` | `${N}_usdc`, z.ZodString>;

export const revenueRoute = {
  query: z.object({
    from: isoParam("from").meta({ description: "Start (inclusive): an ISO-8601 date or timestamp" }),
    to: isoParam("to").meta({ description: "End (exclusive): an ISO-8601 date or timestamp" }),
  }),
  responses: {
    200: {
      description: "Revenue figures for the period (all time without from/to)",
      data: z.strictObject({
        billing_model: model.nullable(),
        currency: z.literal("USDC"),
        revenue_share_bps: z.number().int().nullable(),
        revenue_share_pct: pctString,
        instant_revenue_share_bps: z.number().int().nullable(),
        instant_revenue_share_pct: pctString,
        period: z.strictObject({ kind: z.enum(["ALL_TIME", "CUSTOM"]), from: isoTime.nullable(), to: isoTime.nullable() }),
        by_product: byProductSchema,
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
      }),
    },
    400: { description: "from or to is not an ISO-8601 date, or from is not before to", codes: ["invalid_value"] },
  },
} satisfies RouteSchema;

// --- GET /mystery/payouts -------------------------------------------------------------------

export const statementSchema = z.strictObject({
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
  by_product: statementByProductSchema,
  payout_usdc: usdcString,
  payout_micros: micros,
  status: z.enum(["PENDING", "PAID", "FAILED", "VOID"]),
  payout_address: z.string().nullable(),
  chain: z.string().nullable(),
  tx_hash: z.string().nullable(),
  paid_at: isoTime.nullable(),
  created_at: isoTime,
});

const accruingSchema = z.strictObject({
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

export const payoutsRoute = {
  query: z.object(offsetPageQuery()),
  responses: {
    200: {
      description: "Closed-period statements (newest first) and what is owed; none on POOL",
      data: z.strictObject({ payouts: z.array(statementSchema), outstanding_usdc: usdcString, accruing: accruingSchema.nullable(), total_owed_usdc: usdcString }),
    },
    400: { description: "Invalid paging", codes: ["invalid_pagination"] },
  },
} satisfies RouteSchema;
