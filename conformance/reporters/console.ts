import type { CheckResult } from "../types.ts";
import type { SuiteResult } from "../runner.ts";
import { changesText } from "../target-changes.ts";

// Progress while the suite runs, then a summary table.

const MARK: Record<CheckResult["outcome"], string> = {
  pass: "✓",
  fail: "✗",
  error: "!",
  not_applicable: "–",
  expected_failure: "≈",
};

export function progressLine(r: CheckResult, index: number, total: number): string {
  const head = `[${String(index + 1).padStart(String(total).length)}/${total}] ${MARK[r.outcome]} ${r.id}`;
  const tail = r.outcome === "pass" ? ` (${r.duration_ms} ms)` : ` — ${r.message}`;
  return head + tail;
}

export function summaryTable(suite: SuiteResult): string {
  const byProfile = new Map<string, Record<CheckResult["outcome"], number>>();
  for (const r of suite.results) {
    const row = byProfile.get(r.profile) ?? { pass: 0, fail: 0, error: 0, not_applicable: 0, expected_failure: 0 };
    row[r.outcome]++;
    byProfile.set(r.profile, row);
  }
  const lines = [
    "",
    `${suite.title ?? "Conformance"} against ${suite.target} (${suite.mode} mode)`,
    "",
    "profile     pass  fail  error  n/a  expected-fail",
  ];
  for (const [profile, c] of byProfile)
    lines.push(
      `${profile.padEnd(11)} ${String(c.pass).padStart(4)}  ${String(c.fail).padStart(4)}  ${String(c.error).padStart(5)}  ${String(c.not_applicable).padStart(3)}  ${String(c.expected_failure).padStart(13)}`,
    );
  if (suite.rule_coverage) lines.push("", `Rule inventory (docs/reference): ${suite.rule_coverage.line}`);
  if (suite.spent) {
    const { credits, max_credits, usdc, max_spend_usdc } = suite.spent;
    const of = (n: number | null, flag: string) => (n === null ? `(no ${flag})` : `of ${n} (${flag})`);
    lines.push(
      "",
      `Spent (declared costs of the checks that ran): ${credits} credits ${of(max_credits, "--max-credits")}, ${usdc} test USDC ${of(max_spend_usdc, "--max-spend-usdc")}`,
    );
  }
  if (suite.shard)
    lines.push(
      "",
      `Shard ${suite.shard.index}/${suite.shard.count}: ${suite.results.length} of the run's ${suite.shard.checks.length} checks (npx emulator conformance merge joins the shards' JSON reports).`,
    );
  if (suite.changes) lines.push("", ...changesText(suite.changes));
  // Warnings (fields a route's schema does not know, undeclared codes) do not fail a check: listed once each.
  const warnings = [...new Set(suite.results.flatMap((r) => r.warnings ?? []))];
  if (warnings.length) {
    lines.push("", `Warnings (${warnings.length}; not failures: the target may be newer than the suite):`);
    for (const w of warnings.slice(0, 20)) lines.push(`  ${w}`);
    if (warnings.length > 20) lines.push(`  … and ${warnings.length - 20} more (see the JSON or HTML report)`);
  }
  const failed = suite.results.filter((r) => r.outcome === "fail" || r.outcome === "error");
  if (failed.length) {
    lines.push("", "Failures:");
    for (const r of failed) lines.push(`  ${r.id}: ${r.message}`, `    rule: ${r.rule}`);
  }
  return lines.join("\n") + "\n";
}
