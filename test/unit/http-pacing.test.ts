import { afterEach, describe, expect, it, vi } from "vitest";
import { HttpClient, type Exchange } from "../../harness/http.ts";

// The suite's client outside emulator mode waits out a 429 rate_limited (its Retry-After, up to the pace) and
// repeats the call: a partner's key is shared with earlier runs no client can reset. Fake timers: no wall time.

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** A target answering the given answers in turn, counting calls. */
function target(...answers: Array<() => Response>) {
  let calls = 0;
  const fetchImpl = (async () => answers[Math.min(calls++, answers.length - 1)]!()) as typeof fetch;
  return { fetchImpl, calls: () => calls };
}

const limited = (retryAfter: string) => () =>
  answer(429, { error: "rate_limited", message: "slow down" }, { "retry-after": retryAfter });
const ok = () => answer(200, { data: { ok: true } });

afterEach(() => vi.useRealTimers());

describe("HttpClient.paced", () => {
  it("waits out a 429 rate_limited for its Retry-After, then repeats the call; the observer sees both answers", async () => {
    vi.useFakeTimers();
    const t = target(limited("30"), ok);
    const seen: number[] = [];
    const http = new HttpClient("http://target.test", t.fetchImpl)
      .paced(61_000)
      .observed((x: Exchange) => void seen.push(x.result.status));
    let settled = false;
    const call = http.get("/api/v1/mystery/tiers").then((r) => ((settled = true), r));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(settled).toBe(false);
    expect(t.calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const r = await call;
    expect(r.status).toBe(200);
    expect(t.calls()).toBe(2);
    expect(seen).toEqual([429, 200]);
  });

  it("returns the 429 at once when its Retry-After is beyond the pace, or when the client is not paced", async () => {
    const far = target(limited("62"), ok);
    expect((await new HttpClient("http://target.test", far.fetchImpl).paced(61_000).get("/x")).status).toBe(429);
    expect(far.calls()).toBe(1);
    const unpaced = target(limited("1"), ok);
    expect((await new HttpClient("http://target.test", unpaced.fetchImpl).get("/x")).status).toBe(429);
    expect(unpaced.calls()).toBe(1);
  });

  it("does not repeat a 429 that is not rate_limited, or one without a usable Retry-After", async () => {
    const other = target(() => answer(429, { error: "credits_exhausted" }, { "retry-after": "1" }), ok);
    expect((await new HttpClient("http://target.test", other.fetchImpl).paced(61_000).get("/x")).status).toBe(429);
    expect(other.calls()).toBe(1);
    const bad = target(limited("soon"), ok);
    expect((await new HttpClient("http://target.test", bad.fetchImpl).paced(61_000).get("/x")).status).toBe(429);
    expect(bad.calls()).toBe(1);
  });
});
