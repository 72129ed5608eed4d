import type { Services } from "../../pipeline/services.ts";
import type { KeyRecord } from "../../state/schema.ts";
import { badRequest, conflict, notFound } from "../../pipeline/errors.ts";
import { EVENT_TYPES, NOT_LIVE_EVENT_TYPES } from "../../events/types.ts";
import { webhooksSlice, type WebhookRecord } from "./model.ts";
import { makeSecret } from "./signing.ts";
import { urlProblem } from "./url-policy.ts";
import { ownListenerProblem } from "../../pipeline/own-listeners.ts";
import type {
  WebhookRegisterInput as RegisterInput,
  WebhookUpdateInput as UpdateInput,
} from "../../../contract/index.ts";
import { intId } from "../../pipeline/identifiers.ts";
import { own } from "../../state/own.ts";
import { COUNTERS } from "../../state/ids.ts";

// Registrations: the rules of POST/GET/PATCH/DELETE /api/v1/webhooks. The
// routes and the control plane both call these; every check happens before
// any write, so an error never leaves half a registration behind.

export const MAX_WEBHOOKS_PER_KEY = 20;

const LIVE: ReadonlySet<string> = new Set<string>(EVENT_TYPES);
const NOT_LIVE: ReadonlySet<string> = new Set<string>(NOT_LIVE_EVENT_TYPES);

/** The URL policy (the schema already checked it is a non-empty string). */
export function checkUrl(services: Services, url: string): string {
  const problem = urlProblem(url, services.options.strictWebhookUrls) ?? ownListenerProblem(services, url);
  if (problem) throw badRequest("invalid_url", problem);
  return url;
}

/** `undefined`/`null` → [] (every event). Any unknown or not-live name rejects the whole request. */
export function checkEventTypes(value: readonly string[] | null | undefined): string[] {
  if (value === undefined || value === null) return [];
  const names = [...new Set(value)];
  const notLive = names.filter((t) => NOT_LIVE.has(t));
  const unknown = names.filter((t) => !LIVE.has(t) && !NOT_LIVE.has(t));
  if (unknown.length || notLive.length) {
    const parts = [
      unknown.length ? `unknown: ${unknown.join(", ")}` : "",
      notLive.length ? `not live yet: ${notLive.join(", ")}` : "",
    ].filter(Boolean);
    throw badRequest("invalid_event_types", `Invalid event types (${parts.join("; ")})`, {
      details: {
        ...(unknown.length ? { unknown } : {}),
        ...(notLive.length ? { not_live: notLive } : {}),
        allowed: [...EVENT_TYPES],
      },
    });
  }
  return names;
}

export function ownedBy(services: Services, key: KeyRecord): WebhookRecord[] {
  return Object.values(webhooksSlice(services.store).webhooks).filter((w) => w.owner_key === key.key);
}

export function register(services: Services, key: KeyRecord, body: RegisterInput): WebhookRecord {
  const url = checkUrl(services, body.url);
  const eventTypes = checkEventTypes(body.event_types);
  const isActive = body.is_active ?? true;
  if (ownedBy(services, key).length >= MAX_WEBHOOKS_PER_KEY)
    throw conflict("webhook_limit", `A key may have at most ${MAX_WEBHOOKS_PER_KEY} webhooks; delete one first`, {
      details: { limit: MAX_WEBHOOKS_PER_KEY },
    });
  const { store, clock } = services;
  const id = store.nextId(COUNTERS.webhook);
  const now = clock.nowIso();
  const record: WebhookRecord = {
    id,
    owner_key: key.key,
    account_id: key.account_id,
    url,
    event_types: eventTypes,
    is_active: isActive,
    secret: makeSecret(store.state.seed, id, now),
    created_at: now,
    updated_at: now,
  };
  webhooksSlice(store).webhooks[id] = record;
  return record;
}

/** The key's webhook, or 404 not_found (also for another key's webhook or a non-numeric id). */
export function find(services: Services, key: KeyRecord, rawId: string): WebhookRecord {
  const id = intId(rawId);
  const rec = id === null ? undefined : own(webhooksSlice(services.store).webhooks, String(id));
  if (!rec || rec.owner_key !== key.key) throw notFound(`No webhook with id ${JSON.stringify(rawId)} on this key`);
  return rec;
}

export function update(services: Services, key: KeyRecord, rawId: string, body: UpdateInput): WebhookRecord {
  const rec = find(services, key, rawId);
  const next: Partial<WebhookRecord> = {};
  if (body.url !== undefined) next.url = checkUrl(services, body.url);
  if (body.event_types !== undefined) next.event_types = checkEventTypes(body.event_types);
  if (body.is_active !== undefined) next.is_active = body.is_active;
  if (Object.keys(next).length === 0)
    throw badRequest("invalid_value", "Nothing to change: send url, event_types and/or is_active");
  Object.assign(rec, next, { updated_at: services.clock.nowIso() });
  return rec;
}

/** Removes the webhook and drops its pending deliveries (attempted ones stay in the log). Returns the dropped delivery ids. */
export function remove(services: Services, key: KeyRecord, rawId: string): { id: number; dropped: number[] } {
  const rec = find(services, key, rawId);
  const slice = webhooksSlice(services.store);
  const dropped: number[] = [];
  for (const d of Object.values(slice.deliveries)) {
    if (d.webhook_id === rec.id && d.status === "PENDING") {
      dropped.push(d.id);
      delete slice.deliveries[d.id];
    }
  }
  delete slice.webhooks[rec.id];
  return { id: rec.id, dropped };
}
