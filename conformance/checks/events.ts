import { emulatorOnly, runs, type Check, type CheckContext } from "../types.ts";
import { ensure, expectError, expectSuccess } from "../assert.ts";
import { startCheckReceiver } from "../../harness/webhook-receiver.ts";
import { webhookHeader } from "../../contract/webhook-signature.ts";
import { inSnapshot } from "../isolate.ts";
import { waitFor } from "../wait.ts";
import { buyInstantSubmitted, buySubmitted, PACK_USDC, revealed } from "./commerce.ts";
import { fundByDeposit } from "./custodial-sandbox.ts";
import { EVENT_PAYLOADS, type PartnerEventType } from "../../contract/events.ts";
import { US_WITH_PHONE } from "./addresses.ts";

// Behaviour and events no other check observes (issue 34): a redemption quote of a purchase not yet revealed is
// 409 not_fulfilled; an operator refund of one publishes purchase.refunded, a failed instant purchase
// instant_purchase.failed, a deposit deposit.credited (each delivery read by the suite's receiver). Each spends
// from the test wallet; in emulator mode between a snapshot and its restore.

const isolated =
  (run: (ctx: CheckContext) => Promise<void>) =>
  async (ctx: CheckContext): Promise<void> => {
    if (!ctx.control) return run(ctx);
    await inSnapshot(ctx.control, () => run(ctx), { manualClock: false });
  };

const walletOf = (ctx: CheckContext) => {
  ensure(ctx.wallet, "no test wallet");
  return ctx.wallet;
};

/**
 * Registers a receiver for `type` (and purchase.fulfilled, so the subscription is never "everything"), runs
 * `provoke`, and answers the data of the first delivery of `type`, checked against the event's payload schema.
 */
async function deliveredEvent(
  ctx: CheckContext,
  type: PartnerEventType,
  provoke: () => Promise<void>,
): Promise<Record<string, unknown>> {
  const rx = await startCheckReceiver(200, ctx.receiver ?? {});
  const reg = expectSuccess(
    await ctx.http.post("/api/v1/webhooks", {
      key: ctx.partnerKey,
      body: { url: rx.url, event_types: [type, "purchase.fulfilled"] },
    }),
    "register a webhook",
    201,
  ).data as { id: number };
  try {
    await provoke();
    await ctx.control?.advance(0);
    const d = await waitFor(
      ctx,
      `the ${type} delivery`,
      async () => rx.deliveries.find((x) => webhookHeader(x.headers, "event") === type),
      ctx.control ? 2_000 : Infinity,
    );
    ensure(d, `the receiver got no ${type} delivery (it saw ${rx.deliveries.length} deliveries)`);
    const body = JSON.parse(d.body) as { event?: string; data?: Record<string, unknown> };
    ensure(body.event === type, `the delivery's event must be ${type}, got ${String(body.event)}`);
    const parsed = EVENT_PAYLOADS[type].safeParse(body.data);
    ensure(
      parsed.success,
      `${type}'s data must have its documented keys: ${parsed.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")} in ${d.body.slice(0, 200)}`,
    );
    return body.data!;
  } finally {
    await rx.close();
    await ctx.http.call("DELETE", `/api/v1/webhooks/${reg.id}`, { key: ctx.partnerKey });
  }
}

export const eventChecks: Check[] = [
  {
    id: "mystery.unrevealed-not-fulfilled",
    guards: "docs/reference/api-rules.md “Mystery commerce endpoints” (409 not_fulfilled before the reveal)",
    profile: "mystery",
    title: "A redemption quote of a purchase not yet revealed → 409 not_fulfilled",
    rule: "Where a revealed purchase is needed, an unrevealed one is 409 not_fulfilled: a redemption quote of a purchase just submitted, before its reveal.",
    // Outside the emulator the quote races the reveal (a few seconds after the request): the emulator's clock holds it.
    ...emulatorOnly("clock", "holds the clock still so the purchase stays unrevealed while the quote is asked", [
      "partnerKey",
      "wallet",
    ]),
    spendUsdc: PACK_USDC,
    deviation: "not_fulfilled_as_no_items",
    run: isolated(async (ctx) => {
      const { purchase } = await buySubmitted(ctx, walletOf(ctx));
      const r = await ctx.http.post("/api/v1/mystery/redemption/quote", {
        key: ctx.partnerKey,
        body: { purchase_id: purchase.id, shipping_address: US_WITH_PHONE },
      });
      expectError(r, 409, "not_fulfilled", `a redemption quote of purchase ${purchase.id} before its reveal`);
      await revealed(ctx, purchase.id);
    }),
  },
  {
    id: "webhooks.purchase-refunded-event",
    guards:
      "docs/reference/sdk-shapes.md “Webhook event data” (purchase.refunded: purchase_id, status REFUNDED, onchain_request_id?)",
    profile: "webhooks",
    title: "A purchase refunded before its reveal publishes purchase.refunded to its subscribers",
    rule: 'An operator refund of a purchase waiting for its reveal ends it REFUNDED and delivers purchase.refunded {purchase_id, status: "REFUNDED", onchain_request_id?} to every webhook of the account subscribed to it.',
    ...emulatorOnly(
      "operator",
      "refunds a purchase waiting for its reveal (POST /_emulator/mystery/purchases/{id}/refund)",
      ["partnerKey", "wallet", "webhookUrl"],
    ),
    spendUsdc: PACK_USDC,
    deviation: "purchase_refunded_never_delivered",
    run: isolated(async (ctx) => {
      let id = 0;
      const data = await deliveredEvent(ctx, "purchase.refunded", async () => {
        const { purchase } = await buySubmitted(ctx, walletOf(ctx));
        id = purchase.id;
        await ctx.control!.request("POST", `/mystery/purchases/${id}/refund`);
        const now = expectSuccess(
          await ctx.http.get(`/api/v1/mystery/purchase/${id}`, { key: ctx.partnerKey }),
          `GET /mystery/purchase/${id}`,
        ).data as { status?: string };
        ensure(now.status === "REFUNDED", `purchase ${id} must read REFUNDED, is ${String(now.status)}`);
      });
      ensure(data.purchase_id === id, `purchase.refunded must name purchase ${id}, got ${String(data.purchase_id)}`);
    }),
  },
  {
    id: "webhooks.instant-failed-event",
    guards:
      "docs/reference/sdk-shapes.md “Webhook event data” (instant_purchase.failed: purchase_id, status FAILED, reason)",
    profile: "webhooks",
    title: "An instant purchase failed before its draw publishes instant_purchase.failed with its reason",
    rule: 'An instant purchase that fails (paid back before its pack is opened) reads FAILED and delivers instant_purchase.failed {purchase_id, status: "FAILED", reason} to the account\'s subscribers.',
    ...emulatorOnly(
      "operator",
      "fails a submitted instant purchase before its draw (POST /_emulator/instant/purchases/{id}/fail)",
      ["partnerKey", "wallet", "webhookUrl"],
    ),
    spendUsdc: 10,
    deviation: "instant_failed_never_delivered",
    run: isolated(async (ctx) => {
      let id = 0;
      const data = await deliveredEvent(ctx, "instant_purchase.failed", async () => {
        const { purchase } = await buyInstantSubmitted(ctx, walletOf(ctx));
        id = purchase.id;
        await ctx.control!.request("POST", `/instant/purchases/${id}/fail`, { reason: "conformance_check" });
        const now = expectSuccess(
          await ctx.http.get(`/api/v1/instant/purchase/${id}`, { key: ctx.partnerKey }),
          `GET /instant/purchase/${id}`,
        ).data as { status?: string };
        ensure(now.status === "FAILED", `instant purchase ${id} must read FAILED, is ${String(now.status)}`);
      });
      ensure(
        data.purchase_id === id,
        `instant_purchase.failed must name purchase ${id}, got ${String(data.purchase_id)}`,
      );
      ensure(
        data.reason === "conformance_check",
        `the reason must be the failure's, got ${JSON.stringify(data.reason)}`,
      );
    }),
  },
  {
    id: "webhooks.deposit-credited-event",
    guards:
      "docs/reference/sdk-shapes.md “Webhook event data” (deposit.credited: deposit_id, amount micros, amount_usdc, chain_in, token_in, tx_hash)",
    profile: "webhooks",
    title: "A deposit to an end user's address publishes deposit.credited with its amount",
    rule: "USDC sent to a custodial end user's deposit address is credited and delivers deposit.credited {deposit_id, amount (micros), amount_usdc, chain_in, token_in, tx_hash} with the amount sent.",
    ...runs("sandbox", ["partnerKey", "wallet", "webhookUrl"]),
    spendUsdc: PACK_USDC,
    deviation: "deposit_credited_never_delivered",
    run: isolated(async (ctx) => {
      let micros = 0n;
      const data = await deliveredEvent(ctx, "deposit.credited", async () => {
        micros = (await fundByDeposit(ctx, ctx.partnerKey)).micros;
      });
      ensure(
        String(data.amount) === String(micros),
        `deposit.credited's amount must be the ${micros} micros sent, got ${JSON.stringify(data.amount)}`,
      );
    }),
  },
];
