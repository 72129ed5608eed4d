import type { ViewName } from "./page.ts";

// Live updates from the server-sent events of /_emulator/ui/stream: a new API call re-renders the views that
// show what calls change (journal, keys, commerce, warehouse); a clock move updates the header and the
// time-based views; a published panel, the Reports view. Re-renders coalesce, and wait while the user is typing.

const LIVE_ON_REQUEST: ReadonlySet<ViewName> = new Set(["requests", "keys", "commerce", "warehouse"]);
const LIVE_ON_CLOCK: ReadonlySet<ViewName> = new Set(["clock", "webhooks", "commerce", "warehouse"]);
const LIVE_ON_PANEL: ReadonlySet<ViewName> = new Set(["panels"]);

/** The stream's URL: a GET control route answering text/event-stream, not a JSON one of the client's table. */
const STREAM = "/_emulator/ui/stream";

const typing = () => ["INPUT", "SELECT"].includes(document.activeElement?.tagName ?? "");

/**
 * Opens the stream. `hello` (the stream is open) sets the clock and marks the page live (`body[data-live]`,
 * the signal the browser tests wait for) and renders once; the other events re-render the view shown when
 * it is one they change.
 */
export function listen(page: { view: ViewName; rerender(): void }, clock: HTMLElement): EventSource {
  let queued = false;
  const refresh = (views: ReadonlySet<ViewName>) => {
    if (!views.has(page.view) || queued) return;
    const wasTyping = typing();
    queued = true;
    setTimeout(() => {
      queued = false;
      if (wasTyping && typing()) return;
      page.rerender();
    }, 150);
  };
  const events = new EventSource(STREAM);
  events.addEventListener("hello", (e) => {
    clock.textContent = (JSON.parse((e as MessageEvent<string>).data) as { now: string }).now;
    document.body.dataset.live = "1";
    // Calls made before the stream opened are in the journal: show them.
    page.rerender();
  });
  events.addEventListener("request", () => refresh(LIVE_ON_REQUEST));
  events.addEventListener("panel", () => refresh(LIVE_ON_PANEL));
  events.addEventListener("clock", (e) => {
    const c = JSON.parse((e as MessageEvent<string>).data) as { now: string; mode: string };
    clock.textContent = `${c.now} (${c.mode})`;
    refresh(LIVE_ON_CLOCK);
  });
  return events;
}
