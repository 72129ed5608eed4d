import type { Control } from "./api.ts";
import type { Lifecycles } from "./lifecycle-actions.ts";
import { h, type Child } from "./dom.ts";

// What one open page holds: the view shown, what the user typed (kept across live re-renders), the
// lifecycle tables the row buttons come from, and `run`, which performs an action and re-renders.

export type ViewName = "requests" | "webhooks" | "clock" | "keys" | "commerce" | "warehouse" | "chain" | "panels";

export interface Page {
  readonly control: Control;
  /** GET /_emulator/lifecycles, read once: the tables are the contract's, fixed while the emulator runs. */
  readonly lifecycles: Lifecycles;
  view: ViewName;
  readonly requestFilter: { key: string; operation: string; status: string; path: string };
  /** Typed chaos per webhook id. */
  readonly chaosDrafts: Record<string, string>;
  /** Grant amounts per key. */
  readonly grants: Record<string, string>;
  /** The custodial form's fields. */
  readonly custodial: Record<"account" | "user" | "usdc" | "packet", string>;
  /** The attempt whose detail is shown in the webhooks view. */
  openAttempt: number | null;
  /** Performs an action, shows its error on the status line, then re-renders. */
  run(fn: () => Promise<unknown>): Promise<void>;
}

/** A view: what the main area shows. */
export type View = (page: Page) => Promise<Child[]>;

/** A button performing `fn` through `page.run`. */
export const act = (page: Page, label: string, fn: () => Promise<unknown>, testid?: string): HTMLButtonElement =>
  h("button", { class: "act", "data-testid": testid, onclick: () => void page.run(fn) }, label);
