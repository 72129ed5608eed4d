import type { Scenario, ScenarioContext } from "./types.ts";
import { signatureValid, startCheckReceiver } from "../harness/webhook-receiver.ts";
import { webhookHeader } from "../contract/webhook-signature.ts";
import { isoOf } from "../contract/time.ts";

// Webhook retries, told step by step: a partner's receiver is down twice, the
// emulator retries on its documented schedule (virtual clock), the third
// attempt lands, and every attempt carried the same event id and a valid signature.

const SECOND = 1000;
const MINUTE = 60 * SECOND;

interface DeliveryRow {
  event_id: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  next_retry_at: string | null;
  delivered_at: string | null;
}

export const webhooksScenarios: Scenario[] = [
  {
    name: "webhook-retries",
    title: "Webhook retries: a receiver fails twice, then the third attempt is delivered",
    description:
      "Registers a local receiver that answers 500 twice and then 200, triggers purchase.fulfilled, and advances the virtual clock through the retry schedule (now, +30 s, +2 min) until the delivery is DELIVERED.",
    chain: false,
    async run(ctx: ScenarioContext) {
      const { http, control, keys, step, data } = ctx;
      const key = keys.demo;
      const rx = await startCheckReceiver((n) => (n <= 2 ? 500 : 200));
      try {
        step(`1. start a receiver at ${rx.url} that answers 500, 500, then 200`);
        const hook = data<{ id: number; signing_secret: string }>(
          await http.post("/api/v1/webhooks", { key, body: { url: rx.url, event_types: ["purchase.fulfilled"] } }),
          201,
          "register the webhook",
        );
        step(`2. register it for purchase.fulfilled → webhook ${hook.id}; keep the signing secret (shown only now)`);

        const t0 = Date.parse((await control.request<{ now: string }>("GET", "/clock")).now);
        const fired = await control.request<{ event: { id: string }; deliveries: DeliveryRow[] }>("POST", "/events", {
          type: "purchase.fulfilled",
          key,
          data: { purchase_id: 1001 },
        });
        const eventId = fired.event.id;
        const first = fired.deliveries[0];
        ctx.expect(
          first?.status === "PENDING" && first.attempts === 1 && first.last_status_code === 500,
          `attempt 1 must fail with 500, got ${JSON.stringify(first)}`,
        );
        ctx.expect(
          first.next_retry_at === isoOf(t0 + 30 * SECOND),
          `attempt 2 is due 30 s later, got ${first.next_retry_at}`,
        );
        step(`3. trigger ${eventId}: attempt 1 → 500; next attempt at ${first.next_retry_at}`);

        const row = async (): Promise<DeliveryRow> => {
          const log = data<{ deliveries: DeliveryRow[] }>(
            await http.get("/api/v1/webhooks/deliveries", { key }),
            200,
            "read the delivery log",
          );
          const found = log.deliveries.find((d) => d.event_id === eventId);
          ctx.expect(found, `the delivery log must list ${eventId}`);
          return found;
        };

        await control.advance(30 * SECOND);
        const second = await row();
        ctx.expect(
          second.status === "PENDING" && second.attempts === 2,
          `attempt 2 must fail too, got ${JSON.stringify(second)}`,
        );
        ctx.expect(
          second.next_retry_at === isoOf(t0 + 150 * SECOND),
          `attempt 3 is due 2 min after attempt 2, got ${second.next_retry_at}`,
        );
        step(`4. advance 30 s: attempt 2 → ${second.last_status_code}; next attempt at ${second.next_retry_at}`);

        await control.advance(2 * MINUTE);
        const third = await row();
        ctx.expect(
          third.status === "DELIVERED" && third.attempts === 3 && third.last_status_code === 200,
          `attempt 3 must deliver, got ${JSON.stringify(third)}`,
        );
        step(`5. advance 2 min: attempt 3 → 200; DELIVERED at ${third.delivered_at}`);

        await control.advance(24 * 60 * MINUTE);
        ctx.expect(
          rx.deliveries.length === 3,
          `a delivered event is never sent again; the receiver saw ${rx.deliveries.length} requests`,
        );
        for (const [i, d] of rx.deliveries.entries()) {
          const v = await signatureValid(hook.signing_secret, webhookHeader(d.headers, "signature") ?? "", d.body);
          ctx.expect(
            v.ok && webhookHeader(d.headers, "delivery") === eventId,
            `attempt ${i + 1}: signature must verify and X-Mystery-Delivery must be ${eventId}`,
          );
        }
        const outbox = await control.request<{
          attempts: Array<{ attempt: number; at: string; response: { status: number } | null }>;
        }>("GET", `/webhooks/outbox?event_id=${encodeURIComponent(eventId)}`);
        step(
          `6. the receiver saw 3 signed requests with one X-Mystery-Delivery; the outbox: ${outbox.attempts.map((a) => `#${a.attempt} ${a.at.slice(11, 19)} → ${a.response?.status}`).join(", ")}`,
        );
      } finally {
        await rx.close();
      }
    },
  },
];
