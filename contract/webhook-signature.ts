import { createHmac } from "node:crypto";

// The webhook signature scheme (docs/webhooks.md "Delivery"): the emulator
// signs its deliveries with it, and the receiver check signs its test events
// with it. `X-Mystery-Signature: t=<unix ms>,sha256=<hex HMAC-SHA256("<t>.<raw body>")>`,
// keyed with the UTF-8 bytes of the 64-hex secret used as text (not hex-decoded).

export const WEBHOOK_HEADERS = {
  signature: "X-Mystery-Signature",
  event: "X-Mystery-Event",
  delivery: "X-Mystery-Delivery",
  timestamp: "X-Mystery-Timestamp",
} as const;

/** The freshness window the official SDK applies by default: a `t` further than this from the receiver's clock is refused. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

export function signatureHeader(secret: string, t: number, rawBody: string): string {
  const hex = createHmac("sha256", Buffer.from(secret, "utf8")).update(`${t}.${rawBody}`, "utf8").digest("hex");
  return `t=${t},sha256=${hex}`;
}

/**
 * The headers of one delivery, as the service sends them: the sender's User-Agent, the event, the
 * delivery (event) id, the unix-ms timestamp and, unless null (a test of an unsigned delivery), the signature.
 */
export function deliveryHeaders(
  userAgent: string,
  event: string,
  id: string,
  t: number,
  signature: string | null,
): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "User-Agent": userAgent,
    [WEBHOOK_HEADERS.event]: event,
    [WEBHOOK_HEADERS.delivery]: id,
    [WEBHOOK_HEADERS.timestamp]: String(t),
    ...(signature === null ? {} : { [WEBHOOK_HEADERS.signature]: signature }),
  };
}

/** A delivery header as a receiver reads it (node lower-cases header names), by the names above. */
export const webhookHeader = (
  headers: Record<string, string | undefined>,
  name: keyof typeof WEBHOOK_HEADERS,
): string | undefined => headers[WEBHOOK_HEADERS[name].toLowerCase()];
