import type { Area } from "../area.ts";
import { instantControl } from "./control.ts";
import { instantRoutes } from "./routes.ts";
import { startInstantWorker } from "./worker.ts";
import { instantSteerControl, startInstantSteering } from "./steer.ts";

// Instant packs (docs/reference/sdk-shapes.md “Instant pack methods”, docs/reference/live-service.md “Instant packs”): a booster pack bought
// and opened in one transaction on the local chain's InstantPack store, the
// bundle drawn by VRF. See docs/instant.md.
export const instantArea: Area = {
  name: "instant",
  routes: instantRoutes,
  control: [...instantControl, ...instantSteerControl],
  start: (s) => {
    const stopWorker = startInstantWorker(s);
    const stopSteering = startInstantSteering(s);
    return {
      stop: () => {
        stopSteering();
        stopWorker();
      },
    };
  },
};

/** Instant sales for the revenue routes of the mystery area (only through this face). */
export { instantSales } from "./purchases.ts";
