import type { Step } from "./context.ts";

/** The interface: "an integration issue is opened automatically for warehouse 500s", whatever caused them. */
export const integrationIssue: Step = {
  name: "integration issue",
  always: true,
  on: (spec) => spec.envelope === "warehouse",
  run(p) {
    if (p.error?.status !== 500 || !p.key) return;
    p.services.bus.emit("warehouse.internal_error", {
      account_id: p.key.account_id,
      method: p.spec.method,
      path: p.target.pathname,
      at: p.services.clock.nowIso(),
    });
  },
};
