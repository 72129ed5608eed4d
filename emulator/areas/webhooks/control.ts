import { defineControl, type ControlSpec } from "../../control/route.ts";
import { badInput, flag, missing, opt, text } from "../../control/schemas.ts";
import { z } from "../../pipeline/schema.ts";
import { Webhook as webhookSchema, WebhookDelivery as deliverySchema } from "../../../contract/index.ts";
import { created, ok } from "../../pipeline/route.ts";
import { badRequest, conflict, notFound } from "../../pipeline/errors.ts";
import { eventDataProblem, publishEvent } from "../../events/publish.ts";
import { buildEventPayload, isEventType } from "../../events/catalogue.ts";
import { NOT_LIVE_EVENT_TYPES, EVENT_TYPES } from "../../events/types.ts";
import { webhooksSlice, type AttemptRecord } from "./model.ts";
import { deliveryWire, webhookWire } from "./format.ts";
import { dispatcherFor } from "./dispatcher.ts";
import { attemptView } from "./attempt-view.ts";
import type { Services } from "../../pipeline/services.ts";
import { accountOf } from "../../control/account.ts";
import { own } from "../../state/own.ts";
import { chaosSchema } from "./chaos.ts";
import { makeSecret } from "./signing.ts";
import type { WebhookRecord } from "./model.ts";
import { moveDelivery } from "./delivery-moves.ts";
import { COUNTERS } from "../../state/ids.ts";

const webhookId = z.object({ id: z.string().regex(/^[1-9]\d{0,15}$/, "must be a positive integer") });

function webhookById(services: Services, id: string): WebhookRecord {
  const w = own(webhooksSlice(services.store).webhooks, id);
  if (!w) throw notFound(`No webhook ${id}`);
  return w;
}
const chaosAnswer = z.object({
  webhook_id: z.number().int(),
  chaos: chaosSchema.nullable(),
  default: chaosSchema.nullable(),
});

// Operator actions under /_emulator: trigger any event, look at every HTTP
// attempt, and pull retries forward. Triggering goes through the same bus and
// dispatcher as the events other areas publish.

function accountsFor(services: Services, key: string | undefined, account: string | undefined): string[] {
  if (key && account) throw badRequest("invalid_value", "pass key or account_id, not both");
  if (key || account) return [accountOf(services, { key, account_id: account })];
  // Neither: every account that has a webhook (each gets its own delivery).
  return [...new Set(Object.values(webhooksSlice(services.store).webhooks).map((w) => w.account_id))];
}

const settingsSchema = z.object({ attempt_timeout_ms: z.number().int() });
const attemptSchema = z.object({
  id: z.number().int(),
  delivery_id: z.number().int(),
  webhook_id: z.number().int(),
  event_type: z.string(),
  event_id: z.string(),
  attempt: z.number().int(),
  url: z.string(),
  request: z.object({ method: z.literal("POST"), headers: z.record(z.string(), z.string()), body: z.string() }),
  response: z
    .object({ status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.string() })
    .nullable(),
  error: z.string().nullable(),
  outcome: z.enum(["delivered", "failed"]),
  at: z.string(),
  duration_ms: z.number(),
  chaos: z.array(z.string()),
  curl: z.string(),
});
const attemptId = z.object({ id: z.string().regex(/^[1-9]\d{0,15}$/, "must be a positive integer") });

const outboxFilters = ["webhook_id", "delivery_id", "event_id", "event_type"] as const;
const outboxQuery = z.object(
  Object.fromEntries(outboxFilters.map((f) => [f, opt(z.string())])) as Record<
    (typeof outboxFilters)[number],
    ReturnType<typeof opt<z.ZodString>>
  >,
);

export const webhookControl: ControlSpec[] = [
  defineControl({
    method: "POST",
    path: "/events",
    describe:
      "Trigger a webhook event {type, data?, key? | account_id?, event_key?, wait?} with a fixture payload; returns the event and its deliveries",
    schema: {
      body: z.object({
        type: text(),
        data: opt(z.record(z.string(), z.unknown())),
        key: opt(text()),
        account_id: opt(text()),
        event_key: opt(text()),
        wait: opt(z.boolean()),
      }),
      responses: {
        201: {
          description: "The event and its deliveries",
          data: z.object({
            event: z.object({ event: z.string(), id: z.string(), data: z.record(z.string(), z.unknown()) }),
            account_ids: z.array(z.string()),
            deliveries: z.array(deliverySchema.extend({ url: z.string().nullable() })),
          }),
        },
        400: {
          description: "Unknown event type or a bad field",
          codes: ["invalid_value", "invalid_event_types", "invalid_json"],
        },
        404: missing("API key"),
      },
    },
    handle: async (c) => {
      const { services } = c;
      const body = c.input.body;
      const type = body.type;
      if (!isEventType(type)) {
        const notLive = (NOT_LIVE_EVENT_TYPES as readonly string[]).includes(type);
        throw badRequest(
          "invalid_event_types",
          `${type} is ${notLive ? "documented but not live" : "not an event type"}`,
          { details: { allowed: [...EVENT_TYPES] } },
        );
      }
      const overrides = body.data ?? {};
      const accounts = accountsFor(services, body.key, body.account_id);
      const n = services.store.nextId(COUNTERS.webhookEvent);
      const eventKey = body.event_key ?? `emu_${n}`;
      const data = buildEventPayload(type, { n, now: services.clock.nowIso() }, overrides);
      // The overrides may not break the event's contract (its table's `data` schema): a receiver is sent what the service sends.
      const problem = eventDataProblem(type, data);
      if (problem !== null) throw badRequest("invalid_value", `data is not a ${type} payload: ${problem}`);
      for (const account of accounts) publishEvent(services, account, type, eventKey, data, { triggered: true });
      // The first attempts start at once; by default answer after they finished.
      if (body.wait !== false) await dispatcherFor(services).idle();
      const id = `${type}:${eventKey}`;
      const slice = webhooksSlice(services.store);
      const deliveries = Object.values(slice.deliveries)
        .filter((d) => d.event_id === id)
        .map((d) => ({ ...deliveryWire(d), url: slice.webhooks[d.webhook_id]?.url ?? null }));
      return created({ event: { event: type, id, data }, account_ids: accounts, deliveries });
    },
  }),
  defineControl({
    method: "GET",
    path: "/webhooks",
    describe:
      "Every registered webhook of every key, with its owner, signing secret and own delivery chaos (operator view), and the event types POST /_emulator/events triggers",
    schema: {
      responses: {
        200: {
          description: "Every webhook and the delivery settings",
          data: z.object({
            webhooks: z.array(
              webhookSchema.extend({
                owner_key: z.string(),
                account_id: z.string(),
                signing_secret: z.string(),
                pending_deliveries: z.number().int(),
                chaos: chaosSchema.nullable(),
              }),
            ),
            settings: settingsSchema,
            event_types: z.array(z.string()),
          }),
        },
      },
    },
    handle: (c) => {
      const slice = webhooksSlice(c.services.store);
      const webhooks = Object.values(slice.webhooks).map((w) => ({
        ...webhookWire(w),
        owner_key: w.owner_key,
        account_id: w.account_id,
        signing_secret: w.secret,
        pending_deliveries: Object.values(slice.deliveries).filter(
          (d) => d.webhook_id === w.id && d.status === "PENDING",
        ).length,
        chaos: w.chaos ?? null,
      }));
      return ok({ webhooks, settings: slice.settings, event_types: [...EVENT_TYPES] });
    },
  }),
  defineControl({
    method: "GET",
    path: "/webhooks/outbox",
    describe:
      "Every delivery attempt (oldest first): url, the exact body and headers sent, the receiver's answer (status, headers, first 4 KiB of body), duration_ms and a curl command replaying it; filters webhook_id, delivery_id, event_id, event_type",
    schema: {
      query: outboxQuery,
      responses: {
        200: { description: "The attempts, oldest first", data: z.object({ attempts: z.array(attemptSchema) }) },
      },
    },
    handle: (c) => {
      let attempts: AttemptRecord[] = webhooksSlice(c.services.store).outbox;
      for (const name of outboxFilters) {
        const want = c.input.query[name];
        if (want !== undefined) attempts = attempts.filter((a) => String(a[name]) === want);
      }
      return ok({ attempts: attempts.map(attemptView) });
    },
  }),
  defineControl({
    method: "GET",
    path: "/webhooks/attempts/:id",
    describe:
      "One delivery attempt as the outbox shows it (sent body and headers, the answer, a curl command replaying it)",
    schema: {
      params: attemptId,
      responses: {
        200: { description: "The attempt", data: z.object({ attempt: attemptSchema }) },
        400: badInput,
        404: missing("attempt"),
      },
    },
    handle: (c) => {
      const id = Number(c.input.params.id);
      const attempt = webhooksSlice(c.services.store).outbox.find((a) => a.id === id);
      if (!attempt) throw notFound(`No attempt ${id} in the outbox (the last 1000 are kept)`);
      return ok({ attempt: attemptView(attempt) });
    },
  }),
  defineControl({
    method: "DELETE",
    path: "/webhooks/outbox",
    describe: "Forget the recorded attempts (deliveries and their state are kept)",
    schema: { responses: { 200: { description: "Cleared", data: flag("cleared") } } },
    handle: (c) => {
      webhooksSlice(c.services.store).outbox = [];
      return ok({ cleared: true });
    },
  }),
  defineControl({
    method: "POST",
    path: "/webhooks/retry",
    describe: "Retry pending deliveries now: those due (default), {all:true} for every pending one, or {delivery_id}",
    schema: {
      body: z.object({ delivery_id: opt(z.number().int().min(1)), all: opt(z.boolean()) }),
      responses: {
        200: {
          description: "The deliveries retried",
          data: z.object({ retried: z.number().int(), deliveries: z.array(deliverySchema) }),
        },
        400: {
          description: "A bad field, or the delivery is not PENDING",
          codes: ["invalid_value", "invalid_status", "invalid_json"],
        },
        404: missing("delivery"),
      },
    },
    handle: async (c) => {
      const { services } = c;
      const deliveryId = c.input.body.delivery_id;
      const all = c.input.body.all ?? false;
      const slice = webhooksSlice(services.store);
      const now = services.clock.now();
      let pending = Object.values(slice.deliveries).filter((d) => d.status === "PENDING");
      if (deliveryId !== undefined) {
        const d = slice.deliveries[deliveryId];
        if (!d) throw notFound(`No delivery ${deliveryId}`);
        if (d.status !== "PENDING")
          throw badRequest(
            "invalid_status",
            `Delivery ${deliveryId} is ${d.status}; only PENDING deliveries are retried`,
          );
        pending = [d];
      } else if (!all) pending = pending.filter((d) => d.next_retry_at !== null && Date.parse(d.next_retry_at) <= now);
      const ids = pending.map((d) => d.id);
      await dispatcherFor(services).retryNow(ids);
      const after = webhooksSlice(services.store);
      return ok({
        retried: ids.length,
        deliveries: ids
          .map((id) => after.deliveries[id])
          .filter(Boolean)
          .map(deliveryWire),
      });
    },
  }),
  defineControl({
    method: "POST",
    path: "/webhooks/resend",
    describe:
      "Resend a delivery {delivery_id} whatever its state (delivered or failed too): one attempt now, same event id and body, a fresh timestamp and signature; a failure goes on with the retry schedule",
    schema: {
      body: z.object({
        delivery_id: z
          .number({
            error: (iss) =>
              iss.input === undefined
                ? "delivery_id is required"
                : "delivery_id must be a delivery's id (a positive integer)",
          })
          .int()
          .min(1)
          .max(Number.MAX_SAFE_INTEGER),
      }),
      responses: {
        200: { description: "The delivery after the attempt", data: z.object({ delivery: deliverySchema }) },
        400: badInput,
        404: missing("delivery"),
        409: { description: "The delivery's webhook is inactive or gone", codes: ["invalid_status"] },
      },
    },
    handle: async (c) => {
      const { services } = c;
      const id = c.input.body.delivery_id;
      const slice = webhooksSlice(services.store);
      const d = own(slice.deliveries, String(id));
      if (!d) throw notFound(`No delivery ${id}`);
      const webhook = own(slice.webhooks, String(d.webhook_id));
      if (!webhook?.is_active)
        throw conflict(
          "invalid_status",
          `Delivery ${id}'s webhook ${d.webhook_id} is ${webhook ? "inactive" : "deleted"}; activate it first`,
        );
      // Reopened: the attempt counter goes on, so a failed resend backs off from where the delivery was.
      moveDelivery(d, "resend", services.clock.now(), { next_retry_at: null, delivered_at: null });
      await dispatcherFor(services).retryNow([id]);
      return ok({ delivery: deliveryWire(webhooksSlice(services.store).deliveries[id]!) });
    },
  }),
  defineControl({
    method: "PUT",
    path: "/webhooks/settings",
    describe:
      "Delivery settings {attempt_timeout_ms} (timeout of each attempt on the emulator clock, as much wall time at most; default 10000)",
    schema: {
      body: z.object({
        attempt_timeout_ms: z.number({ error: "attempt_timeout_ms is required" }).int().min(1).max(120_000),
      }),
      responses: { 200: { description: "The settings", data: z.object({ settings: settingsSchema }) }, 400: badInput },
    },
    handle: (c) => {
      const slice = webhooksSlice(c.services.store);
      slice.settings.attempt_timeout_ms = c.input.body.attempt_timeout_ms;
      return ok({ settings: slice.settings });
    },
  }),
  defineControl({
    method: "POST",
    path: "/webhooks/:id/chaos",
    describe:
      "Delivery chaos for one webhook {duplicate: {every}|{probability}, reorder_window_ms, delay_ms, drop_first_attempt, previous_secret_after_rotation, stale_timestamp_ms}; replaces its previous chaos ({} turns it off); deterministic from the seed, each case recorded on the attempt's `chaos`",
    schema: {
      params: webhookId,
      body: chaosSchema,
      responses: {
        200: { description: "The webhook's chaos and the createEmulator default", data: chaosAnswer },
        400: badInput,
        404: missing("webhook"),
      },
    },
    handle: (c) => {
      const w = webhookById(c.services, c.input.params.id);
      Object.assign(w, { chaos: c.input.body, chaos_count: 0 });
      delete w.chaos_window;
      return ok({ webhook_id: w.id, chaos: w.chaos ?? null, default: c.services.options.webhookChaos ?? null });
    },
  }),
  defineControl({
    method: "DELETE",
    path: "/webhooks/:id/chaos",
    describe: "Clear a webhook's own delivery chaos (the createEmulator webhookChaos default, if any, applies again)",
    schema: {
      params: webhookId,
      responses: {
        200: { description: "The webhook's chaos (null) and the default", data: chaosAnswer },
        400: badInput,
        404: missing("webhook"),
      },
    },
    handle: (c) => {
      const w = webhookById(c.services, c.input.params.id);
      for (const k of ["chaos", "chaos_count", "chaos_window"] as const) delete w[k];
      return ok({ webhook_id: w.id, chaos: null, default: c.services.options.webhookChaos ?? null });
    },
  }),
  defineControl({
    method: "POST",
    path: "/webhooks/:id/rotate-secret",
    describe:
      "Rotate a webhook's signing secret: later attempts are signed with the new one; the previous one is kept for the previous_secret_after_rotation chaos",
    schema: {
      params: webhookId,
      responses: {
        200: {
          description: "The new and the previous secret",
          data: z.object({ webhook_id: z.number().int(), signing_secret: z.string(), previous_secret: z.string() }),
        },
        400: badInput,
        404: missing("webhook"),
      },
    },
    handle: (c) => {
      const { services } = c;
      const w = webhookById(services, c.input.params.id);
      const n = services.store.nextId(COUNTERS.webhookRotation);
      const now = services.clock.nowIso();
      const previous = w.secret;
      Object.assign(w, {
        previous_secret: previous,
        secret: makeSecret(services.store.state.seed, w.id, `${now}:rotation:${n}`),
        updated_at: now,
      });
      return ok({ webhook_id: w.id, signing_secret: w.secret, previous_secret: previous });
    },
  }),
];
