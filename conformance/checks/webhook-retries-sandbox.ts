import { startCheckReceiver } from "../../harness/webhook-receiver.ts";
import { ensure, expectSuccess } from "../assert.ts";
import type { CheckContext } from "../types.ts";
import { waitFor } from "../wait.ts";
import { buyAndReveal } from "./commerce.ts";
import { isoOf } from "../../contract/time.ts";

// The retry schedule as a partner sees it on the sandbox: the suite's receiver (reached through --webhook-url)
// answers 500 twice and then 200 to a real purchase's purchase.fulfilled, and the delivery log is read as the
// attempts happen in real time (+30 s, +2 min): each failed attempt announces the next at its documented offset
// from the delivery's creation, and the third is DELIVERED.

const SECOND = 1_000;
/** The documented offsets of attempts 2 and 3 from the first (+30 s, then +2 min). */
const OFFSETS = [30 * SECOND, 150 * SECOND];
/** How far a logged time may sit from the schedule (the log's creation and the first attempt are one step apart). */
const SLACK = 2 * SECOND;

type Row = {
  webhook_id: number;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  next_retry_at: string | null;
  delivered_at: string | null;
  created_at: string;
};

/** The sandbox run of lifecycle.webhook-retries. */
export async function webhookRetriesBySandbox(ctx: CheckContext): Promise<void> {
  ensure(ctx.wallet && ctx.receiver, "no test wallet or webhook receiver");
  const key = ctx.partnerKey;
  const rx = await startCheckReceiver((n) => (n <= 2 ? 500 : 200), ctx.receiver);
  const reg = expectSuccess(
    await ctx.http.post("/api/v1/webhooks", { key, body: { url: rx.url, event_types: ["purchase.fulfilled"] } }),
    "register a webhook",
    201,
  ).data as { id: number };
  try {
    await buyAndReveal(ctx, ctx.wallet);
    const row = async (): Promise<Row | undefined> => {
      const log = expectSuccess(
        await ctx.http.get("/api/v1/webhooks/deliveries", { key, query: { limit: 100 } }),
        "GET /webhooks/deliveries",
      ).data as { deliveries: Row[] };
      return log.deliveries.find((d) => d.webhook_id === reg.id && d.event_type === "purchase.fulfilled");
    };
    const after = (attempts: number, what: string, ms: number) =>
      waitFor(ctx, what, async () => (((await row())?.attempts ?? 0) >= attempts ? row() : undefined), ms);
    for (const [i, offset] of OFFSETS.entries()) {
      const r = await after(
        i + 1,
        `attempt ${i + 1}`,
        (i === 0 ? 30 : OFFSETS[i]! - OFFSETS[i - 1]!) * SECOND + 30 * SECOND,
      );
      ensure(r, `the delivery log never showed attempt ${i + 1} for webhook ${reg.id}`);
      ensure(
        r.status === "PENDING" && r.attempts === i + 1 && r.last_status_code === 500,
        `attempt ${i + 1} answered 500: the row must be PENDING with ${i + 1} attempts, is ${JSON.stringify(r)}`,
      );
      const due = Date.parse(r.created_at) + offset;
      ensure(
        r.next_retry_at !== null && Math.abs(Date.parse(r.next_retry_at) - due) <= SLACK,
        `attempt ${i + 2} is due ${offset / SECOND} s after the first (${isoOf(due)}), next_retry_at says ${r.next_retry_at}`,
      );
    }
    const done = await waitFor(
      ctx,
      "attempt 3 (+2 min)",
      async () => {
        const r = await row();
        return r && r.status !== "PENDING" ? r : undefined;
      },
      OFFSETS[1]! - OFFSETS[0]! + 30 * SECOND,
    );
    ensure(
      done?.status === "DELIVERED" && done.attempts === 3 && done.last_status_code === 200 && done.delivered_at,
      `attempt 3 answered 200: the row must be DELIVERED after 3 attempts, is ${JSON.stringify(done)}`,
    );
    ensure(rx.deliveries.length === 3, `the receiver must have been called 3 times, was ${rx.deliveries.length}`);
    ctx.note(
      `delivered on attempt 3, ${(Date.parse(done.delivered_at) - Date.parse(done.created_at)) / SECOND} s after the first`,
    );
  } finally {
    await rx.close();
    await ctx.http.call("DELETE", `/api/v1/webhooks/${reg.id}`, { key });
  }
}

/** The real time the check may wait: the reveal, then the whole schedule. */
export const WEBHOOK_RETRIES_WAIT_MS = 170 * SECOND;
