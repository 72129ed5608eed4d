import { own } from "../../state/own.ts";
import { ipBucket, surfaceOf, uncountedWindow, writeRateLimitHeaders } from "../rate-limit.ts";
import { writeMeteringHeader } from "../metering.ts";
import { RouteContext, type PipelineContext, type Step } from "./context.ts";

/**
 * A public route (health, the one call without a key) is answered at once: not counted, yet X-RateLimit-*
 * is on every answer, so it shows where the caller's window stands (docs/reference/api-rules.md “Other limits”).
 */
export const publicRoute: Step = {
  name: "public route",
  on: (spec) => spec.access === "public",
  ends: true,
  run(p) {
    const { store, limiter, options } = p.services;
    const known = p.apiKey ? own(store.state.keys, p.apiKey) : undefined;
    const ipWindow = { bucket: ipBucket(p.ip), limit: options.ipRateLimitPerMin };
    const surface = p.spec.surface ?? surfaceOf(p.spec.path);
    writeRateLimitHeaders(p.headers, uncountedWindow(limiter, ipWindow, known, surface, p.now));
    writeMeteringHeader(p.headers, known);
    return answer(p);
  },
};

async function answer(p: PipelineContext): Promise<void> {
  p.reply = await p.spec.handle(new RouteContext(p.services, p.req, p.target, p.params, null));
}
