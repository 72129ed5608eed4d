// One delivery attempt over real HTTP (global fetch, so an msw server in the
// user's test can also play the receiver). Redirects are not followed: only a
// 2xx answer counts as delivered.

export interface PostResult {
  status: number | null;
  body: string | null;
  /** Null when the receiver answered 2xx. */
  error: string | null;
  duration_ms: number;
}

const MAX_KEPT_BODY = 2048;

export async function postJson(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal });
    let text = "";
    try {
      text = await res.text();
    } catch {
      // A receiver that answers and then drops the body still answered.
    }
    const ok = res.status >= 200 && res.status < 300;
    return { status: res.status, body: text.slice(0, MAX_KEPT_BODY), error: ok ? null : `HTTP ${res.status}`, duration_ms: elapsed() };
  } catch (err) {
    if (signal.aborted) return { status: null, body: null, error: `timeout: no answer within ${timeoutMs} ms`, duration_ms: elapsed() };
    return { status: null, body: null, error: `connection failed: ${describe(err)}`, duration_ms: elapsed() };
  }
}

function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}
