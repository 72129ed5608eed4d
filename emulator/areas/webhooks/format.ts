import type { DeliveryRecord, WebhookRecord } from "./model.ts";

// Wire shapes (docs/reference/api-rules.md “Webhook”, docs/reference/live-service.md “Webhook registry”). The secret appears
// only in `registrationWire`, the answer to POST /api/v1/webhooks.

import type { Webhook, WebhookDelivery, WebhookRegistration } from "../../../contract/index.ts";

export const webhookWire = (w: WebhookRecord): Webhook => ({
  id: w.id,
  url: w.url,
  event_types: [...w.event_types],
  is_active: w.is_active,
  created_at: w.created_at,
  updated_at: w.updated_at,
});

export const registrationWire = (w: WebhookRecord): WebhookRegistration => ({
  ...webhookWire(w),
  signing_secret: w.secret,
});

/** A delivery as `GET /webhooks/deliveries` shows it: the record without its owner and raw body. */
export const deliveryWire = (d: DeliveryRecord): WebhookDelivery => ({
  id: d.id,
  webhook_id: d.webhook_id,
  event_type: d.event_type,
  event_id: d.event_id,
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.last_status_code,
  last_error: d.last_error,
  next_retry_at: d.next_retry_at,
  delivered_at: d.delivered_at,
  created_at: d.created_at,
});
