import type { Answer } from "./api.ts";
import { h, table } from "./dom.ts";
import type { View } from "./page.ts";

// The Reports view: panels published by a tool composing the emulator (npx emulator shadow: its drift report),
// as they were sent.

type Panel = Answer<"panels", "get">["panels"][number];

const figure = (f: Panel["summary"][number]) =>
  h("span", { class: "figure" }, `${f.label}: `, h("strong", {}, f.value), " ");
const panelRow = (r: Panel["rows"][number]) =>
  h(
    "tr",
    { "data-testid": "panel-row", "data-tone": r.tone, class: r.tone === "bad" ? "bad" : "" },
    r.cells.map((c) => h("td", {}, c)),
  );

export const panelsView: View = async (page) => {
  const { panels } = await page.control.panels.get();
  if (!panels.length) return [h("p", {}, "No report yet. `npx emulator shadow` shows its drift report here, live.")];
  return panels.map((p) =>
    h(
      "section",
      { "data-testid": "panel", "data-id": p.id },
      h("h2", {}, p.title),
      p.note ? h("p", { class: "muted" }, p.note) : "",
      h("p", { "data-testid": "panel-summary" }, p.summary.map(figure)),
      table(p.columns, p.rows.map(panelRow)),
      h("p", { class: "muted" }, `updated ${p.updated_at}`),
    ),
  );
};
