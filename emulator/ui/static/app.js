// The dashboard: plain DOM, no build step. Every read and every action is a
// control-plane route under /_emulator (the page adds no second way to change
// state); live updates come from the server-sent events of /_emulator/ui/stream.

const main = document.getElementById("main");
const statusLine = document.getElementById("status");
let view = "requests";
const requestFilter = { key: "", status: "", path: "" };
let requests = [];

/** A control-plane call: the envelope's data, or an Error with the envelope's message. */
async function control(method, path, body) {
  const res = await fetch(`/_emulator${path}`, { method, headers: body ? { "content-type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json();
  if (!json.success) throw new Error(`${json.error}: ${json.message}`);
  return json.data;
}

/** An element from a tag, attributes and children (strings become text). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) el.append(c instanceof Node ? c : document.createTextNode(c === null || c === undefined ? "" : String(c)));
  return el;
}

const table = (head, rows, attrs = {}) => h("table", attrs, h("thead", {}, h("tr", {}, head.map((t) => h("th", {}, t)))), h("tbody", {}, rows));
const act = (label, fn, testid) => h("button", { class: "act", "data-testid": testid, onclick: () => run(fn) }, label);

async function run(fn) {
  try {
    statusLine.textContent = "…";
    await fn();
    statusLine.textContent = "";
    await render();
  } catch (err) {
    statusLine.textContent = String(err.message ?? err);
  }
}

// ---------------------------------------------------------------- views

async function requestsView() {
  const q = new URLSearchParams(Object.entries(requestFilter).filter(([, v]) => v));
  requests = (await control("GET", `/requests?${q}`)).requests;
  const input = (name, placeholder) =>
    h("input", { placeholder, value: requestFilter[name], "data-testid": `filter-${name}`, onchange: (e) => ((requestFilter[name] = e.target.value), render()) });
  const rows = requests.map((r) =>
    h(
      "tr",
      { class: "clickable", "data-testid": "request-row", "data-id": r.id, onclick: () => showRequest(r) },
      h("td", {}, r.at.slice(11, 23)),
      h("td", {}, r.method),
      h("td", {}, r.path),
      h("td", {}, r.key_label ?? r.key ?? "—"),
      h("td", { class: `s${String(r.status)[0]}` }, r.status),
      h("td", {}, r.error ?? ""),
      h("td", { "data-testid": "credits" }, r.credits_cost ?? "—"),
      h("td", {}, r.credits_remaining ?? "—"),
      h("td", {}, r.rate_limit_remaining ?? "—"),
      h("td", {}, `${r.latency_ms} ms`),
    ),
  );
  return [
    h("div", { class: "filters" }, input("key", "key label"), input("status", "status (404, 4xx)"), input("path", "path contains")),
    table(["time (virtual)", "method", "path", "key", "status", "error", "credits", "remaining", "rate left", "latency"], rows, { "data-testid": "requests" }),
    h("div", { class: "detail", id: "detail" }),
  ];
}

function curlOf(r) {
  const headers = Object.entries(r.request.headers).filter(([k]) => !["host", "content-length", "connection"].includes(k));
  const parts = [`curl -X ${r.method} '${location.origin}${r.path}'`];
  for (const [k, v] of headers) parts.push(`-H '${k}: ${k === "x-api-key" ? "$API_KEY" : v}'`);
  if (!headers.some(([k]) => k === "x-api-key") && r.key) parts.push(`-H 'x-api-key: $API_KEY'`);
  if (r.request.body) parts.push(`--data '${r.request.body.replace(/'/g, "'\\''")}'`);
  return parts.join(" \\\n  ");
}

function showRequest(r) {
  const detail = document.getElementById("detail");
  const curl = curlOf(r);
  detail.replaceChildren(
    h("h2", {}, `${r.method} ${r.path} → ${r.status} (${r.request_id})`),
    h("button", { class: "act", "data-testid": "copy-curl", onclick: () => navigator.clipboard?.writeText(curl).catch(() => {}) }, "Copy as curl"),
    h("pre", { "data-testid": "curl" }, curl),
    h("h2", {}, "Request"),
    h("pre", {}, JSON.stringify(r.request.headers, null, 2), "\n\n", r.request.body ?? "(no body kept)"),
    h("h2", {}, "Response"),
    h("pre", { "data-testid": "response-body" }, JSON.stringify(r.response.headers, null, 2), "\n\n", r.response.body ?? "(bodies are kept while the dashboard is open, and for errors)"),
  );
}

async function webhooksView() {
  const [{ webhooks }, { attempts }, clock] = await Promise.all([control("GET", "/webhooks"), control("GET", "/webhooks/outbox"), control("GET", "/clock")]);
  const retries = clock.pending.filter((t) => t.label.startsWith("webhook delivery"));
  const select = h("select", { "data-testid": "event-type" }, ["purchase.fulfilled", "purchase.reserved", "redemption.updated", "buyback.confirmed", "deposit.credited", "order.shipped"].map((t) => h("option", { value: t }, t)));
  return [
    h("h2", {}, "Registered endpoints"),
    table(["id", "owner", "url", "events", "active", "pending"], webhooks.map((w) => h("tr", {}, h("td", {}, w.id), h("td", {}, w.account_id), h("td", {}, w.url), h("td", {}, (w.event_types ?? ["*"]).join(", ")), h("td", {}, w.is_active), h("td", {}, w.pending_deliveries)))),
    h("div", { class: "actions" }, select, act("Trigger event", () => control("POST", "/events", { type: select.value }), "trigger-event"), act("Retry due now", () => control("POST", "/webhooks/retry", {}), "retry-due")),
    h("h2", {}, "Next retries (virtual clock)"),
    table(["at", "what"], retries.map((t) => h("tr", { "data-testid": "next-retry" }, h("td", {}, t.at), h("td", {}, t.label))), { "data-testid": "retries" }),
    h("h2", {}, "Attempts"),
    table(
      ["at", "event", "delivery", "attempt", "url", "outcome", "status", "signature"],
      attempts.slice().reverse().map((a) =>
        h("tr", { "data-testid": "attempt", "data-outcome": a.outcome }, h("td", {}, a.at), h("td", {}, a.event_type), h("td", {}, a.delivery_id), h("td", {}, a.attempt), h("td", {}, a.url), h("td", {}, a.outcome), h("td", {}, a.response?.status ?? a.error ?? ""), h("td", { class: "muted" }, (a.request.headers["X-Mystery-Signature"] ?? a.request.headers["x-mystery-signature"] ?? "").slice(0, 24))),
      ),
      { "data-testid": "attempts" },
    ),
  ];
}

async function clockView() {
  const clock = await control("GET", "/clock");
  const advance = (label, ms) => act(label, () => control("POST", "/clock/advance", { ms }), `advance-${label}`);
  const to = h("input", { placeholder: "ISO time", "data-testid": "advance-to" });
  return [
    h("h2", {}, `Virtual time ${clock.now} (${clock.mode})`),
    h("div", { class: "actions" }, advance("1s", 1000), advance("30s", 30_000), advance("2m", 120_000), advance("1h", 3_600_000), advance("1d", 86_400_000), to, act("Advance to", () => control("POST", "/clock/advance", { to: to.value }), "advance-to-go")),
    h("div", { class: "actions" }, act(clock.mode === "manual" ? "Switch to realtime" : "Switch to manual", () => control("POST", "/clock", { mode: clock.mode === "manual" ? "realtime" : "manual" }), "clock-mode")),
    h("h2", {}, "Pending timers"),
    table(["at", "what"], clock.pending.map((t) => h("tr", {}, h("td", {}, t.at), h("td", {}, t.label))), { "data-testid": "timers" }),
  ];
}

async function keysView() {
  const { keys } = await control("GET", "/keys");
  const kind = h("select", {}, ["partner", "tenant", "legacy"].map((k) => h("option", { value: k }, k)));
  return [
    h("div", { class: "actions" }, kind, act("Create key", () => control("POST", "/keys", { kind: kind.value }), "create-key")),
    table(["name", "kind", "label", "account", "scopes", "balance", "free", "purchased"], keys.map((k) => h("tr", {}, h("td", {}, k.name ?? ""), h("td", {}, k.kind), h("td", {}, k.label), h("td", {}, k.account_id), h("td", { class: "muted" }, k.scopes.join(" ")), h("td", {}, k.balance ?? "—"), h("td", {}, k.free_credits ?? "—"), h("td", {}, k.purchased_credits ?? "—")))),
  ];
}

async function commerceView() {
  const vrf = await control("GET", "/vrf").catch(() => null);
  const { events } = await control("GET", "/mystery/events").catch(() => ({ events: [] }));
  return [
    h("h2", {}, "Pending VRF requests"),
    vrf ? table(["request id", ""], vrf.pending.map((id) => h("tr", { "data-testid": "vrf-pending" }, h("td", {}, id), h("td", {}, act("Fulfil now", () => control("POST", "/vrf/fulfill", { request_id: id }), `fulfil-${id}`))))) : h("p", {}, "No chain."),
    h("div", { class: "actions" }, act("Relayer off", () => control("POST", "/mystery/relayer", { enabled: false }), "relayer-off"), act("Relayer on", () => control("POST", "/mystery/relayer", { enabled: true }), "relayer-on"), act("Run worker now", () => control("POST", "/mystery/worker/run", {}), "run-worker")),
    h("h2", {}, "Commerce events (purchases, redemptions, buybacks, sell-backs)"),
    table(["at", "account", "type", "data"], events.slice().reverse().map((e) => h("tr", { "data-testid": "commerce-event", "data-type": e.type }, h("td", {}, e.at), h("td", {}, e.account_id), h("td", {}, e.type), h("td", { class: "muted" }, JSON.stringify(e.data).slice(0, 160))))),
  ];
}

async function warehouseView() {
  const exceptionKind = h("input", { placeholder: "order id" });
  return [
    h("p", { class: "muted" }, "Operator actions on warehouse orders (ship, deliver, return) by id:"),
    h("div", { class: "actions" }, exceptionKind, ...["ship", "deliver", "return"].map((a) => act(a, () => control("POST", `/warehouse/orders/${exceptionKind.value}/${a}`, {}), `order-${a}`))),
  ];
}

async function chainView() {
  const chain = await control("GET", "/chain").catch(() => null);
  if (!chain) return [h("p", {}, "The emulator runs without its chain (--no-chain).")];
  return [
    h("p", {}, `JSON-RPC ${chain.rpcUrl ?? "(in-process)"} · chain id ${chain.chainId}`),
    h("h2", {}, "Contracts"),
    table(["name", "address"], Object.entries(chain.contracts).map(([k, v]) => h("tr", {}, h("td", {}, k), h("td", {}, v)))),
    h("h2", {}, "Funded accounts"),
    table(["label", "address"], chain.accounts.map((a) => h("tr", {}, h("td", {}, a.label), h("td", {}, a.address)))),
  ];
}

const VIEWS = { requests: requestsView, webhooks: webhooksView, clock: clockView, keys: keysView, commerce: commerceView, warehouse: warehouseView, chain: chainView };

async function render() {
  const content = await VIEWS[view]();
  main.replaceChildren(...content);
  main.dataset.view = view;
}

for (const b of document.querySelectorAll("#tabs button"))
  b.addEventListener("click", () => {
    view = b.dataset.view;
    for (const o of document.querySelectorAll("#tabs button")) o.classList.toggle("active", o === b);
    run(async () => {});
  });

// Live updates: a new API call re-renders the requests view; a clock move updates the header and the time-based views.
const events = new EventSource("/_emulator/ui/stream");
const clockEl = document.getElementById("clock");
events.addEventListener("hello", (e) => {
  clockEl.textContent = JSON.parse(e.data).now;
  document.body.dataset.live = "1";
  // Calls made before the stream opened are in the journal: show them.
  if (view === "requests") run(async () => {});
});
events.addEventListener("request", () => view === "requests" && run(async () => {}));
events.addEventListener("clock", (e) => {
  const c = JSON.parse(e.data);
  clockEl.textContent = `${c.now} (${c.mode})`;
  if (view === "clock" || view === "webhooks") run(async () => {});
});

run(async () => {});
