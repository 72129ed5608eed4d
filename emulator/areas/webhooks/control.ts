import type { ControlSpec } from "../../control/route.ts";
import { optNumber, optString, reqString } from "../../control/body.ts";
import { created, ok } from "../../pipeline/route.ts";
import { badRequest, notFound } from "../../pipeline/errors.ts";
import { publishEvent } from "../../events/publish.ts";
import { buildEventPayload, isEventType } from "../../events/catalogue.ts";
import { NOT_LIVE_EVENT_TYPES, EVENT_TYPES } from "../../events/types.ts";
import { webhooksSlice, type AttemptRecord } from "./model.ts";
import { deliveryWire, webhookWire } from "./format.ts";
import { dispatcherFor } from "./dispatcher.ts";
import type { Services } from "../../pipeline/services.ts";
import { own } from "../../state/own.ts";

// Operator actions under /_emulator: trigger any event, look at every HTTP
// attempt, and pull retries forward. Triggering goes through the same bus and
// dispatcher as the events other areas publish.

function accountsFor(services: Services, body: Record<string, unknown>): string[] {
  const key = optString(body, "key");
  const account = optString(body, "account_id");
  if (key && account) throw badRequest("invalid_value", "pass key or account_id, not both");
  if (key) {
    const rec = own(services.store.state.keys, key);
    if (!rec) throw notFound("No API key with that value", "not_found");
    return [rec.account_id];
  }
  if (account) return [account];
  // Neither: every account that has a webhook (each gets its own delivery).
  return [...new Set(Object.values(webhooksSlice(services.store).webhooks).map((w) => w.account_id))];
}

function optObject(body: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "object" || Array.isArray(v)) throw badRequest("invalid_value", `${name} must be an object`);
  return v as Record<string, unknown>;
}

function optBoolean(body: Record<string, unknown>, name: string): boolean | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw badRequest("invalid_value", `${name} must be true or false`);
  return v;
}

const outboxFilters = ["webhook_id", "delivery_id", "event_id", "event_type"] as const;

export const webhookControl: ControlSpec[] = [
  {
    method: "POST",
    path: "/events",
    describe: "Trigger a webhook event {type, data?, key? | account_id?, event_key?, wait?} with a fixture payload; returns the event and its deliveries",
    handle: async (c) => {
      const { services } = c;
      const type = reqString(c.body, "type");
      if (!isEventType(type)) {
        const notLive = (NOT_LIVE_EVENT_TYPES as readonly string[]).includes(type);
        throw badRequest("invalid_event_types", `${type} is ${notLive ? "documented but not live" : "not an event type"}`, { details: { allowed: [...EVENT_TYPES] } });
      }
      const overrides = optObject(c.body, "data") ?? {};
      const accounts = accountsFor(services, c.body);
      const n = services.store.nextId("emulator_event");
      const eventKey = optString(c.body, "event_key") ?? `emu_${n}`;
      const data = buildEventPayload(type, { n, now: services.clock.nowIso() }, overrides);
      for (const account of accounts) publishEvent(services, account, type, eventKey, data);
      // The first attempts start at once; by default answer after they finished.
      if (optBoolean(c.body, "wait") !== false) await dispatcherFor(services).idle();
      const id = `${type}:${eventKey}`;
      const slice = webhooksSlice(services.store);
      const deliveries = Object.values(slice.deliveries)
        .filter((d) => d.event_id === id)
        .map((d) => ({ ...deliveryWire(d), url: slice.webhooks[d.webhook_id]?.url ?? null }));
      return created({ event: { event: type, id, data }, account_ids: accounts, deliveries });
    },
  },
  {
    method: "GET",
    path: "/webhooks",
    describe: "Every registered webhook of every key, with its owner and signing secret (operator view)",
    handle: (c) => {
      const slice = webhooksSlice(c.services.store);
      const webhooks = Object.values(slice.webhooks).map((w) => ({
        ...webhookWire(w),
        owner_key: w.owner_key,
        account_id: w.account_id,
        signing_secret: w.secret,
        pending_deliveries: Object.values(slice.deliveries).filter((d) => d.webhook_id === w.id && d.status === "PENDING").length,
      }));
      return ok({ webhooks, settings: slice.settings });
    },
  },
  {
    method: "GET",
    path: "/webhooks/outbox",
    describe: "Every delivery attempt (oldest first) with url, headers, body and the receiver's answer; filters webhook_id, delivery_id, event_id, event_type",
    handle: (c) => {
      let attempts: AttemptRecord[] = webhooksSlice(c.services.store).outbox;
      for (const name of outboxFilters) {
        const want = c.query.get(name);
        if (want !== null) attempts = attempts.filter((a) => String(a[name]) === want);
      }
      return ok({ attempts });
    },
  },
  {
    method: "DELETE",
    path: "/webhooks/outbox",
    describe: "Forget the recorded attempts (deliveries and their state are kept)",
    handle: (c) => {
      webhooksSlice(c.services.store).outbox = [];
      return ok({ cleared: true });
    },
  },
  {
    method: "POST",
    path: "/webhooks/retry",
    describe: "Retry pending deliveries now: those due (default), {all:true} for every pending one, or {delivery_id}",
    handle: async (c) => {
      const { services } = c;
      const deliveryId = optNumber(c.body, "delivery_id", { min: 1, integer: true });
      const all = optBoolean(c.body, "all") ?? false;
      const slice = webhooksSlice(services.store);
      const now = services.clock.now();
      let pending = Object.values(slice.deliveries).filter((d) => d.status === "PENDING");
      if (deliveryId !== undefined) {
        const d = slice.deliveries[deliveryId];
        if (!d) throw notFound(`No delivery ${deliveryId}`);
        if (d.status !== "PENDING") throw badRequest("invalid_status", `Delivery ${deliveryId} is ${d.status}; only PENDING deliveries are retried`);
        pending = [d];
      } else if (!all) pending = pending.filter((d) => d.next_retry_at !== null && Date.parse(d.next_retry_at) <= now);
      const ids = pending.map((d) => d.id);
      await dispatcherFor(services).retryNow(ids);
      const after = webhooksSlice(services.store);
      return ok({ retried: ids.length, deliveries: ids.map((id) => after.deliveries[id]).filter(Boolean).map(deliveryWire) });
    },
  },
  {
    method: "PUT",
    path: "/webhooks/settings",
    describe: "Delivery settings {attempt_timeout_ms} (wall-clock timeout of each attempt, default 10000)",
    handle: (c) => {
      const slice = webhooksSlice(c.services.store);
      const timeout = optNumber(c.body, "attempt_timeout_ms", { min: 1, max: 120_000, integer: true });
      if (timeout === undefined) throw badRequest("invalid_value", "attempt_timeout_ms is required");
      slice.settings.attempt_timeout_ms = timeout;
      return ok({ settings: slice.settings });
    },
  },
];
