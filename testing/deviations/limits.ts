import { dataOf, is, isApi, keyOf, toSuccess, type Body, type Deviation } from "./deviation.ts";
import { freshWindow, surfaceOf } from "../../emulator/pipeline/rate-limit.ts";
import { runtimeSlot } from "../../emulator/pipeline/runtime.ts";

// Deviations that break the partner limits (conformance/checks/limits.ts): one
// window for every surface, no fresh=true budget, no response cache.

/** no_fresh_budget's memory of the last success per key and URL, per emulator (bounded by what a check asks). */
const LAST_ANSWER = runtimeSlot("no_fresh_budget last answers", () => new Map<string, Body>());

export const limitDeviations: readonly Deviation[] = [
  {
    name: "one_rate_limit",
    breaks: "partner commerce and Card Data each have their own per-key ceiling",
    apply: (x) => {
      // Partner-commerce answers report the Card Data ceiling, as one shared window would.
      const key = keyOf(x);
      if (
        key?.kind === "partner" &&
        isApi(x) &&
        surfaceOf(x.url.pathname.slice("/api/v1".length)) === "partner" &&
        x.headers.has("X-RateLimit-Limit")
      )
        x.headers.set("X-RateLimit-Limit", String(key.rate_limit_per_min));
    },
  },
  {
    name: "no_fresh_budget",
    breaks: "fresh=true has a budget of 10 calls per minute per key (429 beyond)",
    apply: (x) => {
      // The budget's refusal answered with the last success of the same read, as if no budget applied.
      const key = keyOf(x);
      const at = `${key?.key} ${x.url.pathname}${x.url.search}`;
      const lastAnswer = x.services.runtime.of(LAST_ANSWER);
      if (x.status === 200 && x.body) lastAnswer.set(at, x.body);
      if (
        key &&
        x.status === 429 &&
        x.url.searchParams.get("fresh") === "true" &&
        x.headers.get("X-RateLimit-Limit") === String(freshWindow(key).limit)
      ) {
        toSuccess(x, {});
        x.body = lastAnswer.get(at) ?? x.body;
        x.headers.delete("Retry-After");
      }
    },
  },
  {
    name: "no_response_cache",
    breaks: "GET /mystery/price is served from the response cache (~60 s) unless fresh=true",
    apply: (x) => {
      // Every price answer as if recomputed now.
      const d = x.status === 200 && is(x, "GET", /^\/api\/v1\/mystery\/price$/) ? dataOf(x) : null;
      if (d && d.token_id !== null) d.updated_at = x.services.clock.nowIso();
    },
  },
];
