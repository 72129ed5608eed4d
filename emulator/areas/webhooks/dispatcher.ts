import { portSlot } from "../../pipeline/runtime.ts";
import type { Services } from "../../pipeline/services.ts";
import type { BusEvents } from "../../bus.ts";
import { webhooksSlice, type AttemptRecord, type DeliveryRecord, type WebhookRecord } from "./model.ts";
import { nextDelay } from "./schedule.ts";
import { clockDeadline } from "../../clock/deadline.ts";
import { deliveryHeaders, signatureHeader } from "../../../contract/webhook-signature.ts";
import { deliveryBody, deliveryHeaders as hookedHeaders, signingOffsetMs } from "../../pipeline/hooks.ts";
import { postJson } from "./transport.ts";
import { ownListenerProblem } from "../../pipeline/own-listeners.ts";
import { moveDelivery, NEW_DELIVERY_STATUS } from "./delivery-moves.ts";
import { chaosOf, firstAttemptChaos, holdFirstAttempt, type FirstAttemptChaos } from "./chaos.ts";
import { isoOf } from "../../../contract/time.ts";
import { COUNTERS } from "../../state/ids.ts";

// Delivers events to webhooks: one delivery per (webhook, event id), each
// attempt a real signed HTTP POST, retries on the virtual clock. The state of
// every delivery lives in the store; timers are only a cache of it, re-armed
// from `next_retry_at` whenever the state is replaced (reset, restore, import).

export const USER_AGENT = "CardOS-Webhooks/1.0 (cardos-emulator)";
/** Kept so the outbox and the delivery log do not grow without bound in long realtime sessions. */
const MAX_OUTBOX = 1000;
const MAX_FINISHED_DELIVERIES = 5000;

type WebhookEvent = BusEvents["webhook.event"];

export class Dispatcher {
  /** delivery id → clock timer id */
  private timers = new Map<number, number>();
  private inFlight = new Set<number>();
  /** Attempts under way, so callers can wait for them (`idle`). */
  private running = new Set<Promise<void>>();
  /** Bumped when the state is replaced, so an answer from the old world is not written into the new one. */
  private epoch = 0;
  private kickQueued = false;

  constructor(private readonly services: Services) {}

  start(): () => void {
    const { bus } = this.services;
    const offEvent = bus.on("webhook.event", (e) => void this.publish(e));
    const offReplaced = bus.on("state.replaced", () => this.rearm());
    this.rearm();
    return () => {
      offEvent();
      offReplaced();
      this.cancelAll();
    };
  }

  /** Creates a delivery for every matching active webhook of the event's account; the first attempts run at once. */
  publish(e: WebhookEvent): DeliveryRecord[] {
    const { store, clock } = this.services;
    const slice = webhooksSlice(store);
    const eventId = `${e.type}:${e.key}`;
    const body = JSON.stringify({ event: e.type, id: eventId, data: e.data });
    const now = clock.nowIso();
    const existing = new Set(
      Object.values(slice.deliveries)
        .filter((d) => d.event_id === eventId)
        .map((d) => d.webhook_id),
    );
    const created: DeliveryRecord[] = [];
    for (const w of matching(slice.webhooks, e)) {
      // The same occurrence (same event id) is never delivered twice to one webhook.
      if (existing.has(w.id)) continue;
      const d: DeliveryRecord = {
        id: store.nextId(COUNTERS.webhookDelivery),
        webhook_id: w.id,
        owner_key: w.owner_key,
        event_type: e.type,
        event_id: eventId,
        body,
        status: NEW_DELIVERY_STATUS,
        attempts: 0,
        last_status_code: null,
        last_error: null,
        next_retry_at: now,
        delivered_at: null,
        created_at: now,
      };
      const chaos = chaosOf(w, this.services.options.webhookChaos);
      if (chaos) {
        const held = holdFirstAttempt(w, chaos, clock.now());
        if (held.labels.length) Object.assign(d, { next_retry_at: isoOf(held.at), chaos_held: held.labels });
      }
      slice.deliveries[d.id] = d;
      created.push(d);
      this.arm(d);
    }
    if (created.length) {
      prune(slice);
      this.kick();
    }
    return created;
  }

  /** Runs what is due (first attempts included) and resolves when no attempt is under way. */
  async idle(): Promise<void> {
    await this.services.clock.runDue();
    while (this.running.size) await Promise.all([...this.running]);
  }

  /**
   * The timer's job. The clock does not wait for the attempt: other timers keep firing while a receiver
   * keeps it open. Held until the attempt's deadline (a clock timer at now + the timeout, see `attempt`):
   * the advance that made the attempt waits for its answer before reaching the deadline, so one advance still
   * runs a whole retry schedule in order, in either clock mode; a later advance past the deadline ends an
   * attempt still open (its retry is stamped from there).
   */
  private fireFromClock(id: number): void {
    const { clock, store } = this.services;
    const t = clock.now(); // one reading: a realtime clock moves between two
    clock.hold(this.fire(id, t), t + webhooksSlice(store).settings.attempt_timeout_ms);
  }

  private fire(id: number, t = this.services.clock.now()): Promise<void> {
    const p = this.attempt(id, t).catch((err: unknown) =>
      console.error(`[emulator] webhook delivery ${id} failed:`, err),
    );
    this.running.add(p);
    void p.then(() => this.running.delete(p));
    return p;
  }

  /** Runs the given pending deliveries now (out of their backoff), one after another. */
  async retryNow(ids: readonly number[]): Promise<void> {
    for (const id of ids) {
      this.disarm(id);
      await this.fire(id);
    }
  }

  /** Drops the timers of deliveries removed from the state (webhook deleted). */
  forget(ids: readonly number[]): void {
    for (const id of ids) this.disarm(id);
  }

  /** The first attempt must not wait for a clock advance: run due timers as soon as the caller's turn ends. */
  private kick(): void {
    if (this.kickQueued) return;
    this.kickQueued = true;
    queueMicrotask(() => {
      this.kickQueued = false;
      void this.services.clock.runDue();
    });
  }

  private arm(d: DeliveryRecord): void {
    if (d.status !== "PENDING" || !d.next_retry_at) return;
    this.disarm(d.id);
    const at = Date.parse(d.next_retry_at);
    const timer = this.services.clock.schedule(
      at,
      () => this.fireFromClock(d.id),
      `webhook delivery ${d.id} (${d.event_id}) attempt ${d.attempts + 1}`,
    );
    this.timers.set(d.id, timer);
  }

  private disarm(id: number): void {
    const timer = this.timers.get(id);
    if (timer !== undefined) this.services.clock.cancel(timer);
    this.timers.delete(id);
  }

  private cancelAll(): void {
    for (const timer of this.timers.values()) this.services.clock.cancel(timer);
    this.timers.clear();
  }

  private rearm(): void {
    this.epoch++;
    this.cancelAll();
    this.inFlight.clear();
    for (const d of Object.values(webhooksSlice(this.services.store).deliveries)) this.arm(d);
  }

  /** One attempt at clock time `t`: sign, POST, record the outcome, schedule the next attempt or finish. */
  private async attempt(id: number, t: number): Promise<void> {
    this.timers.delete(id);
    if (this.inFlight.has(id)) return;
    const { store, clock } = this.services;
    const slice = webhooksSlice(store);
    const d = slice.deliveries[id];
    if (!d || d.status !== "PENDING") return;
    const webhook = slice.webhooks[d.webhook_id];
    if (!webhook) {
      delete slice.deliveries[id];
      return;
    }
    if (!webhook.is_active) {
      // Deactivating a webhook stops its retries too (our choice; docs/webhooks.md).
      moveDelivery(d, "deactivated", clock.now(), { last_error: "webhook is inactive", next_retry_at: null });
      return;
    }

    const epoch = this.epoch;
    const chaos = chaosOf(webhook, this.services.options.webhookChaos);
    const first = d.attempts === 0 && chaos ? firstAttemptChaos(store.state.seed, webhook, d, chaos) : null;
    const labels = [...(d.attempts === 0 ? (d.chaos_held ?? []) : []), ...chaosLabels(first)];
    // Signed with the wall-clock time of the attempt: receivers check it against their own clock
    // (5-minute tolerance), so a virtual-clock stamp fails after any jump (docs/webhooks.md).
    const secret = first?.previousSecret && webhook.previous_secret ? webhook.previous_secret : webhook.secret;
    const signedAt = clock.wall() + signingOffsetMs(this.services) - (first?.staleMs ?? 0);
    // The body as stored, unless a plugin's hook rewrites what is sent (none by default).
    const body = deliveryBody(this.services, d.body, d.attempts + 1);
    const headers = deliveryHeaders(
      USER_AGENT,
      d.event_type,
      d.event_id,
      signedAt,
      signatureHeader(secret, signedAt, body),
    );
    hookedHeaders(this.services, headers, d.attempts + 1);
    this.inFlight.add(id);
    let result;
    let duplicate: Awaited<ReturnType<typeof postJson>> | null = null;
    // The timeout runs on the emulator's clock (an advance past it ends the attempt at once), with as much
    // wall time as a bound for a clock that does not move; the chaos duplicate is sent within the same deadline.
    const timeoutMs = slice.settings.attempt_timeout_ms;
    const deadline = clockDeadline(
      clock,
      t + timeoutMs,
      `webhook attempt ${d.attempts + 1} of delivery ${id}: deadline`,
    );
    try {
      // A webhook registered before the emulator listened where it points (an imported state) still never reaches it.
      const self = ownListenerProblem(this.services, webhook.url);
      if (self) result = { status: null, headers: {}, body: null, error: `refused: ${self}`, duration_ms: 0 };
      else if (first?.drop)
        result = {
          status: null,
          headers: {},
          body: null,
          error: "chaos: first attempt dropped (never sent)",
          duration_ms: 0,
        };
      else {
        result = await postJson(webhook.url, headers, body, timeoutMs, deadline.signal);
        // The same request again, byte for byte, as an at-least-once sender may do.
        if (first?.duplicate) duplicate = await postJson(webhook.url, headers, body, timeoutMs, deadline.signal);
      }
    } finally {
      deadline.clear();
      if (epoch === this.epoch) this.inFlight.delete(id);
    }
    if (epoch !== this.epoch) return;

    const now = webhooksSlice(store);
    const current = now.deliveries[id];
    if (!current || current.status !== "PENDING") return; // deleted while the request was in flight
    current.attempts += 1;
    current.last_status_code = result.status;
    current.last_error = result.error;
    if (result.error === null) {
      moveDelivery(current, "deliver", clock.now(), { delivered_at: clock.nowIso(), next_retry_at: null });
    } else {
      const delay = nextDelay(current.attempts);
      if (delay === null) moveDelivery(current, "give_up", clock.now(), { next_retry_at: null });
      else {
        moveDelivery(current, "retry", clock.now(), { next_retry_at: isoOf(clock.now() + delay) });
        this.arm(current);
      }
    }
    const base = {
      delivery_id: id,
      webhook_id: current.webhook_id,
      event_type: current.event_type,
      event_id: current.event_id,
      attempt: current.attempts,
      url: webhook.url,
      request: { method: "POST" as const, headers, body },
      at: isoOf(t),
    };
    record(now, {
      id: store.nextId(COUNTERS.webhookAttempt),
      ...base,
      ...outcomeOf(result),
      ...(labels.length ? { chaos: labels } : {}),
    });
    // The duplicate does not change the delivery's state: the sender already had its answer.
    if (duplicate)
      record(now, {
        id: store.nextId(COUNTERS.webhookAttempt),
        ...base,
        ...outcomeOf(duplicate),
        chaos: ["duplicate"],
      });
  }
}

function outcomeOf(
  result: Awaited<ReturnType<typeof postJson>>,
): Pick<AttemptRecord, "response" | "error" | "outcome" | "duration_ms"> {
  return {
    response:
      result.status === null ? null : { status: result.status, headers: result.headers, body: result.body ?? "" },
    error: result.error,
    outcome: result.error === null ? "delivered" : "failed",
    duration_ms: result.duration_ms,
  };
}

function chaosLabels(c: FirstAttemptChaos | null): string[] {
  if (!c) return [];
  const out: string[] = [];
  if (c.drop) out.push("dropped");
  if (c.previousSecret) out.push("signed with the previous secret");
  if (c.staleMs) out.push(`timestamp ${c.staleMs} ms stale`);
  return out;
}

/** Active webhooks of the event's account subscribed to its type (empty event_types = every event). */
function matching(webhooks: Record<string, WebhookRecord>, e: WebhookEvent): WebhookRecord[] {
  return Object.values(webhooks).filter(
    (w) =>
      w.account_id === e.account_id && w.is_active && (w.event_types.length === 0 || w.event_types.includes(e.type)),
  );
}

function record(slice: ReturnType<typeof webhooksSlice>, attempt: AttemptRecord): void {
  slice.outbox.push(attempt);
  if (slice.outbox.length > MAX_OUTBOX) slice.outbox.splice(0, slice.outbox.length - MAX_OUTBOX);
}

function prune(slice: ReturnType<typeof webhooksSlice>): void {
  const finished = Object.values(slice.deliveries).filter((d) => d.status !== "PENDING");
  for (const d of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED_DELIVERIES)))
    delete slice.deliveries[d.id];
}

/** One dispatcher per emulator, in its runtime (Area objects are shared module constants). */
const DISPATCHER = portSlot<Dispatcher>("webhook dispatcher");

export function dispatcherFor(services: Services): Dispatcher {
  const runtime = services.runtime;
  if (!runtime.has(DISPATCHER)) runtime.provide(DISPATCHER, new Dispatcher(services));
  return runtime.of(DISPATCHER);
}
