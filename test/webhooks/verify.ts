import { createHmac, timingSafeEqual } from "node:crypto";

// An independent implementation of the receiver side of the signature scheme
// (docs/reference/live-service.md “Webhook delivery and signatures”), written from the spec rather than from the emulator's
// signing code: parse `t=…,sha256=…`, HMAC-SHA256 over "<t>.<raw body>" keyed
// with the secret's UTF-8 bytes, constant-time compare.

export function verifySignature(
  secret: string,
  header: string | undefined,
  rawBody: string,
): { ok: boolean; t: number | null } {
  if (!header) return { ok: false, t: null };
  const parts = new Map<string, string>();
  for (const piece of header.split(",")) {
    const eq = piece.indexOf("=");
    if (eq > 0 && !parts.has(piece.slice(0, eq).trim()))
      parts.set(piece.slice(0, eq).trim(), piece.slice(eq + 1).trim());
  }
  const t = parts.get("t");
  const sig = parts.get("sha256");
  if (!t || !/^\d+$/.test(t) || !sig || !/^[0-9a-f]{64}$/i.test(sig)) return { ok: false, t: null };
  const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(`${t}.${rawBody}`).digest();
  return { ok: timingSafeEqual(expected, Buffer.from(sig, "hex")), t: Number(t) };
}

/**
 * The official SDK's receiver check, written after its `verifyWebhookSignature`: the signature's `t`
 * must be within `toleranceMs` (default 5 minutes) of the receiver's own clock (`now`, default the wall
 * clock), then the HMAC must match. Throws with the reason, as the SDK does.
 */
export function verifyLikeSdk(opts: {
  payload: string;
  signature: string | undefined;
  secret: string;
  toleranceMs?: number;
  now?: number;
}): true {
  const { ok, t } = verifySignature(opts.secret, opts.signature, opts.payload);
  if (t === null) throw new Error(`Malformed webhook signature header ${JSON.stringify(opts.signature)}`);
  const tolerance = opts.toleranceMs ?? 300_000;
  const age = (opts.now ?? Date.now()) - t;
  if (tolerance > 0 && age > tolerance)
    throw new Error(`Webhook timestamp is too old: ${age}ms > toleranceMs ${tolerance}ms`);
  if (tolerance > 0 && -age > tolerance)
    throw new Error(`Webhook timestamp is ${-age}ms in the future, beyond toleranceMs ${tolerance}ms`);
  if (!ok) throw new Error("Webhook signature mismatch");
  return true;
}
