import { invariant, type Problem } from "./invariant.ts";
import { obj, usdc, usdcText } from "./read.ts";

// Revenue share: what is owed, and statements whose parts add up to their totals.

const sum = (...xs: Array<bigint | null>): bigint | null =>
  xs.some((x) => x === null) ? null : xs.reduce<bigint>((n, x) => n + x!, 0n);

function agrees(out: Problem[], pointer: string, got: unknown, want: bigint | null, how: string): void {
  const g = usdc(got);
  if (g !== null && want !== null && g !== want)
    out.push({ pointer, text: `expected ${how} = ${JSON.stringify(usdcText(want))}, received ${JSON.stringify(got)}` });
}

export const REVENUE_INVARIANTS = [
  invariant({
    id: "revenue.total-owed",
    rule: "GET /mystery/payouts: total_owed_usdc is what is owed now, the outstanding (PENDING) statements plus the open period's accruing payout (none on POOL)",
    source: "docs/reference/live-service.md “Revenue share”",
    operations: ["revenue.payouts"],
    check: (a) => {
      const d = obj(a.data);
      if (!d || !("accruing" in d)) return [];
      const accruing = d.accruing === null ? 0n : usdc(obj(d.accruing)?.payout_usdc);
      const out: Problem[] = [];
      agrees(
        out,
        "/data/total_owed_usdc",
        d.total_owed_usdc,
        sum(usdc(d.outstanding_usdc), accruing),
        "outstanding_usdc + accruing.payout_usdc",
      );
      return out;
    },
  }),
  invariant({
    id: "revenue.statement-adds-up",
    rule: "Net = gross − sell-backs − fees; a statement's totals are its by_product tier and instant blocks added up",
    source: "docs/reference/live-service.md “Revenue share”",
    operations: ["revenue.payouts"],
    check: (a) => {
      const rows = obj(a.data)?.payouts;
      if (!Array.isArray(rows)) return [];
      const out: Problem[] = [];
      rows.forEach((r, i) => {
        const s = obj(r);
        const tier = obj(obj(s?.by_product)?.tier);
        const inst = obj(obj(s?.by_product)?.instant);
        if (!s || !tier || !inst) return;
        const at = `/data/payouts/${i}`;
        agrees(
          out,
          `${at}/gross_usdc`,
          s.gross_usdc,
          sum(usdc(tier.gross_usdc), usdc(inst.gross_usdc)),
          "tier + instant gross",
        );
        const [gross, sell, fees] = [usdc(s.gross_usdc), usdc(s.sellback_usdc), usdc(s.fees_usdc)];
        agrees(
          out,
          `${at}/net_usdc`,
          s.net_usdc,
          gross === null || sell === null || fees === null ? null : gross - sell - fees,
          "gross − sell-backs − fees",
        );
        agrees(
          out,
          `${at}/revenue_share_usdc`,
          s.revenue_share_usdc,
          sum(usdc(tier.share_usdc), usdc(inst.share_usdc)),
          "tier + instant share",
        );
      });
      return out;
    },
  }),
];
