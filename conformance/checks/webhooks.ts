import type { Check, CheckContext } from "../types.ts";
import { emulatorOnly, NotApplicable, runs } from "../types.ts";
import type { HttpClient } from "../../harness/http.ts";
import { ensure, env, expectError, expectSuccess, sameFields } from "../assert.ts";
import { signatureValid, startCheckReceiver } from "../../harness/webhook-receiver.ts";
import { SIGNATURE_TOLERANCE_MS, webhookHeader } from "../../contract/webhook-signature.ts";
import { buyAndReveal, PACK_USDC } from "./commerce.ts";
import { waitFor } from "../wait.ts";
import { isoOf } from "../../contract/time.ts";

// Checks of the webhooks area: the registry's rules (secret shown once, event
// type validation, the 20-per-key limit, per-key visibility), the delivery
// log's shape, and real signed deliveries to a receiver started by the check.
// Every webhook a check registers is deleted before it ends.

const PUBLIC_URL = "https://example.com/cardos-conformance";
const HEX64 = /^[0-9a-f]{64}$/;
const DELIVERY_FIELDS = [
  "id",
  "webhook_id",
  "event_type",
  "event_id",
  "status",
  "attempts",
  "last_status_code",
  "last_error",
  "next_retry_at",
  "delivered_at",
  "created_at",
];
/** Our documented schedule's last attempt is 7 h 12 min 30 s after the first; advance a little past it. */
const WHOLE_SCHEDULE_MS = 8 * 3_600_000;

type Registration = { id: number; signing_secret?: unknown };

async function registerHook(
  http: HttpClient,
  key: string,
  body: Record<string, unknown>,
  what: string,
): Promise<Registration> {
  const b = expectSuccess(await http.post("/api/v1/webhooks", { key, body }), what, 201);
  const data = b.data as Registration;
  ensure(typeof data?.id === "number", `${what}: data.id must be a number, got ${JSON.stringify(data?.id)}`);
  return data;
}

async function deleteHooks(http: HttpClient, key: string, ids: readonly number[]): Promise<void> {
  for (const id of ids) await http.call("DELETE", `/api/v1/webhooks/${id}`, { key });
}

/** Registers a webhook of purchase.fulfilled at PUBLIC_URL (nothing is delivered there), lends it to `use`, deletes it. */
async function withPublicHook(
  http: HttpClient,
  key: string,
  use: (hook: Registration) => Promise<void>,
): Promise<void> {
  const hook = await registerHook(
    http,
    key,
    { url: PUBLIC_URL, event_types: ["purchase.fulfilled"] },
    "POST /api/v1/webhooks",
  );
  try {
    await use(hook);
  } finally {
    await deleteHooks(http, key, [hook.id]);
  }
}

/**
 * Registers a receiver, makes one purchase.fulfilled for the key's account and lets the first attempt run:
 * the emulator publishes it (control plane); elsewhere the wallet buys a pack and the reveal publishes it,
 * delivered to the partner's public receiver URL (waited for in real time). `seen` holds the deliveries of
 * that event only (a shared receiver URL may get others).
 */
async function deliverOnce(ctx: CheckContext, status: number) {
  const { http, partnerKey, control } = ctx;
  // The emulator posts to loopback; the suite's observer (its delivery invariants) rides along either way.
  const observe = ctx.receiver?.observe;
  const rx = await startCheckReceiver(status, control ? (observe ? { observe } : {}) : (ctx.receiver ?? {}));
  const hook = await registerHook(
    http,
    partnerKey,
    { url: rx.url, event_types: ["purchase.fulfilled"] },
    "register a receiver",
  );
  try {
    if (control) {
      const event = await control.request<{ event: { id: string } }>("POST", "/events", {
        type: "purchase.fulfilled",
        key: partnerKey,
      });
      await control.advance(0);
      return { rx, hook, eventId: event.event.id, seen: () => rx.deliveries };
    }
    ensure(ctx.wallet, "no test wallet");
    const { purchase } = await buyAndReveal(ctx, ctx.wallet);
    const ofPurchase = () => rx.deliveries.filter((d) => d.body.includes(`"purchase_id":${purchase.id}`));
    const first = await waitFor(
      ctx,
      `the delivery of purchase ${purchase.id}'s purchase.fulfilled`,
      async () => ofPurchase()[0],
    );
    ensure(
      first,
      `the receiver got no purchase.fulfilled delivery of purchase ${purchase.id} (it saw ${rx.deliveries.length})`,
    );
    return { rx, hook, eventId: webhookHeader(first.headers, "delivery") ?? "", seen: ofPurchase };
  } catch (err) {
    await rx.close();
    await deleteHooks(http, partnerKey, [hook.id]);
    throw err;
  }
}

/** Delivery checks: an event for the key's account, delivered to a receiver the target reaches (sandbox: a real purchase). */
const delivering = { ...runs("sandbox", ["partnerKey", "wallet", "webhookUrl"]), spendUsdc: PACK_USDC };

export const webhooksChecks: Check[] = [
  {
    id: "webhooks.secret-shown-once",
    guards: "docs/reference/api-rules.md “Webhook”; docs/reference/live-service.md “Webhook registry”",
    profile: "webhooks",
    title: "Registration returns a 64-hex signing secret; GET and list never show it",
    rule: "The signing secret is returned once, at registration, and never again, including by the get-webhook endpoint.",
    ...runs("sandbox", ["partnerKey"]),
    deviation: "webhook_secret_leaks",
    async run({ http, partnerKey }) {
      await withPublicHook(http, partnerKey, async (hook) => {
        const secret = hook.signing_secret;
        ensure(
          typeof secret === "string" && HEX64.test(secret),
          `signing_secret must be 64 hex characters, got ${JSON.stringify(secret)}`,
        );
        const got = await http.get(`/api/v1/webhooks/${hook.id}`, { key: partnerKey });
        const webhook = (expectSuccess(got, "GET /api/v1/webhooks/:id").data as { webhook?: Record<string, unknown> })
          .webhook;
        ensure(webhook && webhook.id === hook.id, "GET must return data.webhook with the same id");
        for (const f of ["url", "is_active", "event_types", "created_at"])
          ensure(f in webhook, `data.webhook must carry ${f}`);
        ensure(
          !("signing_secret" in webhook) && !got.text.includes(secret),
          "GET /api/v1/webhooks/:id must not show the signing secret",
        );
        const list = await http.get("/api/v1/webhooks", { key: partnerKey });
        expectSuccess(list, "GET /api/v1/webhooks");
        ensure(!list.text.includes(secret), "GET /api/v1/webhooks must not show the signing secret");
      });
    },
  },
  {
    id: "webhooks.invalid-event-types",
    guards: "docs/reference/api-rules.md “Webhook endpoints” and “Events”",
    profile: "webhooks",
    title: "Unknown or not-live event types → 400 invalid_event_types",
    rule: "Any unknown event type name rejects the whole registration with 400 invalid_event_types; catalog events are documented but not live.",
    ...runs("sandbox", ["partnerKey"]),
    deviation: "lenient_event_types",
    async run({ http, partnerKey }) {
      for (const types of [["purchase.fulfilled", "conformance.not_an_event"], ["card.price_updated"]]) {
        const r = await http.post("/api/v1/webhooks", {
          key: partnerKey,
          body: { url: PUBLIC_URL, event_types: types },
        });
        if (r.status === 201) await deleteHooks(http, partnerKey, [(env(r).data as Registration).id]);
        expectError(r, 400, "invalid_event_types", `event_types ${JSON.stringify(types)}`);
      }
    },
  },
  {
    id: "webhooks.limit-20",
    guards: "docs/reference/api-rules.md “Other limits” (20 webhooks per key) and “Error codes” (409 webhook_limit)",
    profile: "webhooks",
    title: "The 21st webhook of a key → 409 webhook_limit",
    rule: "A key may have at most 20 webhooks (webhook_limit, 409).",
    ...runs("sandbox", ["partnerKey"]),
    deviation: "no_webhook_limit",
    async run({ http, partnerKey, note }) {
      const listed = expectSuccess(await http.get("/api/v1/webhooks", { key: partnerKey }), "GET /api/v1/webhooks");
      const existing = ((listed.data as { webhooks?: unknown[] }).webhooks ?? []).length;
      const created: number[] = [];
      try {
        for (let i = existing; i < 20; i++)
          created.push((await registerHook(http, partnerKey, { url: `${PUBLIC_URL}/${i}` }, `webhook #${i + 1}`)).id);
        const over = await http.post("/api/v1/webhooks", { key: partnerKey, body: { url: `${PUBLIC_URL}/21` } });
        if (over.status === 201) created.push((env(over).data as Registration).id);
        expectError(over, 409, "webhook_limit", "the 21st webhook");
        note(`${existing} existed, created ${created.length}`);
      } finally {
        await deleteHooks(http, partnerKey, created);
      }
    },
  },
  {
    id: "webhooks.other-key-404",
    guards: "docs/reference/api-rules.md “Error codes” (404 not_found: webhook missing or not the caller’s)",
    profile: "webhooks",
    title: "Another key's webhook and a missing id → 404 not_found",
    rule: "GET /api/v1/webhooks/:id is 404 not_found when no webhook with that id exists on the key.",
    ...runs("sandbox", ["partnerKey", "tenantKey"]),
    deviation: "webhook_visible_to_other_keys",
    async run({ http, partnerKey, tenantKey, control }) {
      const other = control ? await control.newKey({ kind: "partner" }) : tenantKey;
      const hook = await registerHook(http, partnerKey, { url: PUBLIC_URL }, "register with the first key");
      try {
        expectError(
          await http.get(`/api/v1/webhooks/${hook.id}`, { key: other }),
          404,
          "not_found",
          "GET another key's webhook",
        );
        expectError(
          await http.get("/api/v1/webhooks/987654321", { key: partnerKey }),
          404,
          "not_found",
          "GET a webhook id that does not exist",
        );
      } finally {
        await deleteHooks(http, partnerKey, [hook.id]);
      }
    },
  },
  {
    id: "webhooks.deliveries-shape",
    guards: "docs/reference/api-rules.md “Webhook delivery” and “Response envelope” (pagination)",
    profile: "webhooks",
    title: "The delivery log is data.deliveries with pagination {limit, offset, has_more}",
    rule: "GET /api/v1/webhooks/deliveries takes limit and offset and returns data.deliveries and pagination; empty when there are no attempts.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "deliveries_without_pagination",
    async run({ http, partnerKey }) {
      const r = await http.get("/api/v1/webhooks/deliveries", { key: partnerKey, query: { limit: 1, offset: 0 } });
      const b = expectSuccess(r, "GET /api/v1/webhooks/deliveries?limit=1");
      const rows = (b.data as { deliveries?: unknown }).deliveries;
      ensure(Array.isArray(rows), "data.deliveries must be an array");
      const p = (r.body as { pagination?: { limit?: unknown; offset?: unknown; has_more?: unknown } }).pagination;
      ensure(
        p && p.limit === 1 && p.offset === 0 && typeof p.has_more === "boolean",
        `pagination must be {limit:1, offset:0, has_more:boolean}, got ${JSON.stringify(p)}`,
      );
      ensure(rows.length <= 1, `limit=1 returned ${rows.length} rows`);
      for (const row of rows as Record<string, unknown>[]) {
        for (const f of DELIVERY_FIELDS) ensure(f in row, `a delivery row must carry ${f}`);
        ensure(
          ["PENDING", "DELIVERED", "FAILED"].includes(String(row.status)),
          `delivery status must be PENDING|DELIVERED|FAILED, got ${String(row.status)}`,
        );
      }
    },
  },
  {
    id: "webhooks.signed-delivery",
    guards:
      "docs/reference/api-rules.md “Events”; docs/reference/live-service.md “Webhook delivery and signatures” (signature)",
    profile: "webhooks",
    title: "A delivery reaches a local receiver with {event,id,data} and a valid X-Mystery-Signature",
    rule: 'Deliveries POST {event, id, data} with X-Mystery-Event, X-Mystery-Delivery (the event id), X-Mystery-Timestamp (unix ms) and X-Mystery-Signature t=<ms>,sha256=HMAC-SHA256(secret, "t.raw_body").',
    ...delivering,
    deviation: "webhook_secret_mismatch",
    async run(ctx) {
      const { rx, hook, eventId, seen } = await deliverOnce(ctx, 200);
      try {
        ensure(seen().length === 1, `the receiver must get exactly one delivery, got ${seen().length}`);
        const [d] = seen();
        let body: { event?: unknown; id?: unknown; data?: unknown };
        try {
          body = JSON.parse(d.body);
        } catch {
          throw new Error(`delivery body is not JSON: ${d.body.slice(0, 120)}`);
        }
        ensure(
          body.event === "purchase.fulfilled" && body.id === eventId && typeof body.data === "object",
          `body must be {event, id, data}, got ${d.body.slice(0, 160)}`,
        );
        ensure(webhookHeader(d.headers, "event") === "purchase.fulfilled", "X-Mystery-Event must name the event");
        ensure(webhookHeader(d.headers, "delivery") === eventId, `X-Mystery-Delivery must be the event id ${eventId}`);
        const v = await signatureValid(
          String(hook.signing_secret),
          webhookHeader(d.headers, "signature") ?? "",
          d.body,
        );
        ensure(
          v.ok,
          `X-Mystery-Signature does not verify with the secret returned at registration (${webhookHeader(d.headers, "signature")})`,
        );
        ensure(
          v.t === webhookHeader(d.headers, "timestamp") && /^\d{13}$/.test(v.t ?? ""),
          "the signature's t must equal X-Mystery-Timestamp, in milliseconds",
        );
      } finally {
        await rx.close();
        await deleteHooks(ctx.http, ctx.partnerKey, [hook.id]);
      }
    },
  },
  {
    id: "webhooks.delivery-log-values",
    guards: "docs/reference/api-rules.md “Webhook delivery” and “Events”",
    profile: "webhooks",
    title: "The delivery log's row matches the delivery the receiver got, field by field",
    rule: "A delivery's log row names the webhook, the dotted event type and the event id the receiver got (X-Mystery-Event, X-Mystery-Delivery), DELIVERED after one 2xx attempt with last_status_code 200, no error and no retry due.",
    ...delivering,
    deviation: "delivery_log_event_type_underscored",
    async run(ctx) {
      const { rx, hook, eventId, seen: got } = await deliverOnce(ctx, 200);
      try {
        ensure(got().length === 1, `the receiver must get exactly one delivery, got ${got().length}`);
        const seen = got()[0]!.headers;
        const logged = async () => {
          const log = expectSuccess(
            await ctx.http.get("/api/v1/webhooks/deliveries", { key: ctx.partnerKey }),
            "GET /api/v1/webhooks/deliveries",
          );
          return ((log.data as { deliveries?: Record<string, unknown>[] }).deliveries ?? []).find(
            (d) => d.event_id === webhookHeader(seen, "delivery"),
          );
        };
        // The log records the answer just after the receiver gave it: in real time, wait for the row to settle.
        const row = ctx.control
          ? await logged()
          : await waitFor(ctx, "the delivery's log row", async () =>
              (await logged())?.status === "PENDING" ? undefined : logged(),
            );
        ensure(row, `the log must list the delivery the receiver got (event id ${webhookHeader(seen, "delivery")})`);
        const want: Record<string, unknown> = {
          webhook_id: hook.id,
          event_type: webhookHeader(seen, "event"),
          event_id: eventId,
          status: "DELIVERED",
          attempts: got().length,
          last_status_code: 200,
          last_error: null,
          next_retry_at: null,
        };
        for (const [f, v] of Object.entries(want))
          ensure(
            row[f] === v,
            `delivery row ${f}: expected ${JSON.stringify(v)} (as delivered), got ${JSON.stringify(row[f])}`,
          );
        ensure(Number.isInteger(row.id), `delivery row id must be an integer, got ${JSON.stringify(row.id)}`);
        const [created, delivered] = [Date.parse(String(row.created_at)), Date.parse(String(row.delivered_at))];
        ensure(
          Number.isFinite(created) && Number.isFinite(delivered) && delivered >= created,
          `delivered_at (${String(row.delivered_at)}) must be an instant at or after created_at (${String(row.created_at)})`,
        );
      } finally {
        await rx.close();
        await deleteHooks(ctx.http, ctx.partnerKey, [hook.id]);
      }
    },
  },
  {
    id: "webhooks.signature-fresh",
    guards:
      "docs/reference/live-service.md “Webhook delivery and signatures”; docs/webhooks.md “Signature freshness” (5-minute tolerance)",
    profile: "webhooks",
    title: "A delivery's signing timestamp is the time it was sent: within the tolerance of the receiver's clock",
    rule: "The signature's t and X-Mystery-Timestamp are the same unix-ms instant, within 5 minutes of the receiver's clock when the delivery arrived (a correctly signed but stale delivery is refused by the SDK).",
    ...delivering,
    deviation: "webhook_timestamp_stale",
    async run(ctx) {
      const { rx, hook, seen } = await deliverOnce(ctx, 200);
      try {
        ensure(seen().length === 1, `the receiver must get exactly one delivery, got ${seen().length}`);
        const d = seen()[0]!;
        const t = /(?:^|,)\s*t=(\d+)/.exec(webhookHeader(d.headers, "signature") ?? "")?.[1];
        ensure(
          t !== undefined,
          `X-Mystery-Signature must carry t=<unix ms>, got ${JSON.stringify(webhookHeader(d.headers, "signature"))}`,
        );
        ensure(
          webhookHeader(d.headers, "timestamp") === t,
          `X-Mystery-Timestamp (${webhookHeader(d.headers, "timestamp")}) must equal the signature's t (${t})`,
        );
        const skew = d.receivedAt - Number(t);
        ensure(
          Math.abs(skew) <= SIGNATURE_TOLERANCE_MS,
          `signed at ${isoOf(Number(t))} but received at ${isoOf(d.receivedAt)}: ${Math.round(skew / 1000)} s apart, beyond the ${SIGNATURE_TOLERANCE_MS / 60_000}-minute tolerance`,
        );
      } finally {
        await rx.close();
        await deleteHooks(ctx.http, ctx.partnerKey, [hook.id]);
      }
    },
  },
  {
    id: "webhooks.by-id-equals-listed",
    guards: "docs/reference/api-rules.md “Webhook”; docs/reference/live-service.md “Webhook registry”",
    profile: "webhooks",
    title: "A webhook fetched by id equals the same webhook in the list, field by field",
    rule: "One resource, many routes: GET /webhooks/{id} answers the same fields and values as the webhook's row in GET /webhooks.",
    ...runs("sandbox", ["partnerKey"]),
    deviation: "webhook_by_id_inactive",
    async run({ http, partnerKey }) {
      await withPublicHook(http, partnerKey, async (hook) => {
        const byId = (
          expectSuccess(await http.get(`/api/v1/webhooks/${hook.id}`, { key: partnerKey }), "GET /api/v1/webhooks/:id")
            .data as { webhook?: Record<string, unknown> }
        ).webhook;
        ensure(byId, "GET /api/v1/webhooks/:id must return data.webhook");
        const rows =
          (
            expectSuccess(await http.get("/api/v1/webhooks", { key: partnerKey }), "GET /api/v1/webhooks").data as {
              webhooks?: Record<string, unknown>[];
            }
          ).webhooks ?? [];
        const listed = rows.find((w) => w.id === hook.id);
        ensure(listed, `webhook ${hook.id} missing from GET /api/v1/webhooks`);
        sameFields(byId, listed, `webhook ${hook.id}`);
      });
    },
  },
  {
    id: "webhooks.update-read-back",
    guards:
      "docs/reference/api-rules.md “Webhook”; docs/reference/live-service.md “Webhook registry” (no update route there)",
    profile: "webhooks",
    title: "A webhook changed by PATCH, then by PUT, reads back by id as each answer showed it",
    rule: "PATCH (or PUT) /api/v1/webhooks/:id applies the change and answers data.webhook as it now is: GET /webhooks/{id} right after answers the same fields and values (the wire's invariant webhooks.update-then-get). The live service has no update route: a target answering 404 or 405 is not applicable.",
    ...runs("sandbox", ["partnerKey"]),
    deviation: "inv_webhook_update_answer_ahead",
    async run({ http, partnerKey }) {
      await withPublicHook(http, partnerKey, async (hook) => {
        const changes = [
          { method: "PATCH", body: { is_active: false } },
          { method: "PUT", body: { event_types: ["purchase.fulfilled", "redemption.updated"], is_active: true } },
        ] as const;
        for (const { method, body } of changes) {
          const what = `${method} /api/v1/webhooks/:id`;
          const changed = await http.call(method, `/api/v1/webhooks/${hook.id}`, { key: partnerKey, body });
          if (changed.status === 404 || changed.status === 405)
            throw new NotApplicable(
              `the target has no webhook update route (${method} answered ${changed.status}); the live service has none`,
            );
          const answered = (expectSuccess(changed, what).data as { webhook?: Record<string, unknown> }).webhook;
          ensure(answered, `${what} must return data.webhook`);
          for (const [k, v] of Object.entries(body))
            ensure(
              JSON.stringify(answered[k]) === JSON.stringify(v),
              `${what} set ${k} to ${JSON.stringify(v)}, answered ${JSON.stringify(answered[k])}`,
            );
          // The wire's invariant webhooks.update-then-get compares this read with the answer above.
          expectSuccess(await http.get(`/api/v1/webhooks/${hook.id}`, { key: partnerKey }), "GET /api/v1/webhooks/:id");
        }
      });
    },
  },
  {
    id: "webhooks.failing-receiver",
    guards: "docs/reference/api-rules.md “Events” and “Other limits” (6 attempts, exponential backoff)",
    profile: "webhooks",
    title: "A receiver answering 500 gets 6 attempts of the same delivery; the log shows it FAILED",
    rule: "Only 2xx is success; delivery retries up to 6 times with exponential backoff on any non-2xx answer.",
    ...emulatorOnly("clock", "advances 8 hours through the whole retry schedule of 6 attempts", ["partnerKey"]),
    deviation: "failed_delivery_reported_delivered",
    async run(ctx) {
      const { rx, hook, eventId } = await deliverOnce(ctx, 500);
      try {
        await ctx.control!.advance(WHOLE_SCHEDULE_MS);
        ensure(rx.deliveries.length === 6, `expected 6 attempts, the receiver saw ${rx.deliveries.length}`);
        ensure(
          rx.deliveries.every((d) => webhookHeader(d.headers, "delivery") === eventId),
          "X-Mystery-Delivery must stay the same across retries",
        );
        // The gaps are read on the emulator's clock (the outbox); the signing stamps carry wall time.
        const outbox = await ctx.control!.request<{ attempts: { at: string }[] }>(
          "GET",
          `/webhooks/outbox?event_id=${encodeURIComponent(eventId)}`,
        );
        const stamps = outbox.attempts.map((a) => Date.parse(a.at));
        ensure(stamps.length === 6, `the outbox must record 6 attempts of ${eventId}, got ${stamps.length}`);
        ensure(
          stamps.every((t, i) => i === 0 || t - stamps[i - 1] > stamps[i - 1] - (stamps[i - 2] ?? stamps[i - 1])),
          `retry gaps must grow (attempt times ${outbox.attempts.map((a) => a.at).join(", ")})`,
        );
        const log = expectSuccess(
          await ctx.http.get("/api/v1/webhooks/deliveries", { key: ctx.partnerKey }),
          "GET /api/v1/webhooks/deliveries",
        );
        const row = ((log.data as { deliveries?: Record<string, unknown>[] }).deliveries ?? []).find(
          (d) => d.event_id === eventId,
        );
        ensure(row, `the log must list the delivery of ${eventId}`);
        ensure(
          row.status === "FAILED" && row.attempts === 6 && row.last_status_code === 500,
          `the delivery must end FAILED after 6 attempts with last_status_code 500, got ${JSON.stringify(row)}`,
        );
      } finally {
        await rx.close();
        await deleteHooks(ctx.http, ctx.partnerKey, [hook.id]);
      }
    },
  },
];
