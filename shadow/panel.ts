import type { Panel } from "../emulator/index.ts";
import { KIND_TEXT, type DriftReport } from "./report.ts";

// The drift report as a dashboard panel (the emulator's Reports tab, updated after every compared
// request): the totals, then one row per difference, and a row per operation that showed none.

export const DRIFT_PANEL_ID = "shadow-drift";

export function driftPanel(r: DriftReport): Panel {
  const t = r.totals;
  const rows: Panel["rows"] = r.operations.flatMap((o): Panel["rows"] => {
    const op = `${o.id} (${o.method} ${o.path})`;
    const counts = `${o.calls} / ${o.compared} / ${o.differing}`;
    if (!o.differences.length) return [{ cells: [op, counts, "no difference", "", "", "", "", ""], tone: "ok" }];
    return o.differences.map((d) => ({
      cells: [op, counts, KIND_TEXT[d.kind], d.where, d.upstream, d.emulator, d.count, d.sample.request],
      tone: "bad",
    }));
  });
  for (const [request, n] of Object.entries(r.unmatched))
    rows.push({ cells: [request, `${n}`, "no operation matched", "", "", "", n, request] });
  return {
    id: DRIFT_PANEL_ID,
    title: "Shadow drift",
    note: `npx emulator shadow against ${r.upstream}, since ${r.started_at} (the report written at the end is the same)`,
    summary: [
      { label: "calls", value: t.calls },
      { label: "compared", value: t.compared },
      { label: "differing", value: t.differing },
      { label: "distinct differences", value: t.differences },
      { label: "no operation matched", value: t.unmatched },
      { label: "upstream failures", value: t.upstream_failures },
    ],
    columns: [
      "operation",
      "calls / compared / differing",
      "difference",
      "where",
      "upstream",
      "emulator / contract",
      "seen",
      "first sample",
    ],
    rows,
  };
}
