import type { SuiteResult } from "../runner.ts";
import { changesText } from "../target-changes.ts";

// JUnit XML, JSON and Markdown reports.

const xml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

export function junit(suite: SuiteResult): string {
  const groups = new Map<string, SuiteResult["results"]>();
  for (const r of suite.results) groups.set(r.profile, [...(groups.get(r.profile) ?? []), r]);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(suite.title ?? "conformance")}" tests="${suite.results.length}">`,
  ];
  for (const [profile, rs] of groups) {
    const failures = rs.filter((r) => r.outcome === "fail").length;
    const errors = rs.filter((r) => r.outcome === "error").length;
    const skipped = rs.filter((r) => r.outcome === "not_applicable" || r.outcome === "expected_failure").length;
    out.push(
      `  <testsuite name="${xml(profile)}" tests="${rs.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    );
    for (const r of rs) {
      out.push(
        `    <testcase classname="${xml(profile)}" name="${xml(r.id)}" time="${(r.duration_ms / 1000).toFixed(3)}">`,
      );
      if (r.outcome === "fail") out.push(`      <failure message="${xml(r.message)}">${xml(r.rule)}</failure>`);
      if (r.outcome === "error") out.push(`      <error message="${xml(r.message)}"/>`);
      if (r.outcome === "not_applicable") out.push(`      <skipped message="${xml(r.message)}"/>`);
      if (r.outcome === "expected_failure") out.push(`      <skipped message="expected failure: ${xml(r.message)}"/>`);
      if (r.warnings?.length)
        out.push(`      <system-out>${xml(r.warnings.map((w) => `warning: ${w}`).join("\n"))}</system-out>`);
      out.push("    </testcase>");
    }
    out.push("  </testsuite>");
  }
  out.push("</testsuites>");
  return out.join("\n") + "\n";
}

export function json(suite: SuiteResult): string {
  return JSON.stringify(suite, null, 2) + "\n";
}

export function markdown(suite: SuiteResult): string {
  const lines = [
    `# ${suite.title ?? "Conformance"} report`,
    "",
    `Target: ${suite.target} · mode: ${suite.mode} · profiles: ${suite.profiles.join(", ")} · ${suite.started_at}`,
    "",
    "| Check | Outcome | Details |",
    "|---|---|---|",
  ];
  for (const r of suite.results) {
    const warn = r.warnings?.length ? ` (${r.warnings.length} warning${r.warnings.length > 1 ? "s" : ""})` : "";
    lines.push(
      `| \`${r.id}\` ${r.title} | ${r.outcome}${warn} | ${(r.message || r.notes.join("; ")).replace(/\|/g, "\\|")} |`,
    );
  }
  if (suite.changes)
    lines.push("", ...changesText(suite.changes).map((l) => (l.startsWith("  ") ? `- ${l.trim()}` : l)));
  return lines.join("\n") + "\n";
}
