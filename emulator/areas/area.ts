import type { RouteSpec } from "../pipeline/route.ts";
import type { ControlSpec } from "../control/route.ts";
import type { Services } from "../pipeline/services.ts";
import { runtimeSlot } from "../pipeline/runtime.ts";

/**
 * One area of the API (catalog, credits, vision, webhooks, mystery, warehouse).
 * Areas never import each other's internals: they talk through `services.bus`.
 */
export interface Area {
  name: string;
  /** API routes under /api/v1. */
  routes: RouteSpec[];
  /** Operator actions under /_emulator. */
  control: ControlSpec[];
  /**
   * Called once per emulator: subscribe to the bus, arm workers on the clock, provide ports. Returns the
   * area's runtime in that emulator (its parts live in `services.runtime`, never in a module).
   */
  start?(services: Services): AreaRuntime;
}

/** One area's runtime in one emulator (timers, queues, ports), held by the emulator until it stops. */
export interface AreaRuntime {
  /** Unsubscribes and cancels the area's timers. */
  stop(): void;
}

/** The runtimes of the started areas, by area name, in each emulator's runtime. */
export const AREA_RUNTIMES = runtimeSlot("area runtimes", () => new Map<string, AreaRuntime>());
