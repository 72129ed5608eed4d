import type { Answer } from "./api.ts";
import { bound, h, table, type Child } from "./dom.ts";
import { act, type Page, type View } from "./page.ts";

// The Webhooks view: registered endpoints with their delivery chaos, triggering an event, the retries the
// virtual clock holds, and every attempt whole (what was sent, what came back, a curl replaying it).

type Webhook = Answer<"webhooks", "get">["webhooks"][number];
type Attempt = Answer<"webhooks", "outbox">["attempts"][number];

export const webhooksView: View = async (page) => {
  const [{ webhooks, event_types }, { attempts }, clock] = await Promise.all([
    page.control.webhooks.get(),
    page.control.webhooks.outbox(),
    page.control.clock.get(),
  ]);
  const retries = clock.pending.filter((t) => t.label.startsWith("webhook delivery"));
  const select = h(
    "select",
    { "data-testid": "event-type" },
    event_types.map((t) => h("option", { value: t }, t)),
  );
  // The newest attempt of each delivery carries its Resend button (a resend is allowed from every status of a
  // delivery: the attempts list carries no delivery status to read the table by).
  const newestOf = new Map<number, number>();
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
          h("td", {}, chaosCell(page, w)),
        ),
      ),
    ),
    h(
      "div",
      { class: "actions" },
      select,
      act(page, "Trigger event", () => page.control.events.trigger({ type: select.value }), "trigger-event"),
      act(page, "Retry due now", () => page.control.webhooks.retry({}), "retry-due"),
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
              onclick: (e: Event) => (e.target as Element).tagName !== "BUTTON" && showAttempt(page, a),
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
                    page,
                    "Resend",
                    () => page.control.webhooks.resend({ delivery_id: a.delivery_id }),
                    `resend-${a.delivery_id}`,
                  )
                : "",
            ),
          ),
        ),
      { "data-testid": "attempts" },
    ),
    // Kept open across live re-renders.
    h("div", { class: "detail", id: "attempt-detail" }, attemptDetail(attempts.find((a) => a.id === page.openAttempt))),
  ];
};

/** A webhook's delivery chaos (docs/webhooks.md "Delivery chaos"): shown as JSON, set or cleared from here. */
function chaosCell(page: Page, w: Webhook): HTMLElement {
  const id = String(w.id);
  const input = bound(
    page.chaosDrafts,
    id,
    h("input", {
      placeholder: '{"duplicate":{"every":2}}',
      value: w.chaos ? JSON.stringify(w.chaos) : "",
      "data-testid": `chaos-${id}`,
    }),
  );
  const set = () => {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(input.value || "{}") as Record<string, unknown>;
    } catch {
      throw new Error(`chaos for webhook ${id} is not JSON: ${input.value}`);
    }
    return page.control.webhooks.setChaos({ ...body, id });
  };
  const clear = () => {
    page.chaosDrafts[id] = "";
    return page.control.webhooks.clearChaos({ id });
  };
  return h("span", {}, input, act(page, "Set", set, `chaos-set-${id}`), act(page, "Clear", clear, `chaos-clear-${id}`));
}

function showAttempt(page: Page, a: Attempt): void {
  page.openAttempt = a.id;
  document.getElementById("attempt-detail")?.replaceChildren(...(attemptDetail(a) as Node[]));
}

/** One attempt whole: what was sent (signature included), what came back, and a curl replaying it. */
function attemptDetail(a: Attempt | undefined): Child[] {
  if (!a) return [];
  const headers = (o: Record<string, string> | null | undefined) =>
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
