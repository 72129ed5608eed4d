import { ApiError } from "../errors.ts";
import type { Step } from "./context.ts";

/** The route's concurrency gate (pipeline/concurrency.ts): 503 overloaded when full; left when the request is done. */
export const concurrencyGate: Step = {
  name: "concurrency gate",
  on: (spec) => Boolean(spec.gate),
  run(p) {
    p.release = p.services.gates.tryEnter(p.spec.gate!);
    if (!p.release)
      throw new ApiError(503, "overloaded", "The endpoint is at its concurrency limit; retry in a second", {
        retryable: true,
        headers: { "Retry-After": "1" },
      });
  },
};
