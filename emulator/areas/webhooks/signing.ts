import { createHash, createHmac } from "node:crypto";

// The live signature scheme (docs/reference/live-service.md “Webhook delivery and signatures”, as the SDK verifies it):
// `X-Mystery-Signature: t=<unix ms>,sha256=<hex HMAC-SHA256("<t>.<raw body>")>`,
// keyed with the UTF-8 bytes of the 64-hex secret used as text (not hex-decoded).

export function signatureHeader(secret: string, t: number, rawBody: string): string {
  const hex = createHmac("sha256", Buffer.from(secret, "utf8")).update(`${t}.${rawBody}`, "utf8").digest("hex");
  return `t=${t},sha256=${hex}`;
}

/** A 64-hex signing secret, deterministic from the seed and the webhook id (same seed, same secrets). */
export function makeSecret(seed: number, webhookId: number, createdAt: string): string {
  return createHash("sha256").update(`cardos-emulator:webhook-secret:${seed}:${webhookId}:${createdAt}`).digest("hex");
}
