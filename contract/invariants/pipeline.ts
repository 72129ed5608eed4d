import { invariant, type Problem } from "./invariant.ts";
import { obj } from "./read.ts";

// What every route's refusals say about waiting: Retry-After in whole seconds of a 60 s window.

export const PIPELINE_INVARIANTS = [
  invariant({
    id: "pipeline.retry-after-seconds",
    rule: "Rate limits use a rolling 60 s window and a 429 adds Retry-After; sustained overload is 503 overloaded with Retry-After: 1 (seconds, never milliseconds)",
    source: "docs/reference/live-service.md “Rate limits and caching”",
    operations: "all",
    errors: true,
    check: (a) => {
      const ra = a.headers["retry-after"];
      if (ra === undefined || !/^\d+$/.test(ra)) return []; // absence and form are the wire's retryAfter rule
      const out: Problem[] = [];
      if (a.status === 429 && Number(ra) > 60)
        out.push({
          pointer: "Retry-After",
          text: `a 429 of a rolling 60 s window waits at most 60 seconds, received ${ra}`,
        });
      if (a.status === 503 && obj(a.data)?.error === "overloaded" && ra !== "1")
        out.push({ pointer: "Retry-After", text: `503 overloaded says Retry-After: 1, received ${ra}` });
      return out;
    },
  }),
  invariant({
    id: "pipeline.retry-after-503-seconds",
    rule: "503 overloaded says Retry-After: 1 and 503 timeout Retry-After: 2: every retryable 503 waits whole seconds, bounded like a 429 (never milliseconds)",
    source: "docs/reference/api-rules.md “Error codes”",
    operations: "all",
    errors: true,
    check: (a) => {
      const ra = a.headers["retry-after"];
      if (a.status !== 503 || ra === undefined || !/^\d+$/.test(ra) || Number(ra) <= 60) return [];
      return [
        {
          pointer: "Retry-After",
          text: `a 503 ${String(obj(a.data)?.error)} waits whole seconds (at most 60, as a 429), received ${ra}`,
        },
      ];
    },
  }),
];
