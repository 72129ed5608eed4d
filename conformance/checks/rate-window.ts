import type { HttpResult } from "../../harness/http.ts";
import { ensure, expectError, expectNoHeader, expectSuccess, intHeader } from "../assert.ts";
import { NotApplicable, type CheckContext } from "../types.ts";
import { waitOut } from "../wait.ts";

// The rate-limit checks without the control plane: the partner key's own window on a free route (the mystery
// catalog: no credits), spent down to its 429 and then waited out for Retry-After, so the checks after it find
// the window as before. Emulator mode mints a key with a small ceiling instead (pipeline.ts).

/** A free route of the partner surface: the burst costs no credits. */
const FREE = "/api/v1/mystery/catalog";
/** The most requests a burst may send (a ceiling above it is not spent down). */
const MAX_BURST = 1_000;

interface Burst {
  /** Every answer before the refusal, in order. */
  answers: HttpResult[];
  refused: HttpResult;
}

/** Requests FREE with the partner key, unpaced, until the 429. */
async function spendWindow(ctx: CheckContext): Promise<Burst> {
  const http = ctx.http.paced(0); // this check wants the 429 itself
  const get = () => http.get(FREE, { key: ctx.partnerKey });
  let first = await get();
  if (first.status === 429) {
    // The partner's own traffic (or an earlier run) spent the window: start from a fresh one.
    await waitOut(ctx, "a window already spent", intHeader(first, "Retry-After", "429") * 1000);
    first = await get();
  }
  expectSuccess(first, `GET ${FREE}`);
  const limit = intHeader(first, "X-RateLimit-Limit", `GET ${FREE}`);
  if (limit > MAX_BURST)
    throw new NotApplicable(
      `the key's ceiling is ${limit} a minute, more than the ${MAX_BURST} requests a check sends`,
    );
  const answers = [first];
  for (let r = await get(); ; r = await get()) {
    if (r.status === 429) return { answers, refused: r };
    expectSuccess(r, `request ${answers.length + 1} of the window`);
    answers.push(r);
    ensure(answers.length <= limit + 1, `no 429 after ${answers.length} requests against a ceiling of ${limit}`);
  }
}

/** The sandbox run of pipeline.rate-limited-429. */
export async function rateLimitedBySandbox(ctx: CheckContext): Promise<void> {
  const { answers, refused } = await spendWindow(ctx);
  expectError(refused, 429, "rate_limited", `request ${answers.length + 1} past the ceiling`);
  const wait = intHeader(refused, "Retry-After", "429");
  ensure(wait > 0 && wait <= 60, `Retry-After must be a positive number of seconds within the window, got ${wait}`);
  intHeader(refused, "X-RateLimit-Reset", "429");
  expectNoHeader(refused, "X-Credits-Cost", "429");
  await waitOut(ctx, "the 429's Retry-After", wait * 1000);
  expectSuccess(await ctx.http.paced(0).get(FREE, { key: ctx.partnerKey }), "a request once Retry-After has passed");
  ctx.note(`429 after ${answers.length} requests; served again ${wait} s later`);
}

/**
 * The sandbox run of pipeline.ratelimit-ceiling: the headers count the key's window down to its 429 and back.
 * Judged at any phase of the window: the key's earlier requests may leave it during the burst (Remaining then
 * rises while Reset, in whole seconds, may stay), so each request is judged by what it cannot undo: the burst's
 * own requests stay in the window (it lasts far less than 60 s), and Reset never goes back.
 */
export async function rateCeilingBySandbox(ctx: CheckContext): Promise<void> {
  const { answers, refused } = await spendWindow(ctx);
  const limit = intHeader(answers[0]!, "X-RateLimit-Limit", "request 1");
  let prev = { remaining: 0, reset: 0 };
  answers.forEach((r, i) => {
    const what = `request ${i + 1}`;
    ensure(intHeader(r, "X-RateLimit-Limit", what) === limit, `X-RateLimit-Limit must stay ${limit} (${what})`);
    const cur = {
      remaining: intHeader(r, "X-RateLimit-Remaining", what),
      reset: intHeader(r, "X-RateLimit-Reset", what),
    };
    // The burst's own requests count, the request answered included: the partner's own traffic can only lower it.
    ensure(
      cur.remaining <= limit - (i + 1),
      `${what} of the burst must leave at most ${limit - (i + 1)} of ${limit} (it and the ${i} before it count), X-RateLimit-Remaining says ${cur.remaining}`,
    );
    ensure(cur.reset >= prev.reset, `X-RateLimit-Reset never goes back: ${prev.reset} then ${cur.reset} (${what})`);
    prev = cur;
  });
  // Nothing the window lost since the last answer would have let the next request through: that one must leave 0.
  ensure(
    prev.remaining === 0,
    `the last request before the 429 must leave 0, X-RateLimit-Remaining says ${prev.remaining}`,
  );
  expectError(refused, 429, "rate_limited", "the refusal");
  ensure(intHeader(refused, "X-RateLimit-Remaining", "429") === 0, "the 429 shows X-RateLimit-Remaining 0");
  const reset = intHeader(refused, "X-RateLimit-Reset", "429");
  ensure(reset >= prev.reset, `the 429's X-RateLimit-Reset ${reset} must not go back from ${prev.reset}`);
  const wait = intHeader(refused, "Retry-After", "429");
  ensure(wait >= 1 && wait <= 60, `Retry-After must be within the 60 s window, got ${wait}`);
  await waitOut(ctx, "the 429's Retry-After", wait * 1000);
  const again = await ctx.http.paced(0).get(FREE, { key: ctx.partnerKey });
  expectSuccess(again, `a request ${wait} s later (Retry-After)`);
  // Once the window slid its oldest requests left it: this one is counted, and Reset (whole seconds) may stay when
  // the new oldest request falls in the same second as the one that left.
  const left = intHeader(again, "X-RateLimit-Remaining", "after the window slid");
  const resetAgain = intHeader(again, "X-RateLimit-Reset", "after the window slid");
  ensure(
    left <= limit - 1 && resetAgain >= reset,
    `once the window slid the request is counted and Reset does not go back: ${left} left of ${limit}, Reset ${resetAgain} after ${reset}`,
  );
  ctx.note(`counted ${answers.length} of ${limit} down to the 429; served again ${wait} s later`);
}
