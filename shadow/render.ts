import { KIND_TEXT, type DriftReport } from "./report.ts";

// The drift report as Markdown (a CI summary, a pull request) and as one HTML page; the JSON is the report itself.

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function toMarkdown(r: DriftReport): string {
  const t = r.totals;
  const lines = [
    `# Shadow drift report`,
    ``,
    `Upstream ${r.upstream}, ${r.started_at} to ${r.finished_at}: ${t.calls} calls, ${t.compared} compared, ${t.differing} differing, ${t.differences} distinct difference(s).` +
      (t.unmatched ? ` ${t.unmatched} call(s) matched no operation.` : "") +
      (t.upstream_failures ? ` ${t.upstream_failures} call(s) could not reach the upstream.` : ""),
    ``,
    `| Operation | Calls | Compared | Differing | Unknown to the emulator |`,
    `|---|---:|---:|---:|---:|`,
    ...r.operations.map(
      (o) =>
        `| \`${o.id}\` ${o.method} ${cell(o.path)} | ${o.calls} | ${o.compared} | ${o.differing} | ${o.unknown_to_emulator} |`,
    ),
  ];
  for (const o of r.operations.filter((x) => x.differences.length)) {
    lines.push(
      ``,
      `## ${o.id} (${o.method} ${o.path})`,
      ``,
      `| Difference | Where | Upstream | Emulator / contract | Seen | Sample request |`,
      `|---|---|---|---|---:|---|`,
    );
    for (const d of o.differences)
      lines.push(
        `| ${KIND_TEXT[d.kind]} | \`${cell(d.where)}\` | ${cell(d.upstream)} | ${cell(d.emulator)} | ${d.count} | \`${cell(d.sample.request)}\` |`,
      );
  }
  if (Object.keys(r.unmatched).length) {
    lines.push(``, `## Requests no operation matched`, ``);
    for (const [k, n] of Object.entries(r.unmatched)) lines.push(`- \`${k}\` (${n})`);
  }
  return lines.join("\n") + "\n";
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function toHtml(r: DriftReport): string {
  const t = r.totals;
  const rows = r.operations
    .map(
      (o) =>
        `<tr><td><code>${esc(o.id)}</code> ${esc(o.method)} ${esc(o.path)}</td><td>${o.calls}</td><td>${o.compared}</td><td>${o.differing}</td><td>${o.unknown_to_emulator}</td></tr>`,
    )
    .join("\n");
  const details = r.operations
    .filter((o) => o.differences.length)
    .map(
      (o) => `<h2>${esc(o.id)} <small>${esc(o.method)} ${esc(o.path)}</small></h2>
<table><tr><th>Difference</th><th>Where</th><th>Upstream</th><th>Emulator / contract</th><th>Seen</th><th>Sample</th></tr>
${o.differences
  .map(
    (d) =>
      `<tr><td>${esc(KIND_TEXT[d.kind])}</td><td><code>${esc(d.where)}</code></td><td>${esc(d.upstream)}</td><td>${esc(d.emulator)}</td><td>${d.count}</td><td><details><summary><code>${esc(d.sample.request)}</code></summary><pre>${esc(d.sample.upstream_body)}</pre></details></td></tr>`,
  )
  .join("\n")}</table>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shadow drift report</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}pre{white-space:pre-wrap;max-width:60em}</style></head>
<body><h1>Shadow drift report</h1>
<p>Upstream ${esc(r.upstream)}, ${esc(r.started_at)} to ${esc(r.finished_at)}: ${t.calls} calls, ${t.compared} compared, ${t.differing} differing, ${t.differences} distinct difference(s).</p>
<table><tr><th>Operation</th><th>Calls</th><th>Compared</th><th>Differing</th><th>Unknown to the emulator</th></tr>
${rows}</table>
${details}
</body></html>
`;
}
