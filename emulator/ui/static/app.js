// The dashboard: plain DOM, no build step. Every read and every action is a
// control-plane route under /_emulator (the page adds no second way to change
// state); live updates come from the server-sent events of /_emulator/ui/stream.

const main = document.getElementById("main");
const statusLine = document.getElementById("status");
const stateWarning = document.getElementById("state-warning");
const worldLine = document.getElementById("world");
let view = "requests";
const requestFilter = { key: "", operation: "", status: "", path: "" };
let requests = [];

/** A control-plane call: the envelope's data, or an Error with the envelope's message. */
async function control(method, path, body) {
  // Every write declares JSON, body or not: the control plane refuses anything else (CSRF guard).
  const res = await fetch(`/_emulator${path}`, {
    method,
    headers: method === "GET" ? {} : { "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
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
  for (const c of children.flat())
    el.append(c instanceof Node ? c : document.createTextNode(c === null || c === undefined ? "" : String(c)));
  return el;
}

/** A form field whose value lives in `state[key]`, so a live re-render keeps what the user typed or picked. */
function bound(state, key, el) {
  if (state[key]) el.value = state[key];
  else state[key] = el.value;
  const keep = () => (state[key] = el.value);
  el.addEventListener("input", keep);
  el.addEventListener("change", keep);
  return el;
}

const table = (head, rows, attrs = {}) =>
  h(
    "table",
    attrs,
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        head.map((t) => h("th", {}, t)),
      ),
    ),
    h("tbody", {}, rows),
  );
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
    h("input", {
      placeholder,
      value: requestFilter[name],
      "data-testid": `filter-${name}`,
      onchange: (e) => ((requestFilter[name] = e.target.value), render()),
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
}

function curlOf(r) {
  const headers = Object.entries(r.request.headers).filter(
    ([k]) => !["host", "content-length", "connection"].includes(k),
  );
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
    h(
      "button",
      { class: "act", "data-testid": "copy-curl", onclick: () => navigator.clipboard?.writeText(curl).catch(() => {}) },
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

async function webhooksView() {
  const [{ webhooks, event_types }, { attempts }, clock] = await Promise.all([
    control("GET", "/webhooks"),
    control("GET", "/webhooks/outbox"),
    control("GET", "/clock"),
  ]);
  const retries = clock.pending.filter((t) => t.label.startsWith("webhook delivery"));
  const select = h(
    "select",
    { "data-testid": "event-type" },
    event_types.map((t) => h("option", { value: t }, t)),
  );
  // The newest attempt of each delivery carries its Resend button.
  const newestOf = new Map();
  for (const a of attempts) newestOf.set(a.delivery_id, a.id);
  return [
    h("h2", {}, "Registered endpoints"),
    table(
      ["id", "owner", "url", "events", "active", "pending", "delivery chaos"],
      webhooks.map((w) =>
        h(
          "tr",
          {},
          h("td", {}, w.id),
          h("td", {}, w.account_id),
          h("td", {}, w.url),
          h("td", {}, (w.event_types ?? ["*"]).join(", ")),
          h("td", {}, w.is_active),
          h("td", {}, w.pending_deliveries),
          h("td", {}, chaosCell(w)),
        ),
      ),
    ),
    h(
      "div",
      { class: "actions" },
      select,
      act("Trigger event", () => control("POST", "/events", { type: select.value }), "trigger-event"),
      act("Retry due now", () => control("POST", "/webhooks/retry", {}), "retry-due"),
    ),
    h("h2", {}, "Next retries (virtual clock)"),
    table(
      ["at", "what"],
      retries.map((t) => h("tr", { "data-testid": "next-retry" }, h("td", {}, t.at), h("td", {}, t.label))),
      { "data-testid": "retries" },
    ),
    h("h2", {}, "Attempts"),
    table(
      ["at", "event", "delivery", "attempt", "url", "outcome", "status", "signature", ""],
      attempts
        .slice()
        .reverse()
        .map((a) =>
          h(
            "tr",
            {
              class: "clickable",
              "data-testid": "attempt",
              "data-outcome": a.outcome,
              "data-delivery": a.delivery_id,
              onclick: (e) => e.target.tagName !== "BUTTON" && showAttempt(a),
            },
            h("td", {}, a.at),
            h("td", {}, a.event_type),
            h("td", {}, a.delivery_id),
            h("td", {}, a.attempt),
            h("td", {}, a.url),
            h("td", {}, a.outcome),
            h("td", {}, a.response?.status ?? a.error ?? ""),
            h(
              "td",
              { class: "muted" },
              (a.request.headers["X-Mystery-Signature"] ?? a.request.headers["x-mystery-signature"] ?? "").slice(0, 24),
            ),
            h(
              "td",
              {},
              newestOf.get(a.delivery_id) === a.id
                ? act(
                    "Resend",
                    () => control("POST", "/webhooks/resend", { delivery_id: a.delivery_id }),
                    `resend-${a.delivery_id}`,
                  )
                : "",
            ),
          ),
        ),
      { "data-testid": "attempts" },
    ),
    // Kept open across live re-renders.
    h("div", { class: "detail", id: "attempt-detail" }, attemptDetail(attempts.find((a) => a.id === openAttempt))),
  ];
}

/** Typed chaos per webhook id, kept across live re-renders. */
const chaosDrafts = {};
/** A webhook's delivery chaos (docs/webhooks.md "Delivery chaos"): shown as JSON, set or cleared from here. */
function chaosCell(w) {
  const id = String(w.id);
  const input = bound(
    chaosDrafts,
    id,
    h("input", {
      placeholder: '{"duplicate":{"every":2}}',
      value: w.chaos ? JSON.stringify(w.chaos) : "",
      "data-testid": `chaos-${id}`,
    }),
  );
  const set = () => {
    let body;
    try {
      body = JSON.parse(input.value || "{}");
    } catch {
      throw new Error(`chaos for webhook ${id} is not JSON: ${input.value}`);
    }
    return control("POST", `/webhooks/${id}/chaos`, body);
  };
  const clear = () => {
    chaosDrafts[id] = "";
    return control("DELETE", `/webhooks/${id}/chaos`);
  };
  return h("span", {}, input, act("Set", set, `chaos-set-${id}`), act("Clear", clear, `chaos-clear-${id}`));
}

/** The attempt whose detail is shown in the webhooks view. */
let openAttempt = null;

function showAttempt(a) {
  openAttempt = a.id;
  document.getElementById("attempt-detail").replaceChildren(...attemptDetail(a));
}

/** One attempt whole: what was sent (signature included), what came back, and a curl replaying it. */
function attemptDetail(a) {
  if (!a) return [];
  const headers = (o) =>
    Object.entries(o ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join("\n");
  const answer = a.response
    ? `HTTP ${a.response.status}\n${headers(a.response.headers)}\n\n${a.response.body}`
    : a.error;
  return [
    h("h2", {}, `Attempt ${a.attempt} of ${a.event_id} → ${a.response?.status ?? a.error} (${a.duration_ms} ms)`),
    h(
      "button",
      {
        class: "act",
        "data-testid": "copy-attempt-curl",
        onclick: () => navigator.clipboard?.writeText(a.curl).catch(() => {}),
      },
      "Copy as curl",
    ),
    h("pre", { "data-testid": "attempt-curl" }, a.curl),
    ...(a.chaos?.length ? [h("p", { "data-testid": "attempt-chaos" }, `Chaos: ${a.chaos.join(", ")}`)] : []),
    h("h2", {}, "Sent"),
    h("pre", {}, `POST ${a.url}\n${headers(a.request.headers)}\n\n${a.request.body}`),
    h("h2", {}, "Answer"),
    h("pre", { "data-testid": "attempt-answer" }, answer),
  ];
}

async function clockView() {
  const clock = await control("GET", "/clock");
  const advance = (label, ms) => act(label, () => control("POST", "/clock/advance", { ms }), `advance-${label}`);
  const to = h("input", { placeholder: "ISO time", "data-testid": "advance-to" });
  return [
    h("h2", {}, `Virtual time ${clock.now} (${clock.mode})`),
    h(
      "div",
      { class: "actions" },
      advance("1s", 1000),
      advance("30s", 30_000),
      advance("2m", 120_000),
      advance("1h", 3_600_000),
      advance("1d", 86_400_000),
      to,
      act("Advance to", () => control("POST", "/clock/advance", { to: to.value }), "advance-to-go"),
    ),
    h(
      "div",
      { class: "actions" },
      act(
        clock.mode === "manual" ? "Switch to realtime" : "Switch to manual",
        () => control("POST", "/clock", { mode: clock.mode === "manual" ? "realtime" : "manual" }),
        "clock-mode",
      ),
    ),
    h("h2", {}, "Pending timers"),
    table(
      ["at", "what"],
      clock.pending.map((t) => h("tr", {}, h("td", {}, t.at), h("td", {}, t.label))),
      { "data-testid": "timers" },
    ),
    h("h2", {}, "Pending steered reveals"),
    await pendingReveals(),
  ];
}

/** What a steer waits for (a purchase, or the next one of a tier by an account or user) and what it yields. */
const steerRow = (area, s) =>
  h(
    "tr",
    { "data-testid": "reveal-row", "data-area": area },
    h("td", {}, area),
    h("td", {}, s.id),
    h(
      "td",
      {},
      s.purchase_id !== null
        ? `purchase ${s.purchase_id}`
        : [`tier ${s.tier_id}`, s.account_id ?? "", s.external_user_id ?? ""].filter(Boolean).join(" · "),
    ),
    h(
      "td",
      {},
      s.items.length
        ? s.items.join(", ")
        : s.band
          ? `${s.band.rarity ?? "any"} ${s.band.min_micros / 1e6}-${s.band.max_micros / 1e6} USD`
          : "",
    ),
    h("td", {}, s.created_at),
  );

/** The steered reveals waiting for their purchase (GET /_emulator/mystery/reveals and /instant/reveals; a world's `reveals:`). */
async function pendingReveals() {
  const [mystery, instant] = await Promise.all([
    control("GET", "/mystery/reveals"),
    control("GET", "/instant/reveals"),
  ]);
  return table(
    ["area", "steer", "waits for", "yields", "queued at"],
    [...mystery.pending.map((s) => steerRow("mystery", s)), ...instant.pending.map((s) => steerRow("instant", s))],
    { "data-testid": "reveals" },
  );
}

/** Grant amounts per key, kept across live re-renders. */
const grants = {};

async function keysView() {
  const { keys } = await control("GET", "/keys");
  const kind = h(
    "select",
    {},
    ["partner", "tenant", "legacy"].map((k) => h("option", { value: k }, k)),
  );
  const grant = (k) => {
    grants[k.key] ??= "1000";
    const amount = bound(
      grants,
      k.key,
      h("input", { type: "number", min: "1", class: "narrow", "data-testid": `grant-amount-${k.name ?? k.label}` }),
    );
    return [
      amount,
      act(
        "Grant",
        () => control("POST", `/credits/${encodeURIComponent(k.key)}`, { credits: Number(amount.value) }),
        `grant-${k.name ?? k.label}`,
      ),
    ];
  };
  return [
    h(
      "div",
      { class: "actions" },
      kind,
      act("Create key", () => control("POST", "/keys", { kind: kind.value }), "create-key"),
    ),
    table(
      [
        "name",
        "kind",
        "label",
        "account",
        "scopes",
        "balance",
        "free",
        "purchased",
        "used this month",
        "calls this month",
        "grant credits",
      ],
      keys.map((k) =>
        h(
          "tr",
          { "data-testid": "key-row", "data-name": k.name ?? k.label },
          h("td", {}, k.name ?? ""),
          h("td", {}, k.kind),
          h("td", {}, k.label),
          h("td", {}, k.account_id),
          h("td", { class: "muted" }, k.scopes.join(" ")),
          h("td", { "data-testid": "balance" }, k.balance ?? "—"),
          h("td", {}, k.free_credits ?? "—"),
          h("td", { "data-testid": "purchased" }, k.purchased_credits ?? "—"),
          h("td", {}, k.credits_used_this_month ?? "—"),
          h("td", {}, k.requests_this_month ?? "—"),
          h("td", {}, k.balance === undefined ? "" : grant(k)),
        ),
      ),
    ),
  ];
}

const short = (hash) => (hash ? `${hash.slice(0, 10)}…` : "—");
const hashCell = (hash) => h("td", { class: "muted", title: hash ?? "" }, short(hash));
const toggle = (label, on, path, testid) =>
  act(
    `${label}: ${on ? "on" : "off"} → turn ${on ? "off" : "on"}`,
    () => control("POST", path, { enabled: !on }),
    testid,
  );

async function commerceView() {
  const [vrf, m, inst, { events }, instant] = await Promise.all([
    control("GET", "/vrf").catch(() => null),
    control("GET", "/mystery"),
    control("GET", "/instant/purchases").catch(() => ({ purchases: [] })),
    control("GET", "/mystery/events").catch(() => ({ events: [] })),
    control("GET", "/instant").catch(() => null),
  ]);
  return [
    h("h2", {}, "Pending VRF requests"),
    vrf
      ? [
          h(
            "div",
            { class: "actions" },
            act(
              `VRF: ${vrf.mode} → ${vrf.mode === "auto" ? "manual" : "auto"}`,
              () => control("POST", "/vrf", { mode: vrf.mode === "auto" ? "manual" : "auto" }),
              "vrf-mode",
            ),
          ),
          table(
            ["request id", ""],
            vrf.pending.map((id) =>
              h(
                "tr",
                { "data-testid": "vrf-pending" },
                h("td", {}, id),
                h(
                  "td",
                  {},
                  act("Fulfil now", () => control("POST", "/vrf/fulfill", { request_id: id }), `fulfil-${id}`),
                ),
              ),
            ),
          ),
        ]
      : h("p", {}, "No chain."),
    h("h2", {}, "Operator switches"),
    h(
      "div",
      { class: "actions", "data-testid": "switches" },
      toggle("Relayer", m.relayer === "on", "/mystery/relayer", "toggle-relayer"),
      toggle("Shipping signer", m.shipping_signer === "on", "/mystery/shipping-signer", "toggle-shipping-signer"),
      instant ? toggle("Instant packs", instant.enabled, "/instant/enabled", "toggle-instant") : "",
      act(
        `Warehouse progression: ${m.warehouse_mode} → ${m.warehouse_mode === "auto" ? "manual" : "auto"}`,
        () => control("POST", "/mystery/warehouse", { mode: m.warehouse_mode === "auto" ? "manual" : "auto" }),
        "warehouse-mode",
      ),
      act("Run worker now", () => control("POST", "/mystery/worker/run", {}), "run-worker"),
    ),
    h(
      "div",
      { class: "actions" },
      Object.entries(m.kyc_required).map(([account, required]) =>
        act(
          `KYC ${account}: ${required ? "required" : "off"}`,
          () => control("POST", "/mystery/kyc", { account_id: account, required: !required }),
          `kyc-${account}`,
        ),
      ),
    ),
    h("h2", {}, "Mystery purchases"),
    table(
      ["id", "account", "custody", "status", "tier", "price", "user", "tx", "VRF request", "items", "created", ""],
      m.purchases.map((p) =>
        h(
          "tr",
          { "data-testid": "purchase-row", "data-id": p.id, "data-status": p.status },
          h("td", {}, p.id),
          h("td", {}, p.account_id),
          h("td", {}, p.custody),
          h("td", {}, p.status),
          h("td", {}, p.tier_id),
          h("td", {}, p.price_usdc),
          h("td", {}, p.external_user_id ?? ""),
          hashCell(p.transaction_hash),
          h("td", { class: "muted" }, short(p.onchain_request_id)),
          h("td", {}, p.items),
          h("td", {}, p.created_at),
          h(
            "td",
            {},
            p.status === "SUBMITTED"
              ? act("Refund", () => control("POST", `/mystery/purchases/${p.id}/refund`, {}), `refund-${p.id}`)
              : "",
          ),
        ),
      ),
      { "data-testid": "purchases" },
    ),
    h("h2", {}, "Custodial end users"),
    custodialForm(m.kyc_required, instant),
    h("h2", {}, "Instant purchases"),
    table(
      ["id", "account", "status", "packet type", "price", "tx", "cards", "created"],
      inst.purchases.map((p) =>
        h(
          "tr",
          { "data-testid": "instant-row", "data-status": p.status },
          h("td", {}, p.id),
          h("td", {}, p.account_id),
          h("td", {}, p.status),
          h("td", {}, p.packet_type_id),
          h("td", {}, p.price_usdc),
          hashCell(p.transaction_hash),
          h("td", {}, p.cards?.length ?? 0),
          h("td", {}, p.created_at),
        ),
      ),
    ),
    h("h2", {}, "Redemptions"),
    table(
      ["id", "account", "status", "token", "burn tx", "shipping paid tx", "tracking", "updated", ""],
      m.redemptions.map((r) =>
        h(
          "tr",
          { "data-testid": "redemption-row", "data-status": r.status },
          h("td", {}, r.redemption_id),
          h("td", {}, r.account_id),
          h("td", {}, r.status),
          h("td", { class: "muted" }, short(r.token_id)),
          hashCell(r.burn_tx_hash),
          hashCell(r.shipping_paid_tx_hash),
          h("td", {}, r.tracking_number ?? ""),
          h("td", {}, r.updated_at),
          h(
            "td",
            {},
            r.status === "PREPARED" && r.kyc_status === "PENDING"
              ? act(
                  "Approve KYC",
                  () => control("POST", `/mystery/redemptions/${r.redemption_id}/kyc`, { decision: "approve" }),
                  `kyc-approve-${r.redemption_id}`,
                )
              : "",
            r.status === "BURN_SUBMITTED"
              ? act(
                  "Start fulfilment",
                  () => control("POST", `/mystery/redemptions/${r.redemption_id}/start-fulfillment`, {}),
                  `start-${r.redemption_id}`,
                )
              : "",
            r.status === "IN_FULFILLMENT"
              ? act(
                  "Dispatch",
                  () => control("POST", `/mystery/redemptions/${r.redemption_id}/dispatch`, {}),
                  `dispatch-${r.redemption_id}`,
                )
              : "",
          ),
        ),
      ),
    ),
    h("h2", {}, "Buybacks"),
    table(
      ["offer", "account", "token", "status", "price", "accept tx", "created"],
      m.buybacks.map((o) =>
        h(
          "tr",
          { "data-testid": "buyback-row" },
          h("td", {}, o.offer_id),
          h("td", {}, o.account_id),
          h("td", { class: "muted" }, short(o.token_id)),
          h("td", {}, o.status),
          h("td", {}, o.price_usdc),
          hashCell(o.accept_tx_hash),
          h("td", {}, o.created_at),
        ),
      ),
    ),
    h("h2", {}, "Sell-backs"),
    table(
      ["id", "account", "seller", "tokens", "total", "tx", "sold"],
      m.sell_backs.map((b) =>
        h(
          "tr",
          { "data-testid": "sellback-row" },
          h("td", {}, b.sellback_id),
          h("td", {}, b.account_id),
          hashCell(b.seller),
          h("td", {}, b.token_ids.length),
          h("td", {}, b.total_usdc),
          hashCell(b.transaction_hash),
          h("td", {}, b.sold_at),
        ),
      ),
    ),
    h("h2", {}, "Commerce events"),
    table(
      ["at", "account", "type", "data"],
      events
        .slice()
        .reverse()
        .map((e) =>
          h(
            "tr",
            { "data-testid": "commerce-event", "data-type": e.type },
            h("td", {}, e.at),
            h("td", {}, e.account_id),
            h("td", {}, e.type),
            h("td", { class: "muted" }, JSON.stringify(e.data).slice(0, 160)),
          ),
        ),
    ),
  ];
}

/** Fund an end user's custodial balance, or make a custodial instant purchase for them (POST /_emulator/mystery/custodial/fund, /instant/custodial). */
const custodial = { account: "", user: "", usdc: "50", packet: "" };
function custodialForm(partners, instant) {
  const account = bound(
    custodial,
    "account",
    h(
      "select",
      { "data-testid": "custodial-account" },
      Object.keys(partners).map((a) => h("option", { value: a }, a)),
    ),
  );
  const user = bound(
    custodial,
    "user",
    h("input", { placeholder: "external_user_id", "data-testid": "custodial-user" }),
  );
  const usdc = bound(
    custodial,
    "usdc",
    h("input", { placeholder: "USDC", class: "narrow", "data-testid": "custodial-usdc" }),
  );
  const types = instant ? instant.packet_types.filter((t) => t.available_packs > 0) : [];
  const packet = bound(
    custodial,
    "packet",
    h(
      "select",
      { "data-testid": "custodial-packet" },
      types.map((t) => h("option", { value: t.packet_type_id }, `pack ${t.packet_type_id} (${t.price_usdc} USDC)`)),
    ),
  );
  return h(
    "div",
    { class: "actions" },
    account,
    user,
    usdc,
    act(
      "Fund",
      () =>
        control("POST", "/mystery/custodial/fund", {
          account_id: account.value,
          external_user_id: user.value,
          usdc: usdc.value,
        }),
      "custodial-fund",
    ),
    instant
      ? [
          packet,
          act(
            "Custodial instant purchase",
            () =>
              control("POST", "/instant/custodial", {
                account_id: account.value,
                external_user_id: user.value,
                packet_type_id: Number(packet.value),
              }),
            "custodial-instant",
          ),
        ]
      : "",
  );
}

/** The operator actions an order's state allows (the control routes of docs/warehouse.md). */
const ORDER_ACTIONS = { LABEL_PURCHASED: ["ship"], SHIPPED: ["deliver", "return"], RETURNED: ["scan-back"] };

async function warehouseView() {
  const { tenants } = await control("GET", "/warehouse");
  const out = [];
  for (const t of tenants) {
    out.push(
      h("h2", {}, `Tenant ${t.account_id}`),
      h(
        "p",
        { class: "muted" },
        "Cards: ",
        Object.entries(t.cards)
          .map(([s, n]) => `${s} ${n}`)
          .join(" · ") || "none",
      ),
      h(
        "div",
        { class: "actions" },
        act(
          "Fail next label",
          () => control("POST", "/warehouse/labels/fail-next", { account_id: t.account_id }),
          `fail-label-${t.account_id}`,
        ),
        act(
          "Close billing month",
          () => control("POST", "/warehouse/billing/close", { account_id: t.account_id }),
          `close-month-${t.account_id}`,
        ),
      ),
      h("h3", {}, "Orders"),
      table(
        ["order", "status", "cards", "carrier", "tracking", "updated", ""],
        t.orders.map((o) =>
          h(
            "tr",
            { "data-testid": "order-row", "data-id": o.order_id, "data-status": o.status },
            h("td", {}, o.order_id),
            h("td", {}, o.status),
            h("td", {}, o.unique_ids.length),
            h("td", {}, o.carrier ?? ""),
            h("td", {}, o.tracking_number ?? ""),
            h("td", {}, o.updated_at),
            h(
              "td",
              {},
              (ORDER_ACTIONS[o.status] ?? []).map((a) =>
                act(a, () => control("POST", `/warehouse/orders/${o.order_id}/${a}`, {}), `order-${a}-${o.order_id}`),
              ),
            ),
          ),
        ),
      ),
      h("h3", {}, "Inbound shipments"),
      table(
        ["id", "status", "expected", "received", "carrier", "tracking", ""],
        t.inbound_shipments.map((s) =>
          h(
            "tr",
            { "data-testid": "inbound-row" },
            h("td", {}, s.inbound_shipment_id),
            h("td", {}, s.status),
            h("td", {}, s.expected_card_count),
            h("td", {}, s.received_unique_ids?.length ?? 0),
            h("td", {}, s.carrier ?? ""),
            h("td", {}, s.tracking_number ?? ""),
            h(
              "td",
              {},
              s.status === "ANNOUNCED"
                ? act(
                    "Receive",
                    () => control("POST", `/warehouse/inbound-shipments/${s.inbound_shipment_id}/receive`, {}),
                    `receive-${s.inbound_shipment_id}`,
                  )
                : "",
            ),
          ),
        ),
      ),
      h("h3", {}, "Withdrawals"),
      table(
        ["id", "status", "method", "cards", "created", ""],
        t.withdrawals.map((w) =>
          h(
            "tr",
            { "data-testid": "withdrawal-row" },
            h("td", {}, w.withdrawal_id),
            h("td", {}, w.status),
            h("td", {}, w.method),
            h("td", {}, w.unique_ids.length),
            h("td", {}, w.created_at),
            h(
              "td",
              {},
              w.status === "REQUESTED"
                ? act(
                    "Complete",
                    () => control("POST", `/warehouse/withdrawals/${w.withdrawal_id}/complete`, {}),
                    `complete-${w.withdrawal_id}`,
                  )
                : "",
            ),
          ),
        ),
      ),
      h("h3", {}, "Exceptions"),
      table(
        ["id", "kind", "status", "message", "created", ""],
        t.exceptions.map((e) =>
          h(
            "tr",
            { "data-testid": "exception-row" },
            h("td", {}, e.exception_id),
            h("td", {}, e.kind),
            h("td", {}, e.status),
            h("td", {}, e.message),
            h("td", {}, e.created_at),
            h(
              "td",
              {},
              e.status === "OPEN"
                ? act(
                    "Resolve",
                    () => control("POST", `/warehouse/exceptions/${e.exception_id}/resolve`, {}),
                    `resolve-${e.exception_id}`,
                  )
                : "",
            ),
          ),
        ),
      ),
    );
  }
  return out.length ? out : [h("p", {}, "No tenant has used the warehouse yet.")];
}

async function chainView() {
  const chain = await control("GET", "/chain").catch(() => null);
  if (!chain) return [h("p", {}, "The emulator runs without its chain (--no-chain).")];
  const [{ accounts }, { blocks }] = await Promise.all([
    control("GET", "/chain/balances"),
    control("GET", "/chain/blocks"),
  ]);
  return [
    h("p", {}, `JSON-RPC ${chain.rpcUrl ?? "(in-process)"} · chain id ${chain.chainId}`),
    h("h2", {}, "Balances"),
    table(
      ["label", "kind", "address", "ETH", "USDC"],
      accounts.map((a) =>
        h(
          "tr",
          { "data-testid": "balance-row", "data-label": a.label },
          h("td", {}, a.label),
          h("td", {}, a.kind),
          h("td", { class: "muted" }, a.address),
          h("td", {}, a.eth),
          h("td", { "data-testid": "usdc" }, a.usdc),
        ),
      ),
    ),
    h("h2", {}, "Latest blocks"),
    table(
      ["number", "time", "transactions", "gas used", "hash"],
      blocks.map((b) =>
        h(
          "tr",
          { "data-testid": "block-row" },
          h("td", {}, b.number),
          h("td", {}, b.timestamp),
          h("td", { title: b.transactions.join("\n") }, b.transactions.length),
          h("td", {}, b.gas_used),
          hashCell(b.hash),
        ),
      ),
    ),
  ];
}

const figure = (f) => h("span", { class: "figure" }, `${f.label}: `, h("strong", {}, f.value), " ");
const panelRow = (r) =>
  h(
    "tr",
    { "data-testid": "panel-row", "data-tone": r.tone, class: r.tone === "bad" ? "bad" : "" },
    r.cells.map((c) => h("td", {}, c)),
  );

/** Reports published by a tool composing the emulator (npx emulator shadow: its drift report), as they were sent. */
async function panelsView() {
  const { panels } = await control("GET", "/panels");
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
}

const VIEWS = {
  requests: requestsView,
  webhooks: webhooksView,
  clock: clockView,
  keys: keysView,
  commerce: commerceView,
  warehouse: warehouseView,
  chain: chainView,
  panels: panelsView,
};

/**
 * The header's summary from GET /_emulator/health: the loaded world (`world`: its file, or "(world option)")
 * and a failing --state file write (`state_file`): unsaved changes must not go unnoticed.
 */
async function showHealth() {
  const { state_file: f, world } = await control("GET", "/health");
  const text = f && !f.ok ? `State file not saved: ${f.error}` : "";
  if (stateWarning.textContent !== text) stateWarning.textContent = text;
  const loaded = world ? `World: ${world.file}` : "No world";
  if (worldLine.textContent !== loaded) worldLine.textContent = loaded;
  worldLine.title = world ? `${world.accounts} accounts; keys: ${world.keys.join(", ") || "none"}` : "";
}

async function render() {
  await showHealth();
  const shown = view;
  const next = document.createElement("main");
  next.replaceChildren(...(await VIEWS[shown]()).flat(Infinity));
  // The user moved to another tab meanwhile: that tab's render owns the page. Without this a slow render
  // of the tab just left could land after the new tab's and show the old view again (seen under load).
  if (shown !== view) return;
  // Nothing changed: keep the page as it is (no flicker, no button swapped away under a click).
  if (main.dataset.view === shown && next.innerHTML === main.innerHTML) return;
  main.replaceChildren(...next.childNodes);
  main.dataset.view = shown;
}

for (const b of document.querySelectorAll("#tabs button"))
  b.addEventListener("click", () => {
    view = b.dataset.view;
    for (const o of document.querySelectorAll("#tabs button")) o.classList.toggle("active", o === b);
    run(async () => {});
  });

// Live updates: a new API call re-renders the views that show what calls change
// (journal, keys, commerce, warehouse); a clock move updates the header and the
// time-based views. Re-renders coalesce, and wait while the user is typing.
const LIVE_ON_REQUEST = new Set(["requests", "keys", "commerce", "warehouse"]);
const LIVE_ON_CLOCK = new Set(["clock", "webhooks", "commerce", "warehouse"]);
let refreshQueued = false;
function refresh(views) {
  if (!views.has(view) || refreshQueued) return;
  const typing = ["INPUT", "SELECT"].includes(document.activeElement?.tagName);
  refreshQueued = true;
  setTimeout(() => {
    refreshQueued = false;
    if (typing && ["INPUT", "SELECT"].includes(document.activeElement?.tagName)) return;
    run(async () => {});
  }, 150);
}
const events = new EventSource("/_emulator/ui/stream");
const clockEl = document.getElementById("clock");
events.addEventListener("hello", (e) => {
  clockEl.textContent = JSON.parse(e.data).now;
  document.body.dataset.live = "1";
  // Calls made before the stream opened are in the journal: show them.
  run(async () => {});
});
events.addEventListener("request", () => refresh(LIVE_ON_REQUEST));
events.addEventListener("panel", () => refresh(new Set(["panels"])));
events.addEventListener("clock", (e) => {
  const c = JSON.parse(e.data);
  clockEl.textContent = `${c.now} (${c.mode})`;
  refresh(LIVE_ON_CLOCK);
});

run(async () => {});
