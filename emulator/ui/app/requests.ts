import type { Answer } from "./api.ts";
import { h, table } from "./dom.ts";
import type { Page, View } from "./page.ts";

// The Requests view: the request journal (GET /_emulator/requests), filtered, and one call whole with a curl.

type Entry = Answer<"requests", "list">["requests"][number];

export const requestsView: View = async (page) => {
  const filter = page.requestFilter;
  const { requests } = await page.control.requests.list(filter);
  const input = (name: keyof typeof filter, placeholder: string) =>
    h("input", {
      placeholder,
      value: filter[name],
      "data-testid": `filter-${name}`,
      onchange: (e: Event) => {
        filter[name] = (e.target as HTMLInputElement).value;
        return page.run(async () => {});
      },
    });
  const rows = requests.map((r) =>
    h(
      "tr",
      { class: "clickable", "data-testid": "request-row", "data-id": r.id, onclick: () => showRequest(r) },
      h("td", {}, r.at.slice(11, 23)),
      h("td", {}, r.method),
      h("td", { title: r.operation ?? "" }, r.path),
      h("td", {}, r.key_name ?? r.key_label ?? r.key ?? "—"),
      // A stub's answer (POST /_emulator/stubs) says so: it is not the emulator's own.
      h(
        "td",
        { class: `s${String(r.status)[0]}` },
        r.status,
        r.stub ? h("span", { class: "stub", "data-testid": "stubbed", title: `answered by ${r.stub}` }, " stub") : "",
      ),
      h("td", {}, r.error ?? ""),
      h("td", { "data-testid": "credits" }, r.credits_cost ?? "—"),
      h("td", {}, r.credits_remaining ?? "—"),
      h("td", {}, r.rate_limit_remaining ?? "—"),
      h("td", {}, `${r.latency_ms} ms`),
    ),
  );
  return [
    h(
      "div",
      { class: "filters" },
      input("key", "key name or label"),
      input("operation", "operation (gacha.purchase)"),
      input("status", "status (404, 4xx)"),
      input("path", "path contains"),
    ),
    table(
      ["time (virtual)", "method", "path", "key", "status", "error", "credits", "remaining", "rate left", "latency"],
      rows,
      { "data-testid": "requests" },
    ),
    h("div", { class: "detail", id: "detail" }),
  ];
};

function curlOf(r: Entry): string {
  const headers = Object.entries(r.request.headers).filter(
    ([k]) => !["host", "content-length", "connection"].includes(k),
  );
  const parts = [`curl -X ${r.method} '${location.origin}${r.path}'`];
  for (const [k, v] of headers) parts.push(`-H '${k}: ${k === "x-api-key" ? "$API_KEY" : v}'`);
  if (!headers.some(([k]) => k === "x-api-key") && r.key) parts.push(`-H 'x-api-key: $API_KEY'`);
  if (r.request.body) parts.push(`--data '${r.request.body.replace(/'/g, "'\\''")}'`);
  return parts.join(" \\\n  ");
}

function showRequest(r: Entry): void {
  const curl = curlOf(r);
  document.getElementById("detail")?.replaceChildren(
    h("h2", {}, `${r.method} ${r.path} → ${r.status} (${r.request_id})`),
    h(
      "button",
      {
        class: "act",
        "data-testid": "copy-curl",
        onclick: () => navigator.clipboard?.writeText(curl).catch(() => {}),
      },
      "Copy as curl",
    ),
    h("pre", { "data-testid": "curl" }, curl),
    h("h2", {}, "Request"),
    h("pre", {}, JSON.stringify(r.request.headers, null, 2), "\n\n", r.request.body ?? "(no body kept)"),
    h("h2", {}, "Response"),
    h(
      "pre",
      { "data-testid": "response-body" },
      JSON.stringify(r.response.headers, null, 2),
      "\n\n",
      r.response.body ?? "(bodies are kept while the dashboard is open, and for errors)",
    ),
  );
}

/** The journal's filter fields, empty. */
export const noFilter = (): Page["requestFilter"] => ({ key: "", operation: "", status: "", path: "" });
