import { headText } from "../../../contract/index.ts";

// One delivery attempt over real HTTP (global fetch, so an msw server in the
// user's test can also play the receiver). Redirects are not followed: only a
// 2xx answer counts as delivered.

export interface PostResult {
  status: number | null;
  /** The answer's headers (empty when no answer came). */
  headers: Record<string, string>;
  body: string | null;
  /** Null when the receiver answered 2xx. */
  error: string | null;
  duration_ms: number;
}

/** The head of an answer kept in the outbox. */
const MAX_KEPT_BODY = 4096;

export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal });
    // the rest is never read: a receiver streaming a huge or endless body must not grow our memory
    const text = await headText(res, MAX_KEPT_BODY);
    const ok = res.status >= 200 && res.status < 300;
    return {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: text,
      error: ok ? null : `HTTP ${res.status}`,
      duration_ms: elapsed(),
    };
  } catch (err) {
    if (signal.aborted)
      return {
        status: null,
        headers: {},
        body: null,
        error: `timeout: no answer within ${timeoutMs} ms`,
        duration_ms: elapsed(),
      };
    return {
      status: null,
      headers: {},
      body: null,
      error: `connection failed: ${describe(err)}`,
      duration_ms: elapsed(),
    };
  }
}

function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}
