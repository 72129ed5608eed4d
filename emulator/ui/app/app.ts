import { controlClient, type Control } from "./api.ts";
import { flat } from "./dom.ts";
import { chainView } from "./chain.ts";
import { clockView } from "./clock.ts";
import { commerceView } from "./commerce.ts";
import { keysView } from "./keys.ts";
import { listen } from "./live.ts";
import type { Page, View, ViewName } from "./page.ts";
import { panelsView } from "./panels.ts";
import { noFilter, requestsView } from "./requests.ts";
import { warehouseView } from "./warehouse.ts";
import { webhooksView } from "./webhooks.ts";

// The dashboard's entry (index.html calls `start()`): plain DOM. Every read and every action is a control-plane
// route under /_emulator (the page adds no second way to change state); the row buttons come from the lifecycle
// tables the control plane serves; live updates from the server-sent events of /_emulator/ui/stream.

const VIEWS: Readonly<Record<ViewName, View>> = Object.freeze({
  requests: requestsView,
  webhooks: webhooksView,
  clock: clockView,
  keys: keysView,
  commerce: commerceView,
  warehouse: warehouseView,
  chain: chainView,
  panels: panelsView,
});

const byId = (id: string): HTMLElement => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
};

/**
 * The header's summary from GET /_emulator/health: the loaded world (`world`: its file, or "(world option)")
 * and a failing --state file write (`state_file`): unsaved changes must not go unnoticed.
 */
async function showHealth(control: Control): Promise<void> {
  const { state_file: f, world } = await control.health.get();
  const stateWarning = byId("state-warning");
  const worldLine = byId("world");
  const text = f && !f.ok ? `State file not saved: ${f.error}` : "";
  if (stateWarning.textContent !== text) stateWarning.textContent = text;
  const loaded = world ? `World: ${world.file}` : "No world";
  if (worldLine.textContent !== loaded) worldLine.textContent = loaded;
  worldLine.title = world ? `${world.accounts} accounts; keys: ${world.keys.join(", ") || "none"}` : "";
}

/** Starts the page: reads the lifecycle tables, wires the tabs, opens the live stream and renders. */
export async function start(): Promise<void> {
  const main = byId("main");
  const statusLine = byId("status");
  const control = controlClient();
  const { lifecycles } = await control.lifecycles.get();

  async function render(): Promise<void> {
    await showHealth(control);
    const shown = page.view;
    const next = document.createElement("main");
    next.replaceChildren(...flat(await VIEWS[shown](page)));
    // The user moved to another tab meanwhile: that tab's render owns the page. Without this a slow render
    // of the tab just left could land after the new tab's and show the old view again (seen under load).
    if (shown !== page.view) return;
    // Nothing changed: keep the page as it is (no flicker, no button swapped away under a click).
    if (main.dataset.view === shown && next.innerHTML === main.innerHTML) return;
    main.replaceChildren(...next.childNodes);
    main.dataset.view = shown;
  }

  const page: Page = {
    control,
    lifecycles,
    view: "requests",
    requestFilter: noFilter(),
    chaosDrafts: {},
    grants: {},
    custodial: { account: "", user: "", usdc: "50", packet: "" },
    openAttempt: null,
    async run(fn) {
      try {
        statusLine.textContent = "…";
        await fn();
        statusLine.textContent = "";
        await render();
      } catch (err) {
        statusLine.textContent = err instanceof Error ? err.message : String(err);
      }
    },
  };
  const rerender = () => void page.run(async () => {});

  const tabs = [...document.querySelectorAll<HTMLButtonElement>("#tabs button")];
  for (const b of tabs)
    b.addEventListener("click", () => {
      page.view = b.dataset.view as ViewName;
      for (const o of tabs) o.classList.toggle("active", o === b);
      rerender();
    });

  listen(
    {
      get view() {
        return page.view;
      },
      rerender,
    },
    byId("clock"),
  );
  rerender();
}
