import { headText } from "../../contract/index.ts";
import { SIGNATURE_TOLERANCE_MS, signatureHeader, WEBHOOK_HEADERS } from "../../contract/webhook-signature.ts";

// What the receiver check sends and what it hears back: one delivery is the
// exact body and headers the service would POST; one answer is the receiver's
// status, the head of its body and the wall time it took.

export interface Delivery {
  event: string;
  id: string;
  body: string;
  headers: Record<string, string>;
}

export interface Answer {
  /** Null when no HTTP answer came (refused, reset, timeout). */
  status: number | null;
  error: string | null;
  headers: Record<string, string>;
  /** The first 4 KB of the answer's body. */
  body: string;
  duration_ms: number;
}

export const USER_AGENT = "CardOS-Webhooks/1.0 (cardos-emulator receiver-check)";
export { SIGNATURE_TOLERANCE_MS };

/** A delivery as the service sends it, signed with `secret` at `t` (wall-clock ms: the receiver compares with its own clock). */
export function signedDelivery(secret: string, event: string, id: string, data: unknown, t = Date.now()): Delivery {
  const body = JSON.stringify({ event, id, data });
  return { event, id, body, headers: deliveryHeaders(event, id, t, signatureHeader(secret, t, body)) };
}

export function deliveryHeaders(
  event: string,
  id: string,
  t: number,
  signature: string | null,
): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "User-Agent": USER_AGENT,
    [WEBHOOK_HEADERS.event]: event,
    [WEBHOOK_HEADERS.delivery]: id,
    [WEBHOOK_HEADERS.timestamp]: String(t),
    ...(signature === null ? {} : { [WEBHOOK_HEADERS.signature]: signature }),
  };
}

const MAX_KEPT_BODY = 4096;

/** One POST, redirects not followed (only a 2xx counts), at most `timeoutMs` of wall time. */
export async function post(url: string, d: Delivery, timeoutMs: number): Promise<Answer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, { method: "POST", headers: d.headers, body: d.body, redirect: "manual", signal });
    const body = await headText(res, MAX_KEPT_BODY);
    return { status: res.status, error: null, headers: Object.fromEntries(res.headers), body, duration_ms: elapsed() };
  } catch (err) {
    const error = signal.aborted ? `timeout: no answer within ${timeoutMs} ms` : `connection failed: ${describe(err)}`;
    return { status: null, error, headers: {}, body: "", duration_ms: elapsed() };
  }
}

function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}
