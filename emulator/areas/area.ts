import type { RouteSpec } from "../pipeline/route.ts";
import type { ControlSpec } from "../control/route.ts";
import type { Services } from "../pipeline/services.ts";

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
  /** Called once per emulator: subscribe to the bus, arm workers on the clock. Returns a stop function. */
  start?(services: Services): void | (() => void);
}
