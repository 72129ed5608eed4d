import { z } from "zod";
import { count, isoTime, ownRecord, timeMs } from "../../state/fields.ts";
import { defineSlice } from "../../state/slices.ts";
import type { Store } from "../../state/store.ts";
import { chaosSchema, type WebhookChaos } from "../../pipeline/webhook-chaos.ts";

// The webhooks area's slice of the store: plain JSON, so snapshot, restore,
// export and import carry registrations, delivery state and the outbox
// together (a restored PENDING delivery is re-armed from `next_retry_at`).

export type { DeliveryStatus } from "../../../contract/lifecycles/webhook-delivery.ts";
import type { DeliveryStatus } from "../../../contract/lifecycles/webhook-delivery.ts";

export interface WebhookRecord {
  id: number;
  /** The API key that registered it: only that key may read, change or delete it. */
  owner_key: string;
  /** The owner key's account: events for this account are delivered here. */
  account_id: string;
  url: string;
  /** Empty means every event. */
  event_types: string[];
  is_active: boolean;
  /** 64 hex characters; returned once, by registration. */
  secret: string;
  /** The secret before the last rotation (POST /_emulator/webhooks/:id/rotate-secret), for the chaos mode that signs with it. */
  previous_secret?: string;
  /** Delivery chaos for this webhook (emulator only; absent = the createEmulator default, usually none). */
  chaos?: WebhookChaos;
  /** First attempts seen under chaos, for `duplicate.every`. */
  chaos_count?: number;
  /** The open reordering window. */
  chaos_window?: { ends_at: number; n: number };
  created_at: string;
  updated_at: string;
}

export interface DeliveryRecord {
  id: number;
  webhook_id: number;
  owner_key: string;
  event_type: string;
  /** `"<type>:<key>"`, also `X-Mystery-Delivery`, stable across retries. */
  event_id: string;
  /** The exact raw body, built once, so every attempt signs and sends the same bytes. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_retry_at: string | null;
  delivered_at: string | null;
  created_at: string;
  /** What chaos did before the first attempt (delay, reordering), shown on that attempt. */
  chaos_held?: string[];
}

/** One HTTP attempt, as the control plane's outbox shows it. */
export interface AttemptRecord {
  id: number;
  delivery_id: number;
  webhook_id: number;
  event_type: string;
  event_id: string;
  /** 1-based attempt number of its delivery. */
  attempt: number;
  url: string;
  request: { method: "POST"; headers: Record<string, string>; body: string };
  /** The receiver's answer: status, headers and the first 4 KiB of its body (`headers` absent in older saved states). */
  response: { status: number; headers?: Record<string, string>; body: string } | null;
  /** Why the attempt failed (non-2xx, connection error, timeout); null when delivered. */
  error: string | null;
  outcome: "delivered" | "failed";
  /** Virtual time of the attempt. */
  at: string;
  /** What delivery chaos did to this attempt (absent when none), e.g. ["duplicate", "delayed 2000 ms"]. */
  chaos?: string[];
  /** Wall-clock time the HTTP exchange took (until the kept head of the answer was read). */
  duration_ms: number;
}

export interface WebhooksSlice {
  /** By id (integer-like keys iterate in ascending id order). */
  webhooks: Record<string, WebhookRecord>;
  deliveries: Record<string, DeliveryRecord>;
  outbox: AttemptRecord[];
  settings: { attempt_timeout_ms: number };
}

/** Per-attempt timeout on the wall clock (the live value is not published; our choice). */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

const headers = ownRecord(z.string());

const webhook = z.strictObject({
  id: count,
  owner_key: z.string(),
  account_id: z.string(),
  url: z.string(),
  event_types: z.array(z.string()),
  is_active: z.boolean(),
  secret: z.string().regex(/^[0-9a-f]{64}$/, "must be 64 hex characters"),
  previous_secret: z.string().optional(),
  chaos: chaosSchema.optional(),
  chaos_count: count.optional(),
  chaos_window: z.strictObject({ ends_at: timeMs, n: count }).optional(),
  created_at: isoTime,
  updated_at: isoTime,
});

const delivery = z.strictObject({
  id: count,
  webhook_id: count,
  owner_key: z.string(),
  event_type: z.string(),
  event_id: z.string(),
  body: z.string(),
  status: z.enum(["PENDING", "DELIVERED", "FAILED"]),
  attempts: count,
  last_status_code: z.number().int().min(0).max(999).nullable(),
  last_error: z.string().nullable(),
  next_retry_at: isoTime.nullable(),
  delivered_at: isoTime.nullable(),
  created_at: isoTime,
  chaos_held: z.array(z.string()).optional(),
});

const attempt = z.strictObject({
  id: count,
  delivery_id: count,
  webhook_id: count,
  event_type: z.string(),
  event_id: z.string(),
  attempt: count,
  url: z.string(),
  request: z.strictObject({ method: z.literal("POST"), headers, body: z.string() }),
  response: z
    .strictObject({ status: z.number().int().min(0).max(999), headers: headers.optional(), body: z.string() })
    .nullable(),
  error: z.string().nullable(),
  outcome: z.enum(["delivered", "failed"]),
  at: isoTime,
  chaos: z.array(z.string()).optional(),
  duration_ms: z.number().min(0).max(Number.MAX_SAFE_INTEGER),
});

const WEBHOOKS_SLICE = defineSlice<WebhooksSlice>({
  name: "webhooks",
  init: () => ({
    webhooks: {},
    deliveries: {},
    outbox: [],
    settings: { attempt_timeout_ms: DEFAULT_ATTEMPT_TIMEOUT_MS },
  }),
  schema: z.strictObject({
    webhooks: ownRecord(webhook),
    deliveries: ownRecord(delivery),
    outbox: z.array(attempt),
    // The bounds PUT /_emulator/webhooks/settings takes.
    settings: z.strictObject({ attempt_timeout_ms: z.number().int().min(1).max(120_000) }),
  }),
});

export function webhooksSlice(store: Store): WebhooksSlice {
  return store.slice(WEBHOOKS_SLICE);
}
