import { postDelivery, type PostAnswer } from "../../contract/webhook-post.ts";
import { deliveryHeaders, SIGNATURE_TOLERANCE_MS, signatureHeader } from "../../contract/webhook-signature.ts";

// What the receiver check sends and what it hears back: one delivery is the
// exact body and headers the service would POST; one answer is the receiver's
// status, the head of its body and the wall time it took.

export interface Delivery {
  event: string;
  id: string;
  body: string;
  headers: Record<string, string>;
}

/** What the receiver answered: its status, the head of its body and the wall time it took. */
export type Answer = PostAnswer;

const USER_AGENT = "CardOS-Webhooks/1.0 (cardos-emulator receiver-check)";
export { SIGNATURE_TOLERANCE_MS };

/** A delivery as the service sends it, signed with `secret` at `t` (wall-clock ms: the receiver compares with its own clock). */
export function signedDelivery(secret: string, event: string, id: string, data: unknown, t = Date.now()): Delivery {
  const body = JSON.stringify({ event, id, data });
  return { event, id, body, headers: receiverCheckHeaders(event, id, t, signatureHeader(secret, t, body)) };
}

/** A delivery's headers as the service sends them, with `signature` (null: none). */
export const receiverCheckHeaders = (event: string, id: string, t: number, signature: string | null) =>
  deliveryHeaders(USER_AGENT, event, id, t, signature);

/** One POST, redirects not followed (only a 2xx counts), at most `timeoutMs` of wall time. */
export const post = (url: string, d: Delivery, timeoutMs: number): Promise<Answer> =>
  postDelivery(url, d.headers, d.body, timeoutMs);
