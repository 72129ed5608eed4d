import {
  MYSTERY_REVENUE,
  type RevenuePayouts,
  type RevenueSummary,
  type RevenueTerms,
} from "../../../../contract/index.ts";
import { paginate } from "../../../pipeline/pagination.ts";
import { ok, serve, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import {
  byProduct,
  figures,
  INSTANT_SHARE_BPS,
  openPeriodStart,
  pct,
  payoutsOf,
  quarterEnd,
  REVENUE_SHARE_BPS,
  totals,
} from "./revenue.ts";
import { usdc } from "../../../../contract/money.ts";
import { activeWallet } from "../wallet/wallets.ts";
import { isoOf } from "../../../../contract/time.ts";

// Revenue terms, period summaries and payouts (contract/mystery/revenue.ts;
// packs:read). A POOL key sees billing_model POOL, a 0 % share,
// no current period, no statements and `accruing: null`.

const modelOf = (c: HandlerContext) => c.key!.billing_model ?? "TIER";

const both = <N extends string>(micros: bigint, name: N) =>
  ({ [`${name}_micros`]: String(micros), [`${name}_usdc`]: usdc(micros) }) as Record<
    `${N}_micros` | `${N}_usdc`,
    string
  >;

export const revenueRoutes: RouteSpec[] = [
  serve(MYSTERY_REVENUE.terms, {
    gate: "partner_read",
    handle: (c) => {
      const revenueShareModel = modelOf(c) === "TIER";
      const acct = c.key!.account_id;
      const wallet = activeWallet(c.services, "payout_wallets", acct);
      const from = openPeriodStart(c.services, acct);
      const closes = isoOf(quarterEnd(c.services.clock.now()));
      return ok({
        billing_model: modelOf(c),
        plan: "STANDARD",
        revenue_share_bps: revenueShareModel ? REVENUE_SHARE_BPS : 0,
        revenue_share_pct: pct(revenueShareModel ? REVENUE_SHARE_BPS : 0),
        instant_revenue_share_bps: revenueShareModel ? INSTANT_SHARE_BPS : 0,
        instant_revenue_share_pct: pct(revenueShareModel ? INSTANT_SHARE_BPS : 0),
        payout_schedule: "QUARTERLY",
        payout_currency: "USDC",
        payout_wallet: wallet ? { chain: wallet.chain, address: wallet.address } : null,
        // POOL: no revenue-share period accrues (as its payouts' accruing is null).
        current_period: revenueShareModel
          ? { kind: "QUARTERLY" as const, from: isoOf(from), to: closes, closes_at: closes }
          : null,
        note: revenueShareModel
          ? "TIER model: 5% of net combo-pack revenue (gross − sell-backs − fees, floored at 0) and 1% of instant gross, paid quarterly in USDC on Base"
          : "POOL model: you hold the inventory and are invoiced for fronted buybacks; no revenue share accrues",
      } satisfies RevenueTerms);
    },
  }),

  serve(MYSTERY_REVENUE.summary, {
    gate: "partner_read",
    handle: (c) => {
      const { from, to } = c.input.query;
      const bps = modelOf(c) === "TIER" ? REVENUE_SHARE_BPS : 0;
      const f = figures(c.services, c.key!.account_id, from, to, bps);
      const t = totals(f);
      const kind = from === null && to === null ? "ALL_TIME" : "CUSTOM";
      return ok({
        billing_model: modelOf(c),
        currency: "USDC",
        revenue_share_bps: bps,
        revenue_share_pct: pct(bps),
        instant_revenue_share_bps: bps === 0 ? 0 : INSTANT_SHARE_BPS,
        instant_revenue_share_pct: pct(bps === 0 ? 0 : INSTANT_SHARE_BPS),
        period: {
          kind,
          from: from === null ? null : isoOf(from),
          to: to === null ? null : isoOf(to),
        },
        by_product: byProduct(f),
        qualifying_packs: f.packs,
        instant_packs: f.instantPacks,
        ...both(t.gross, "gross"),
        sellback_count: f.sellbackCount,
        ...both(f.sellback, "sellback"),
        ...both(t.net, "net"),
        ...both(t.share, "revenue_share"),
        ...both(t.share, "payout"),
        ...both(t.retained, "rip_retained"),
        ...both(f.fees, "fees"),
        components: {
          tier_gross_micros: String(f.gross),
          tier_sellback_micros: String(f.sellback),
          tier_net_micros: String(f.net),
          tier_share_micros: String(f.share),
          instant_gross_micros: String(f.instantGross),
          instant_net_micros: String(f.instantGross),
          instant_share_micros: String(f.instantShare),
        },
        note: "Gross counts SUBMITTED, FULFILLED and PARTIALLY_FULFILLED mystery packs and SUBMITTED and FULFILLED instant packs by submission time; totals add both products; to is exclusive; a negative tier net earns 0",
      } satisfies RevenueSummary);
    },
  }),

  serve(MYSTERY_REVENUE.payouts, {
    gate: "partner_read",
    handle: (c) => {
      const page = c.input.query;
      const { statements, outstanding, accruing, owed } = payoutsOf(
        c.services,
        c.key!.account_id,
        modelOf(c) === "TIER",
      );
      const { items, pagination } = paginate(statements, page);
      return ok(
        {
          payouts: items,
          outstanding_usdc: usdc(outstanding),
          accruing,
          total_owed_usdc: usdc(owed),
        } satisfies RevenuePayouts,
        { pagination },
      );
    },
  }),
];
