import { EVENT_TYPES, type EventType } from "../../contract/events.ts";
import { signatureHeader } from "../../contract/webhook-signature.ts";
import { CheckFailure } from "../types.ts";
import type { Probe } from "./probe.ts";
import { receiverCheckHeaders, signedDelivery, type Answer, type Delivery } from "./send.ts";

// The receiver check's cases (docs/webhooks.md "Certify your receiver"): every
// event type, correctly signed, must be acknowledged (2xx) in time and applied
// once; forged, stale and oversized deliveries must be refused and not applied;
// a duplicate must get the same answer as the first and not be applied again.

export interface CaseContext {
  secret: string;
  /** The freshness window a receiver must enforce (the SDK's default). */
  toleranceMs: number;
  /** The time a receiver has to answer (the service's per-attempt timeout). */
  timeoutMs: number;
  probe: Probe | null;
  /** A new event of this run: a unique id and a realistic payload (`n` shared by related events). */
  event(type: EventType, n?: number): { id: string; data: Record<string, unknown>; n: number };
  send(d: Delivery): Promise<Answer>;
  note(text: string): void;
}

export interface ReceiverCase {
  id: string;
  title: string;
  rule: string;
  run(ctx: CaseContext): Promise<void>;
}

const ok = (a: Answer) => a.status !== null && a.status >= 200 && a.status < 300;
const said = (a: Answer) => (a.status === null ? (a.error ?? "no answer") : `HTTP ${a.status}`);

function accepted(ctx: CaseContext, a: Answer, what: string): void {
  if (!ok(a))
    throw new CheckFailure(`${what}: expected a 2xx, got ${said(a)}${a.body ? ` (${a.body.slice(0, 200)})` : ""}`);
  if (a.duration_ms > ctx.timeoutMs)
    throw new CheckFailure(`${what}: answered in ${a.duration_ms} ms, the service gives up after ${ctx.timeoutMs} ms`);
}

/**
 * Refused: a non-2xx answer; never a 2xx, never a hang. A closed connection counts only where
 * `closedIsRefusal` (a huge body cut off); elsewhere it means the receiver is not there.
 */
function refused(ctx: CaseContext, a: Answer, what: string, closedIsRefusal = false): void {
  if (ok(a)) throw new CheckFailure(`${what}: accepted with HTTP ${a.status}; it must be refused with a non-2xx`);
  if (a.error?.startsWith("timeout")) throw new CheckFailure(`${what}: ${a.error}; refuse it at once`);
  if (a.status === null && !closedIsRefusal)
    throw new CheckFailure(`${what}: no HTTP answer (${a.error}); refuse it with a non-2xx status`);
  ctx.note(`${what}: refused with ${said(a)}`);
}

/** With a probe: each id was applied exactly `times` times. */
async function applied(ctx: CaseContext, ids: readonly string[], times: number, what: string): Promise<void> {
  if (!ctx.probe) return;
  const counts = await ctx.probe.counts(ids);
  for (const [id, n] of counts)
    if (n !== times) throw new CheckFailure(`${what}: the probe shows ${id} applied ${n} time(s), expected ${times}`);
}

function deliver(ctx: CaseContext, type: EventType, n?: number): Delivery {
  const e = ctx.event(type, n);
  return signedDelivery(ctx.secret, type, e.id, e.data);
}

const eventCases: ReceiverCase[] = EVENT_TYPES.map((type) => ({
  id: `event.${type}`,
  title: `accepts ${type}`,
  rule: "A correctly signed delivery of a documented event is answered 2xx within the service's timeout and applied once.",
  async run(ctx) {
    const d = deliver(ctx, type);
    accepted(ctx, await ctx.send(d), type);
    await applied(ctx, [d.id], 1, type);
  },
}));

/** A forged or stale delivery: refused and not applied. */
const forged = (id: string, title: string, rule: string, make: (ctx: CaseContext) => Delivery): ReceiverCase => ({
  id,
  title,
  rule,
  async run(ctx) {
    const d = make(ctx);
    refused(ctx, await ctx.send(d), title);
    await applied(ctx, [d.id], 0, title);
  },
});

const OTHER_SECRET = "0".repeat(64);

const hostileCases: ReceiverCase[] = [
  forged(
    "signature.wrong_secret",
    "refuses a signature made with another secret",
    "The HMAC must be checked against the webhook's own signing secret.",
    (ctx) => {
      const e = ctx.event("purchase.fulfilled");
      return signedDelivery(OTHER_SECRET, "purchase.fulfilled", e.id, e.data);
    },
  ),
  forged(
    "signature.missing",
    "refuses a delivery without X-Mystery-Signature",
    "An unsigned delivery is not from the service.",
    (ctx) => {
      const e = ctx.event("deposit.credited");
      const body = JSON.stringify({ event: "deposit.credited", id: e.id, data: e.data });
      return {
        event: "deposit.credited",
        id: e.id,
        body,
        headers: receiverCheckHeaders("deposit.credited", e.id, Date.now(), null),
      };
    },
  ),
  forged(
    "signature.tampered_body",
    "refuses a body changed after signing",
    "The signature covers the exact raw body: a changed byte must fail verification.",
    (ctx) => {
      const d = deliver(ctx, "deposit.credited");
      return { ...d, body: d.body.replace('"amount":"', '"amount":"9') };
    },
  ),
  forged(
    "timestamp.stale",
    "refuses a timestamp older than the tolerance",
    "`t` further in the past than the tolerance (5 minutes) is a replay and must be refused.",
    (ctx) => {
      const e = ctx.event("purchase.refunded");
      return signedDelivery(ctx.secret, "purchase.refunded", e.id, e.data, Date.now() - ctx.toleranceMs - 60_000);
    },
  ),
  forged(
    "timestamp.future",
    "refuses a timestamp beyond the tolerance in the future",
    "`t` further in the future than the tolerance must be refused too.",
    (ctx) => {
      const e = ctx.event("purchase.refunded");
      return signedDelivery(ctx.secret, "purchase.refunded", e.id, e.data, Date.now() + ctx.toleranceMs + 60_000);
    },
  ),
  {
    id: "duplicate.replay",
    title: "answers a redelivered event the same and applies it once",
    rule: "Delivery is at-least-once: a retry of an accepted delivery id (fresh timestamp and signature) gets the same 2xx and no second side effect.",
    async run(ctx) {
      const e = ctx.event("purchase.fulfilled");
      const first = await ctx.send(signedDelivery(ctx.secret, "purchase.fulfilled", e.id, e.data));
      accepted(ctx, first, "first delivery");
      const again = await ctx.send(signedDelivery(ctx.secret, "purchase.fulfilled", e.id, e.data, Date.now() + 1));
      accepted(ctx, again, "redelivery");
      if (again.status !== first.status)
        throw new CheckFailure(
          `redelivery answered ${again.status}, the first delivery ${first.status}: a duplicate gets the same answer`,
        );
      await applied(ctx, [e.id], 1, "redelivery");
    },
  },
  {
    id: "duplicate.parallel",
    title: "applies the same event sent twice at once only once",
    rule: "Two deliveries of one event id arriving together both get a 2xx, and the side effect happens once (dedupe atomically, not check-then-write).",
    async run(ctx) {
      const d = deliver(ctx, "deposit.credited");
      const [a, b] = await Promise.all([ctx.send(d), ctx.send(d)]);
      accepted(ctx, a, "first of two");
      accepted(ctx, b, "second of two");
      if (a.status !== b.status)
        throw new CheckFailure(
          `the two deliveries were answered ${a.status} and ${b.status}: a duplicate gets the same answer`,
        );
      await applied(ctx, [d.id], 1, "parallel duplicate");
    },
  },
  {
    id: "order.fulfilled_before_submitted",
    title: "accepts events out of order",
    rule: "Delivery order is not guaranteed: purchase.fulfilled may arrive before purchase.submitted of the same purchase; both are acknowledged and applied once.",
    async run(ctx) {
      const n = ctx.event("purchase.fulfilled").n;
      const later = deliver(ctx, "purchase.fulfilled", n);
      const earlier = deliver(ctx, "purchase.submitted", n);
      accepted(ctx, await ctx.send(later), "purchase.fulfilled first");
      accepted(ctx, await ctx.send(earlier), "purchase.submitted after it");
      await applied(ctx, [later.id, earlier.id], 1, "out-of-order events");
    },
  },
  {
    id: "event.unknown_type",
    title: "acknowledges an event type it does not know",
    rule: "A newer service may send a type the receiver does not know: acknowledge it (2xx) and ignore it; a non-2xx is retried and then lost.",
    async run(ctx) {
      const e = ctx.event("purchase.reserved");
      const id = e.id.replace(/^purchase\.reserved:/, "receiver_check.unknown:");
      accepted(
        ctx,
        await ctx.send(
          signedDelivery(ctx.secret, "receiver_check.unknown", id, { note: "a type this receiver cannot know" }),
        ),
        "unknown event type",
      );
    },
  },
  {
    id: "body.huge",
    title: "refuses a huge forged body and keeps answering",
    rule: "A 5 MiB body with a bad signature is refused (non-2xx or a closed connection) within the timeout, and the receiver still accepts the next real event.",
    async run(ctx) {
      const e = ctx.event("purchase.fulfilled");
      const body = JSON.stringify({
        event: "purchase.fulfilled",
        id: e.id,
        data: { ...e.data, padding: "x".repeat(5 * 1024 * 1024) },
      });
      const t = Date.now();
      const huge: Delivery = {
        event: "purchase.fulfilled",
        id: e.id,
        body,
        headers: receiverCheckHeaders("purchase.fulfilled", e.id, t, signatureHeader(OTHER_SECRET, t, body)),
      };
      refused(ctx, await ctx.send(huge), "5 MiB forged body", true);
      await applied(ctx, [e.id], 0, "5 MiB forged body");
      const next = deliver(ctx, "deposit.credited");
      accepted(ctx, await ctx.send(next), "the next real event");
      await applied(ctx, [next.id], 1, "the next real event");
    },
  },
];

export const RECEIVER_CASES: readonly ReceiverCase[] = [...eventCases, ...hostileCases];
