import { describe, it, expect } from "vitest";
import { RateLimiter, rateLimitHeaders } from "../../emulator/pipeline/rate-limit.ts";

const T0 = 1_000_000;

describe("RateLimiter (rolling 60 s window)", () => {
  it("allows up to the limit, then refuses with Retry-After until the oldest hit leaves", () => {
    const rl = new RateLimiter();
    for (let i = 0; i < 3; i++) expect(rl.hit("k", 3, T0 + i * 1000).allowed).toBe(true);
    const refused = rl.hit("k", 3, T0 + 10_000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 3, retryAfter: 50 });
    expect(rl.hit("k", 3, T0 + 59_999).allowed).toBe(false);
    // the first hit leaves the window at T0+60s exactly
    expect(rl.hit("k", 3, T0 + 60_000).allowed).toBe(true);
  });

  it("is rolling, not fixed: hits leave one by one", () => {
    const rl = new RateLimiter();
    rl.hit("k", 2, T0);
    rl.hit("k", 2, T0 + 30_000);
    expect(rl.hit("k", 2, T0 + 60_000).allowed).toBe(true);
    expect(rl.hit("k", 2, T0 + 60_001).allowed).toBe(false);
    expect(rl.hit("k", 2, T0 + 90_000).allowed).toBe(true);
  });

  it("keeps buckets apart and reports remaining and reset", () => {
    const rl = new RateLimiter();
    const d = rl.hit("a", 300, T0);
    expect(d).toMatchObject({ allowed: true, remaining: 299, resetAt: Math.ceil((T0 + 60_000) / 1000) });
    expect(rl.hit("b", 300, T0).remaining).toBe(299);
    expect(rateLimitHeaders(d)).toEqual({
      "X-RateLimit-Limit": "300",
      "X-RateLimit-Remaining": "299",
      "X-RateLimit-Reset": String(Math.ceil((T0 + 60_000) / 1000)),
    });
    const full = new RateLimiter();
    full.hit("x", 1, T0);
    expect(rateLimitHeaders(full.hit("x", 1, T0 + 1))["Retry-After"]).toBe("60");
  });
});

describe("RateLimiter cost", () => {
  it("stays exact over long runs with a large ceiling (the queue compacts without losing hits)", () => {
    const rl = new RateLimiter();
    // 10 hits per second for 5 minutes against a 1,000/min ceiling: 600 live hits at any time.
    for (let i = 0; i < 3000; i++) {
      const d = rl.hit("k", 1000, T0 + i * 100);
      expect(d.allowed).toBe(true);
      expect(d.remaining).toBe(1000 - Math.min(i + 1, 600));
    }
    // Fill the ceiling within one window, then one more is refused.
    const t = T0 + 400_000;
    for (let i = 0; i < 1000; i++) expect(rl.hit("k", 1000, t).allowed).toBe(i < 1000);
    expect(rl.hit("k", 1000, t)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 60 });
  });
});

describe("RateLimiter against a plain model", () => {
  it("answers exactly as a list of every hit's time would, many hits sharing a millisecond or not", async () => {
    const fc = await import("fast-check");
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            dt: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 70_000 })),
            limit: fc.integer({ min: 1, max: 8 }),
          }),
          { maxLength: 300 },
        ),
        (steps) => {
          const rl = new RateLimiter();
          const model: number[] = [];
          let now = T0;
          for (const { dt, limit } of steps) {
            now += dt;
            const live = model.filter((t) => t > now - 60_000);
            model.length = 0;
            model.push(...live);
            const allowed = model.length < limit;
            if (allowed) model.push(now);
            const freesAt = (model[0] ?? now) + 60_000;
            const d = rl.hit("k", limit, now);
            expect(d).toEqual({
              allowed,
              limit,
              remaining: Math.max(0, limit - model.length),
              resetAt: Math.ceil(freesAt / 1000),
              retryAfter: allowed ? 0 : Math.max(1, Math.ceil((freesAt - now) / 1000)),
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
