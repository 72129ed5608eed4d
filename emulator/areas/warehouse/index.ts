import type { Area } from "../area.ts";
import { infoRoute } from "./info.ts";
import { inventoryRoutes } from "./inventory-routes.ts";
import { orderRoutes } from "./order-routes.ts";
import { handoverRoutes } from "./handover-routes.ts";
import { inboundRoutes } from "./inbound-routes.ts";
import { billingRoutes } from "./billing-routes.ts";
import { warehouseControl } from "./control.ts";
import { overviewControl } from "./control-overview.ts";
import { tenantOf } from "./state.ts";
import { rearm, startLabelTimers } from "./timers.ts";
import { finishLabel } from "./orders.ts";
import { COUNTERS } from "../../state/ids.ts";

// The warehouse for tenants (docs/reference/api-rules.md “Warehouse endpoints”): inventory sweeps, quotes
// and orders, returns, handovers (withdrawals, transfers), inbound shipments, billing and SLA. Paths the
// interface does not show are listed in docs/warehouse.md.

export const warehouseArea: Area = {
  name: "warehouse",
  routes: [infoRoute, ...inventoryRoutes, ...orderRoutes, ...handoverRoutes, ...inboundRoutes, ...billingRoutes],
  control: [...overviewControl, ...warehouseControl],
  start(services) {
    const offError = services.bus.on("warehouse.internal_error", (e) => {
      // Every warehouse 500 opens an integration issue the tenant can see.
      try {
        const t = tenantOf(services, e.account_id);
        t.issues.push({
          issue_id: services.store.nextId(COUNTERS.warehouseIssue),
          kind: "internal_error",
          status: "OPEN",
          method: e.method,
          path: e.path,
          message: `An unexpected error answered ${e.method} ${e.path} with 500; the warehouse team has been notified`,
          opened_at: e.at,
        });
      } catch (err) {
        console.error("[emulator] could not open a warehouse integration issue:", err);
      }
    });
    // An emulator started from a state file may have label purchases in flight: armed here, and on every replace.
    const labels = startLabelTimers(services, finishLabel);
    const offReplaced = services.bus.on("state.replaced", () => rearm(services));
    return {
      labels,
      stop() {
        offError();
        offReplaced();
      },
    };
  },
};
