import { ipBucket } from "../rate-limit.ts";
import { rateLimited, type Step } from "./context.ts";

/** The per-IP budget; its window is the one on the answer until a key is known (so a 401 carries it). */
export const ipBudget: Step = {
  name: "IP budget",
  run(p) {
    const decision = p.services.limiter.hit(ipBucket(p.ip), p.services.options.ipRateLimitPerMin, p.now);
    p.ipDecision = p.window = decision;
    if (!decision.allowed) throw rateLimited("this IP address");
  },
};
