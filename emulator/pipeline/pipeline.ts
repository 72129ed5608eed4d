import type { Services } from "./services.ts";
import { ResponseCache } from "./response-cache.ts";
import { stubsOf } from "./stubs.ts";
import { PipelineContext, type PipelineInput, type PipelineShared } from "./steps/context.ts";
import { Plans } from "./plan.ts";

export type { PipelineInput } from "./steps/context.ts";

// The request pipeline (route match happens in app.ts before this runs): one context object per
// request through the steps of steps/index.ts, in the order docs/architecture.md “Request flow” shows,
// those of them the route needs (its plan, plan.ts). A step answers by setting the context's reply (or
// response) and refuses by throwing; either way only the `always` steps run after it (the refund and the answer).

export function createPipeline(services: Services) {
  const shared: PipelineShared = { services, cache: new ResponseCache(), stubs: stubsOf(services) };
  const plans = new Plans();
  // A reset, restore or import replaces what the cached answers were computed from, and the timeline the
  // rate-limit windows counted (a key minted again after a restore has the value of one minted before it).
  services.bus.on("state.replaced", () => {
    shared.cache.clear();
    services.limiter.clear();
  });
  return async function run(input: PipelineInput): Promise<Response> {
    const p = new PipelineContext(shared, input);
    const plan = plans.of(input.spec);
    try {
      for (const step of plan) {
        if (p.answered && !step.always) continue;
        const pending = step.run(p);
        if (pending) await pending;
      }
    } catch (thrown) {
      // A step refused (or failed): the `always` steps report it (one of them failing here ends the request).
      p.fail(thrown);
      for (const step of plan) {
        if (!step.always) continue;
        const pending = step.run(p);
        if (pending) await pending;
      }
    } finally {
      p.release?.();
    }
    return p.response!;
  };
}
