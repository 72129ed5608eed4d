import { inForce, surfaceBucket, surfaceLimit, surfaceOf } from "../rate-limit.ts";
import { rateLimited, type Step } from "./context.ts";

/**
 * The key's budget on the route's surface: each surface has its own window and ceiling
 * (docs/reference/live-service.md “Rate limits and caching”); the headers show the one in force.
 */
export const surfaceBudget: Step = {
  name: "surface budget",
  run(p) {
    const key = p.key!;
    const surface = p.spec.surface ?? surfaceOf(p.spec.path);
    const decision = p.services.limiter.hit(surfaceBucket(key, surface), surfaceLimit(key, surface), p.now);
    p.keyDecision = decision;
    p.window = inForce(p.ipDecision!, decision);
    if (!decision.allowed) throw rateLimited("this API key");
  },
};
