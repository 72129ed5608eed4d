import { createHmac, timingSafeEqual } from "node:crypto";

// An independent implementation of the receiver side of the signature scheme
// (service-facts §6.2), written from the spec rather than from the emulator's
// signing code: parse `t=…,sha256=…`, HMAC-SHA256 over "<t>.<raw body>" keyed
// with the secret's UTF-8 bytes, constant-time compare.

export function verifySignature(secret: string, header: string | undefined, rawBody: string): { ok: boolean; t: number | null } {
  if (!header) return { ok: false, t: null };
  const parts = new Map<string, string>();
  for (const piece of header.split(",")) {
    const eq = piece.indexOf("=");
    if (eq > 0 && !parts.has(piece.slice(0, eq).trim())) parts.set(piece.slice(0, eq).trim(), piece.slice(eq + 1).trim());
  }
  const t = parts.get("t");
  const sig = parts.get("sha256");
  if (!t || !/^\d+$/.test(t) || !sig || !/^[0-9a-f]{64}$/i.test(sig)) return { ok: false, t: null };
  const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(`${t}.${rawBody}`).digest();
  return { ok: timingSafeEqual(expected, Buffer.from(sig, "hex")), t: Number(t) };
}
