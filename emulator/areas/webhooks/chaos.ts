import { hashString, mulberry32 } from "../../state/ids.ts";
import type { DeliveryRecord, WebhookRecord } from "./model.ts";

// Delivery chaos per webhook (docs/webhooks.md "Delivery chaos"): what an at-least-once
// sender may do to a receiver. Off unless configured. Every choice is a pure function of
// the seed, the webhook and the delivery (no Math.random), so a run replays exactly.

export { chaosSchema, type WebhookChaos } from "../../pipeline/webhook-chaos.ts";
import type { WebhookChaos } from "../../pipeline/webhook-chaos.ts";

/** The webhook's own chaos, else the `createEmulator({ webhookChaos })` default. */
export function chaosOf(w: WebhookRecord, fallback: WebhookChaos | undefined): WebhookChaos | undefined {
  return w.chaos ?? fallback;
}

/** Holds the first attempt of a new delivery (delay, reordering); the labels go on that attempt. */
export function holdFirstAttempt(w: WebhookRecord, chaos: WebhookChaos, now: number): { at: number; labels: string[] } {
  let at = now;
  const labels: string[] = [];
  if (chaos.reorder_window_ms) {
    // Deliveries within one window go out in reverse order of creation, at the window's end.
    const win = chaos.reorder_window_ms;
    const open =
      w.chaos_window && now < w.chaos_window.ends_at ? w.chaos_window : (w.chaos_window = { ends_at: now + win, n: 0 });
    const fireAt = Math.max(now, open.ends_at - Math.min(open.n, win));
    open.n += 1;
    at = fireAt;
    labels.push(`reordered (held ${fireAt - now} ms in a ${win} ms window)`);
  }
  if (chaos.delay_ms) {
    at += chaos.delay_ms;
    labels.push(`delayed ${chaos.delay_ms} ms`);
  }
  return { at, labels };
}

export interface FirstAttemptChaos {
  drop: boolean;
  duplicate: boolean;
  previousSecret: boolean;
  staleMs: number;
}

/** What happens to a delivery's first attempt. Counts first attempts per webhook for `duplicate.every`. */
export function firstAttemptChaos(
  seed: number,
  w: WebhookRecord,
  d: DeliveryRecord,
  chaos: WebhookChaos,
): FirstAttemptChaos {
  const rand = mulberry32(hashString(`webhook-chaos:${seed}:${w.id}:${d.id}`));
  const n = (w.chaos_count = (w.chaos_count ?? 0) + 1);
  const dup = chaos.duplicate;
  const duplicate = dup === undefined ? false : "every" in dup ? n % dup.every === 0 : rand() < dup.probability;
  return {
    drop: chaos.drop_first_attempt === true,
    duplicate,
    previousSecret: chaos.previous_secret_after_rotation === true && w.previous_secret !== undefined,
    staleMs: chaos.stale_timestamp_ms ?? 0,
  };
}
