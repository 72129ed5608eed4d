import { z } from "zod";
import { count, isoTime, ownRecord, uint } from "../../../state/fields.ts";
import { defineSlice } from "../../../state/slices.ts";
import { RevenuePayout, type RevenueSummary } from "../../../../contract/index.ts";
import type { BillingModel } from "../../../state/schema.ts";
import type { Services } from "../../../pipeline/services.ts";
import { own } from "../../../state/own.ts";
import { instantSales } from "../../instant/index.ts";
import { mystery } from "../state.ts";
import { usdc } from "../../../../contract/money.ts";
import { isoOf } from "../../../../contract/time.ts";

// Revenue share (TIER model, docs/mystery.md): gross = what end users paid
// for SUBMITTED / FULFILLED / PARTIALLY_FULFILLED packs, net = gross − sell-backs
// − fees (no fees here), share = 5 % of net floored at 0 (no clawback), instant
// 1 % of gross (instant packs SUBMITTED or FULFILLED, by submit time; they have
// no sell-backs, so their net is their gross). Totals add both products. Periods are
// calendar quarters; the operator closes one into a frozen PENDING statement
// (POST /_emulator/mystery/payouts/close) and pays it (…/payouts/:id/pay).

export const REVENUE_SHARE_BPS = 500;
export const INSTANT_SHARE_BPS = 100;
const QUALIFYING: ReadonlySet<string> = new Set(["SUBMITTED", "FULFILLED", "PARTIALLY_FULFILLED"]);

export interface Figures {
  packs: number;
  gross: bigint;
  sellbackCount: number;
  sellback: bigint;
  fees: bigint;
  net: bigint;
  share: bigint;
  shareBps: number;
  /** Instant packs (SUBMITTED/FULFILLED) of the period, their gross and the instant share. */
  instantPacks: number;
  instantGross: bigint;
  instantShareBps: number;
  instantShare: bigint;
}

/** Both products together: what the summary's, the statement's and the accrual's totals report. */
export const totals = (f: Figures) => {
  const gross = f.gross + f.instantGross;
  const net = f.net + f.instantGross;
  const share = f.share + f.instantShare;
  return { gross, net, share, retained: net - share };
};

export type PayoutStatus = "PENDING" | "PAID" | "FAILED" | "VOID";

/** A closed period, frozen at close (figures and rates never change afterwards). */
export interface PayoutStatement {
  payout_id: number;
  period: { kind: "QUARTERLY" | "MONTHLY" | "CUSTOM"; from: string; to: string };
  qualifying_packs: number;
  gross_usdc: string;
  sellback_count: number;
  sellback_usdc: string;
  net_usdc: string;
  revenue_share_bps: number;
  revenue_share_pct: string;
  revenue_share_usdc: string;
  fees_usdc: string;
  rip_retained_usdc: string;
  by_product: RevenuePayout["by_product"];
  payout_usdc: string;
  payout_micros: string;
  status: PayoutStatus;
  payout_address: string | null;
  chain: string | null;
  tx_hash: string | null;
  paid_at: string | null;
  created_at: string;
}

export interface RevenueSlice {
  statements: Record<string, { account_id: string; statement: PayoutStatement }>;
  /** account → start (ISO) of its open period, set when a period is closed. */
  period_start: Record<string, string>;
}

const REVENUE_SLICE = defineSlice<RevenueSlice>({
  name: "mystery-revenue",
  init: () => ({ statements: {}, period_start: {} }),
  schema: z.strictObject({
    statements: ownRecord(
      z.strictObject({
        account_id: z.string(),
        statement: RevenuePayout.pick({
          gross_usdc: true,
          sellback_usdc: true,
          net_usdc: true,
          revenue_share_pct: true,
          revenue_share_usdc: true,
          fees_usdc: true,
          rip_retained_usdc: true,
          by_product: true,
          payout_usdc: true,
          status: true,
          payout_address: true,
          chain: true,
          tx_hash: true,
        }).extend({
          payout_id: count,
          period: z.strictObject({ kind: z.enum(["QUARTERLY", "MONTHLY", "CUSTOM"]), from: isoTime, to: isoTime }),
          qualifying_packs: count,
          sellback_count: count,
          revenue_share_bps: count,
          payout_micros: uint,
          paid_at: isoTime.nullable(),
          created_at: isoTime,
        }),
      }),
    ),
    period_start: ownRecord(isoTime),
  }),
});

export const revenueState = (s: Services): RevenueSlice => s.store.slice(REVENUE_SLICE);

export const pct = (bps: number) => (bps / 100).toFixed(2);

/** The account's billing model: its keys' (a TIER key makes it TIER); null when no key has it. */
export function accountModel(s: Services, accountId: string): BillingModel | null {
  const keys = Object.values(s.store.state.keys).filter((k) => k.kind === "partner" && k.account_id === accountId);
  if (keys.length === 0) return null;
  return keys.some((k) => (k.billing_model ?? "TIER") === "TIER") ? "TIER" : "POOL";
}

export const quarterStart = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1);
};
export const quarterEnd = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3 + 3, 1);
};

const purchaseTime = (p: { submitted_at: string | null; created_at: string }) =>
  Date.parse(p.submitted_at ?? p.created_at);

/** Start of the account's open period: the last close, else the quarter of its first activity (or of now). */
export function openPeriodStart(s: Services, accountId: string): number {
  const closed = own(revenueState(s).period_start, accountId);
  if (closed) return Date.parse(closed);
  const slice = mystery(s);
  const firstInstant = instantSales(s, accountId, null, null).first_at;
  const times = [
    ...Object.values(slice.purchases)
      .filter((p) => p.account_id === accountId)
      .map(purchaseTime),
    ...(firstInstant === null ? [] : [firstInstant]),
    ...Object.values(slice.sellbacks)
      .filter((r) => r.account_id === accountId)
      .map((r) => Date.parse(r.sold_at)),
    s.clock.now(),
  ];
  return quarterStart(Math.min(...times));
}

/** Figures of [from, to) (null = open end). */
export function figures(
  s: Services,
  accountId: string,
  from: number | null,
  to: number | null,
  shareBps: number,
): Figures {
  const inRange = (t: number) => (from === null || t >= from) && (to === null || t < to);
  const slice = mystery(s);
  const packs = Object.values(slice.purchases).filter(
    (p) => p.account_id === accountId && QUALIFYING.has(p.status) && inRange(purchaseTime(p)),
  );
  const sells = Object.values(slice.sellbacks).filter(
    (r) => r.account_id === accountId && inRange(Date.parse(r.sold_at)),
  );
  const gross = packs.reduce((n, p) => n + BigInt(p.price_micros), 0n);
  const sellback = sells.reduce((n, r) => n + BigInt(r.total_micros), 0n);
  const fees = 0n;
  const net = gross - sellback - fees;
  const share = net > 0n ? (net * BigInt(shareBps)) / 10_000n : 0n;
  const instant = instantSales(s, accountId, from, to);
  const instantShareBps = shareBps === 0 ? 0 : INSTANT_SHARE_BPS;
  const instantShare = (instant.gross_micros * BigInt(instantShareBps)) / 10_000n;
  return {
    packs: packs.length,
    gross,
    sellbackCount: sells.length,
    sellback,
    fees,
    net,
    share,
    shareBps,
    instantPacks: instant.packs,
    instantGross: instant.gross_micros,
    instantShareBps,
    instantShare,
  };
}

/** by_product of a summary; `statement`: as a closed statement carries it (the instant block without sellback_usdc). */
export function byProduct(f: Figures): RevenueSummary["by_product"];
export function byProduct(f: Figures, statement: true): RevenuePayout["by_product"];
export function byProduct(f: Figures, statement = false): RevenuePayout["by_product"] {
  return {
    tier: {
      packs: f.packs,
      gross_usdc: usdc(f.gross),
      sellback_count: f.sellbackCount,
      sellback_usdc: usdc(f.sellback),
      net_usdc: usdc(f.net),
      share_bps: f.shareBps,
      share_usdc: usdc(f.share),
    },
    instant: {
      packs: f.instantPacks,
      gross_usdc: usdc(f.instantGross),
      ...(statement ? {} : { sellback_usdc: usdc(0n) }),
      net_usdc: usdc(f.instantGross),
      share_bps: f.instantShareBps,
      share_usdc: usdc(f.instantShare),
    },
  };
}

/** The accrual of the open period (null on POOL) as the wire shows it, and its share in micros. */
export function accrual(s: Services, accountId: string) {
  const since = openPeriodStart(s, accountId);
  const f = figures(s, accountId, since, null, REVENUE_SHARE_BPS);
  const t = totals(f);
  const wire = {
    // The newest statement's end; null before the first (the accrual then covers all activity).
    since: own(revenueState(s).period_start, accountId) ?? null,
    as_of: s.clock.nowIso(),
    qualifying_packs: f.packs,
    instant_packs: f.instantPacks,
    sellback_count: f.sellbackCount,
    gross_usdc: usdc(t.gross),
    sellback_usdc: usdc(f.sellback),
    net_usdc: usdc(t.net),
    payout_usdc: usdc(t.share),
    period_closes_at: isoOf(quarterEnd(s.clock.now())),
  };
  return { wire, share: t.share };
}

export function statementsOf(s: Services, accountId: string): PayoutStatement[] {
  return Object.values(revenueState(s).statements)
    .filter((r) => r.account_id === accountId)
    .map((r) => r.statement)
    .sort((a, b) => b.payout_id - a.payout_id);
}

/** The account's statements (newest first) and what it is owed: PENDING statements plus the open period's accrual; none on POOL. */
export function payoutsOf(s: Services, accountId: string, revenueShareModel: boolean) {
  const statements = revenueShareModel ? statementsOf(s, accountId) : [];
  const outstanding = statements
    .filter((r) => r.status === "PENDING")
    .reduce((n, r) => n + BigInt(r.payout_micros), 0n);
  const open = revenueShareModel ? accrual(s, accountId) : null;
  return { statements, outstanding, accruing: open?.wire ?? null, owed: outstanding + (open?.share ?? 0n) };
}
