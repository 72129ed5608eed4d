import { emulatorOnly, NotApplicable, runs, type Check, type CheckContext } from "../types.ts";
import { ensure, expectError, expectSuccess } from "../assert.ts";
import { startCheckReceiver } from "../../harness/webhook-receiver.ts";
import { webhookHeader } from "../../contract/webhook-signature.ts";
import { inSnapshot } from "../isolate.ts";
import { waitFor } from "../wait.ts";
import { buySubmitted, PACK_USDC, revealed } from "./commerce.ts";

// Behaviour and events around a purchase that has not revealed yet (issue 34): a redemption quote of it is
// 409 not_fulfilled, and an operator refund of it publishes purchase.refunded. Each buys one pack with the
// test wallet; in emulator mode between a snapshot and its restore.

const US = {
  name: "Conformance Check",
  street1: "100 Congress Ave",
  city: "Austin",
  state: "TX",
  zip: "78701",
  country: "US",
  phone: "+15125550100",
};

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

export const eventChecks: Check[] = [
  {
    id: "mystery.unrevealed-not-fulfilled",
    guards: "docs/reference/api-rules.md “Mystery commerce endpoints” (409 not_fulfilled before the reveal)",
    profile: "mystery",
    title: "A redemption quote of a purchase not yet revealed → 409 not_fulfilled",
    rule: "Where a revealed purchase is needed, an unrevealed one is 409 not_fulfilled: a redemption quote of a purchase just submitted, before its reveal.",
    ...runs("sandbox", ["partnerKey", "wallet"]),
    spendUsdc: PACK_USDC,
    deviation: "not_fulfilled_as_no_items",
    run: isolated(async (ctx) => {
      const { purchase } = await buySubmitted(ctx, walletOf(ctx));
      const r = await ctx.http.post("/api/v1/mystery/redemption/quote", {
        key: ctx.partnerKey,
        body: { purchase_id: purchase.id, shipping_address: US },
      });
      if (r.status !== 409) {
        // Outside the emulator the reveal may come first (a few seconds after the request).
        const now = expectSuccess(
          await ctx.http.get(`/api/v1/mystery/purchase/${purchase.id}`, { key: ctx.partnerKey }),
          `GET /mystery/purchase/${purchase.id}`,
        ).data as { status?: string };
        if (!ctx.control && now.status !== "PENDING" && now.status !== "SUBMITTED")
          throw new NotApplicable(
            `purchase ${purchase.id} revealed (${String(now.status)}) before the quote was asked`,
          );
      }
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
      const rx = await startCheckReceiver(200, ctx.receiver ?? {});
      const reg = expectSuccess(
        await ctx.http.post("/api/v1/webhooks", {
          key: ctx.partnerKey,
          body: { url: rx.url, event_types: ["purchase.refunded", "purchase.fulfilled"] },
        }),
        "register a webhook",
        201,
      ).data as { id: number };
      try {
        const { purchase } = await buySubmitted(ctx, walletOf(ctx));
        await ctx.control!.request("POST", `/mystery/purchases/${purchase.id}/refund`);
        const now = expectSuccess(
          await ctx.http.get(`/api/v1/mystery/purchase/${purchase.id}`, { key: ctx.partnerKey }),
          `GET /mystery/purchase/${purchase.id}`,
        ).data as { status?: string };
        ensure(now.status === "REFUNDED", `purchase ${purchase.id} must read REFUNDED, is ${String(now.status)}`);
        await ctx.control!.advance(0);
        const d = await waitFor(
          ctx,
          "the purchase.refunded delivery",
          async () => rx.deliveries.find((x) => webhookHeader(x.headers, "event") === "purchase.refunded"),
          2_000,
        );
        ensure(d, `the receiver got no purchase.refunded delivery (it saw ${rx.deliveries.length} deliveries)`);
        const body = JSON.parse(d.body) as { event?: string; data?: Record<string, unknown> };
        ensure(
          body.event === "purchase.refunded" && body.data?.purchase_id === purchase.id,
          `the delivery must be purchase.refunded for purchase ${purchase.id}, got ${d.body.slice(0, 160)}`,
        );
        ensure(
          body.data.status === "REFUNDED",
          `purchase.refunded's status must be REFUNDED, got ${String(body.data.status)}`,
        );
      } finally {
        await rx.close();
        await ctx.http.call("DELETE", `/api/v1/webhooks/${reg.id}`, { key: ctx.partnerKey });
      }
    }),
  },
];
