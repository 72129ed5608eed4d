import { headText } from "./bounded-read.ts";

// One signed delivery sent over real HTTP: the emulator's webhook dispatcher and the suite's receiver
// check both send through it. Global fetch, so an msw server in a user's test can play the receiver;
// redirects are not followed (only a 2xx answer counts as delivered).

export interface PostAnswer {
  /** Null when no HTTP answer came (refused, reset, timeout). */
  status: number | null;
  /** Why no HTTP answer came; null whenever one did, whatever its status. */
  error: string | null;
  /** The answer's headers (empty when none came). */
  headers: Record<string, string>;
  /** The first MAX_KEPT_BODY characters of the answer's body ("" when none came). */
  body: string;
  duration_ms: number;
}

/** The head of an answer kept: the rest is never read, so an endless body cannot grow memory. */
const MAX_KEPT_BODY = 4096;

/**
 * One POST of `body` with `headers`, at most `timeoutMs` of wall time; `deadline`, when given, ends it sooner
 * (the emulator's per-attempt deadline on its own clock). Either way it is the same timeout.
 */
export async function postDelivery(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  deadline?: AbortSignal,
): Promise<PostAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const wall = AbortSignal.timeout(timeoutMs);
  const signal = deadline ? AbortSignal.any([wall, deadline]) : wall;
  try {
    const res = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal });
    const text = await headText(res, MAX_KEPT_BODY);
    return {
      status: res.status,
      error: null,
      headers: Object.fromEntries(res.headers),
      body: text,
      duration_ms: elapsed(),
    };
  } catch (err) {
    const error = signal.aborted ? `timeout: no answer within ${timeoutMs} ms` : `connection failed: ${describe(err)}`;
    return { status: null, error, headers: {}, body: "", duration_ms: elapsed() };
  }
}

function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}
