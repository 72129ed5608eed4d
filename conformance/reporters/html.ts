import type { SuiteResult } from "../runner.ts";
import type { CheckResult, Outcome } from "../types.ts";

// A self-contained HTML report for people: per profile, per check (its rule
// and where the rule is written), every request it made with the target's
// X-Request-Id, and for each failure the redacted request/response transcript.

const esc = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&#39;" })[c]!);

const LABEL: Record<Outcome, string> = {
  pass: "pass",
  fail: "FAIL",
  error: "ERROR",
  not_applicable: "n/a",
  expected_failure: "expected failure",
};

function requestsTable(r: CheckResult): string {
  if (!r.requests?.length) return "";
  const rows = r.requests
    .map(
      (q) =>
        `<tr><td>${esc(q.method)}</td><td><code>${esc(q.path)}</code></td><td>${q.status}</td><td>${q.duration_ms} ms</td><td><code>${esc(q.request_id ?? "—")}</code></td></tr>`,
    )
    .join("");
  return `<details><summary>${r.requests.length} request(s)</summary><table class="req"><tr><th>method</th><th>path</th><th>status</th><th>time</th><th>X-Request-Id</th></tr>${rows}</table></details>`;
}

function transcript(r: CheckResult): string {
  if (!r.transcript?.length) return "";
  const parts = r.transcript.map((t, i) => {
    const headers = (h: Record<string, string>) =>
      Object.entries(h)
        .map(([k, v]) => `${k}: ${v}`)
        .join("\n");
    const req = `${t.method} ${t.path}\n${headers(t.request_headers)}${t.request_body ? `\n\n${t.request_body}` : ""}`;
    const res = `HTTP ${t.status}\n${headers(t.response_headers)}\n\n${t.response_body}`;
    return `<div class="ex"><h4>#${i + 1} ${esc(t.method)} <code>${esc(t.path)}</code> → ${t.status}</h4><pre>${esc(req)}</pre><pre>${esc(res)}</pre></div>`;
  });
  return `<details open><summary>transcript (keys, signatures and secrets removed)</summary>${parts.join("")}</details>`;
}

function checkBlock(r: CheckResult): string {
  const head = `<h3 class="${r.outcome}"><span class="badge">${LABEL[r.outcome]}</span> <code>${esc(r.id)}</code> ${esc(r.title)} <small>${r.duration_ms} ms</small></h3>`;
  const rule = `<p class="rule"><b>Rule:</b> ${esc(r.rule)}${r.guards ? `<br><b>Guards:</b> ${esc(r.guards)}` : ""}</p>`;
  const msg = r.message ? `<p class="msg">${esc(r.message)}</p>` : "";
  const notes = r.notes.length ? `<p class="notes">${r.notes.map(esc).join("<br>")}</p>` : "";
  const warnings = r.warnings?.length
    ? `<ul class="warn">${r.warnings.map((w) => `<li>warning: ${esc(w)}</li>`).join("")}</ul>`
    : "";
  return `<section class="check" id="${esc(r.id)}">${head}${rule}${msg}${notes}${warnings}${requestsTable(r)}${transcript(r)}</section>`;
}

export function html(suite: SuiteResult): string {
  const profiles = [...new Set(suite.results.map((r) => r.profile))];
  const count = (rs: CheckResult[], o: Outcome) => rs.filter((r) => r.outcome === o).length;
  const summary = profiles
    .map((p) => {
      const rs = suite.results.filter((r) => r.profile === p);
      return `<tr><td><a href="#profile-${esc(p)}">${esc(p)}</a></td><td>${count(rs, "pass")}</td><td>${count(rs, "fail")}</td><td>${count(rs, "error")}</td><td>${count(rs, "not_applicable")}</td><td>${count(rs, "expected_failure")}</td></tr>`;
    })
    .join("");
  const body = profiles
    .map(
      (p) =>
        `<h2 id="profile-${esc(p)}">${esc(p)}</h2>${suite.results
          .filter((r) => r.profile === p)
          .map(checkBlock)
          .join("")}`,
    )
    .join("");
  const failed = suite.results.filter((r) => r.outcome === "fail" || r.outcome === "error").length;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(suite.title ?? "Conformance")} report — ${esc(suite.target)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}
.check{border-top:1px solid #ddd;padding:.3em 0}.badge{display:inline-block;min-width:4em;text-align:center;border-radius:3px;padding:0 4px;font-size:12px}
.pass .badge{background:#d4f4dd}.fail .badge,.error .badge{background:#f8d0d0}.not_applicable .badge,.expected_failure .badge{background:#eee}
.msg{color:#a00;white-space:pre-wrap}.rule{color:#555}.warn{color:#8a6d00}pre{background:#f6f6f6;padding:6px;overflow:auto;max-height:24em}
h3{font-size:15px;margin:.4em 0}small{color:#888}
</style></head><body>
<h1>${esc(suite.title ?? "Conformance")} report</h1>
<p>Target <code>${esc(suite.target)}</code> · mode <b>${esc(suite.mode)}</b> · ${esc(suite.started_at)} → ${esc(suite.finished_at)} · <b>${failed ? `${failed} failed` : "no failures"}</b></p>${suite.rule_coverage ? `\n<p>Rule inventory (docs/reference): ${esc(suite.rule_coverage.line)}</p>` : ""}
<table><tr><th>profile</th><th>pass</th><th>fail</th><th>error</th><th>n/a</th><th>expected failure</th></tr>${summary}</table>
${body}
</body></html>
`;
}
