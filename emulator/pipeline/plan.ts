import type { RouteSpec } from "./route.ts";
import { STEPS, type Step } from "./steps/index.ts";

// A route's plan: the steps of STEPS (in their order) that have anything to do on it, worked out once, when the
// pipeline first serves the route, from what the route declares (steps/context.ts `Step.on`): a GET without a
// cost takes no charge and refunds none, a route without a cache has no fresh budget. A step that `ends` where it
// runs (health, answered at once) leaves out every later step but the `always` ones. What a request carries
// (its key, a stub or a fault in force) is still each step's to look at.

export function planOf(spec: RouteSpec): readonly Step[] {
  const plan: Step[] = [];
  let ended = false;
  for (const step of STEPS) {
    if (ended && !step.always) continue;
    if (step.on && !step.on(spec)) continue;
    plan.push(step);
    if (step.ends) ended = true;
  }
  return Object.freeze(plan);
}

/** Each route's plan, made on first use (one per pipeline: nothing shared between emulators). */
export class Plans {
  readonly #byRoute = new Map<RouteSpec, readonly Step[]>();

  of(spec: RouteSpec): readonly Step[] {
    let plan = this.#byRoute.get(spec);
    if (!plan) this.#byRoute.set(spec, (plan = planOf(spec)));
    return plan;
  }
}
