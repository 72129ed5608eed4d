import { freshWindow, inForce } from "../rate-limit.ts";
import { isFresh } from "../response-cache.ts";
import { rateLimited, type Step } from "./context.ts";

/** `fresh=true` recomputes a cached read, on its own budget (10/min/key, then 429 rate_limited). */
export const freshBudget: Step = {
  name: "fresh budget",
  on: (spec) => spec.cache !== undefined,
  run(p) {
    p.fresh = p.target.hasQuery && isFresh(p.target.url);
    if (!p.fresh) return;
    const budget = freshWindow(p.key!);
    const decision = p.services.limiter.hit(budget.bucket, budget.limit, p.now);
    p.window = inForce(p.ipDecision!, p.keyDecision!, decision);
    if (!decision.allowed) throw rateLimited("fresh=true on this API key (10 per minute)");
  },
};
