import { ResponseCache } from "../response-cache.ts";
import type { Step } from "./context.ts";

/** A cached read answers from the response cache unless `fresh=true` (response-cache.ts); the handler step fills it. */
export const cachedAnswer: Step = {
  name: "cached answer",
  on: (spec) => spec.cache !== undefined,
  run(p) {
    p.cacheEntry = ResponseCache.keyOf(p.key!.account_id, p.spec.method, p.target.url);
    if (p.fresh) return;
    const hit = p.cache.get(p.cacheEntry, p.services.clock.now());
    if (hit) p.reply = hit;
  },
};
