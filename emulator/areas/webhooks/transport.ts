import { postDelivery } from "../../../contract/webhook-post.ts";

// One delivery attempt, as the outbox records it: sent by the shared sender (contract/webhook-post.ts);
// an answer other than 2xx is an attempt that failed.

export interface PostResult {
  status: number | null;
  /** The answer's headers (empty when no answer came). */
  headers: Record<string, string>;
  body: string | null;
  /** Null when the receiver answered 2xx. */
  error: string | null;
  duration_ms: number;
}

export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  deadline?: AbortSignal,
): Promise<PostResult> {
  const a = await postDelivery(url, headers, body, timeoutMs, deadline);
  if (a.status === null) return { ...a, body: null };
  const ok = a.status >= 200 && a.status < 300;
  return { ...a, error: ok ? null : `HTTP ${a.status}` };
}
