import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TypedDataDefinition } from "viem";
import { WEBHOOK_EVENT_TYPES } from "@ripdotfun/cardos-sdk";
import { buildEventPayload } from "../../emulator/events/catalogue.ts";
import { EVENT_PAYLOADS } from "../../emulator/events/payloads.ts";
import { PARTNER_EVENT_TYPES } from "../../emulator/events/types.ts";
import { signatureValid, startCheckReceiver, type CheckReceiver } from "../../harness/webhook-receiver.ts";
import { waitFor } from "../helpers.ts";
import { buyRevealed, relay, sendCalls, user, type Ctx, useMystery } from "./helpers.ts";

// §6 of issue 11: every live webhook event type is emitted by a real lifecycle
// (never only by POST /_emulator/events), delivered to a real HTTP receiver on
// loopback, signed as the SDK verifies it, with the `data` shape of
// docs/reference/sdk-shapes.md “Webhook event data” (emulator/events/payloads.ts). The catalogue's fixtures are
// held to the same shapes.
//
// Covered here: deposit.*, purchase.*, buyback.*, pool.item_pulled, sellback.*, payout.*.
// instant_purchase.* and redemption.* are emitted by the instant and redemption
// lifecycles, whose own tests drive them.

const THEIRS = new Set([
  "instant_purchase.reserved",
  "instant_purchase.submitted",
  "instant_purchase.fulfilled",
  "instant_purchase.refunded",
  "instant_purchase.failed",
  "redemption.prepared",
  "redemption.updated",
]);
const MINE = PARTNER_EVENT_TYPES.filter((t) => !THEIRS.has(t));
const MIN = 60_000;

describe("the event catalogue", () => {
  it("lists the 21 live types, and every fixture payload has the wire shape", () => {
    // The SDK's 21, in its order (a type the emulator adds to a table follows them).
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(21);
    expect(PARTNER_EVENT_TYPES.slice(0, 21)).toEqual([...WEBHOOK_EVENT_TYPES]);
    for (const type of PARTNER_EVENT_TYPES) {
      const r = EVENT_PAYLOADS[type].safeParse(buildEventPayload(type, { n: 1, now: "2026-01-01T00:00:00.000Z" }));
      expect(r.success, `${type}: ${r.success ? "" : r.error.message}`).toBe(true);
    }
  });
});

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

describe("every live event from a real lifecycle, delivered and signed", () => {
  let rx: CheckReceiver;
  beforeAll(async () => {
    rx = await startCheckReceiver(200);
  });
  afterAll(() => rx.close());

  it(`${MINE.length} event types reach a local receiver with a valid signature and their wire shape`, async () => {
    const secrets = new Map<string, string>();
    for (const key of [ctx.demo, ctx.revenueShare]) {
      const hook = await ctx.api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201);
      secrets.set(key, hook.body.data.signing_secret);
    }
    const B = "/api/v1/mystery/buyback";
    const oracle = (token: string, usdc: string) =>
      ctx.api.post("/_emulator/mystery/oracle").send({ token_id: token, usdc }).expect(200);

    // deposit.credited
    await ctx.api
      .post("/_emulator/mystery/custodial/fund")
      .send({ key: ctx.demo, external_user_id: "events-user", usdc: "200" })
      .expect(200);
    // purchase.reserved / .submitted / .fulfilled, and pool.item_pulled (demo is a POOL partner)
    const bought = (
      await ctx.api
        .post("/api/v1/mystery/purchase")
        .set("X-API-Key", ctx.demo)
        .set("Idempotency-Key", "ev-1")
        .send({ tier_id: 1, external_user_id: "events-user" })
        .expect(202)
    ).body.data;
    await relay(ctx);
    const submitted = (
      await ctx.api.get(`/api/v1/mystery/purchase/${bought.id}`).set("X-API-Key", ctx.demo).expect(200)
    ).body.data;
    await ctx.api.post("/_emulator/vrf/fulfill").send({ request_id: submitted.onchain_request_id }).expect(200);
    expect(
      (await ctx.api.get(`/api/v1/mystery/purchase/${bought.id}`).set("X-API-Key", ctx.demo).expect(200)).body.data
        .status,
    ).toBe("FULFILLED");
    // purchase.refunded: the operator refunds one before its reveal
    const second = (
      await ctx.api
        .post("/api/v1/mystery/purchase")
        .set("X-API-Key", ctx.demo)
        .set("Idempotency-Key", "ev-2")
        .send({ tier_id: 1, external_user_id: "events-user" })
        .expect(202)
    ).body.data;
    await relay(ctx);
    await ctx.api.post(`/_emulator/mystery/purchases/${second.id}/refund`).expect(200);
    // purchase.failed: held while the relayer is off, for longer than an hour
    await ctx.api
      .post("/api/v1/mystery/purchase")
      .set("X-API-Key", ctx.demo)
      .set("Idempotency-Key", "ev-3")
      .send({ tier_id: 1, external_user_id: "events-user" })
      .expect(202);
    await ctx.api.post("/_emulator/mystery/relayer").send({ enabled: false }).expect(200);
    await ctx.emu.clock.advance(61 * MIN);
    await ctx.api.post("/_emulator/mystery/relayer").send({ enabled: true }).expect(200);

    // buyback.confirmed → transfer_held → transfer_failed (10 attempts without a pool wallet), relayed accept
    const offered = async (i: number) => {
      const p = await buyRevealed(ctx, ctx.demo, user(ctx, i), 1);
      const card = p.items.find((x: { item_type: string }) => x.item_type === "CARD");
      await oracle(card.token_id, "40");
      await ctx.api.post(B).set("X-API-Key", ctx.demo).send({ token_id: card.token_id }).expect(201);
      const prep = (
        await ctx.api.post(`${B}/${card.token_id}/accept/prepare`).set("X-API-Key", ctx.demo).send({}).expect(200)
      ).body.data;
      if (prep.nft_approval.call) await sendCalls(ctx, user(ctx, i), [prep.nft_approval.call]);
      const w = ctx.emu.chain!.walletClientFor(user(ctx, i));
      const sig = await w.signTypedData({
        account: w.account!,
        ...(prep.typed_data as TypedDataDefinition<Record<string, unknown>, string>),
      });
      await ctx.api
        .post(`${B}/${card.token_id}/accept`)
        .set("X-API-Key", ctx.demo)
        .send({ receiver_signature: sig })
        .expect(200);
      await ctx.emu.clock.advance(1);
    };
    await offered(0);
    await ctx.emu.clock.advance(10 * 15 * MIN + MIN);
    // buyback.card_transferred: a second acceptance once the pool wallet is set
    await ctx.api
      .put("/api/v1/mystery/pool-wallet")
      .set("X-API-Key", ctx.demo)
      .send({ wallet_address: ctx.emu.chain!.spareAccounts[0]!.address })
      .expect(200);
    await offered(1);
    await ctx.emu.clock.advance(15 * MIN);

    // sellback.confirmed (TIER)
    const u = user(ctx, 2);
    const tierBuy = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const tokenIds = (tierBuy.items as Array<{ token_id: string }>).map((i) => i.token_id);
    const sell = (
      await ctx.api
        .post("/api/v1/mystery/sellback/prepare")
        .set("X-API-Key", ctx.revenueShare)
        .send({ wallet_address: u.address, token_ids: tokenIds })
        .expect(200)
    ).body.data;
    const receipt = await sendCalls(ctx, u, sell.calls);
    await ctx.api
      .post("/api/v1/mystery/sellback/submit")
      .set("X-API-Key", ctx.revenueShare)
      .send({ transaction_hash: receipt.transactionHash })
      .expect(200);
    // payout.statement_ready → payout.paid (TIER)
    await ctx.api
      .put("/api/v1/mystery/payout-wallet")
      .set("X-API-Key", ctx.emu.key("revenue-share"))
      .send({ address: ctx.emu.chain!.spareAccounts[1]!.address });
    const [statement] = (
      await ctx.api.post("/_emulator/mystery/payouts/close").send({ account_id: "nova" }).expect(200)
    ).body.data.payouts;
    await ctx.api.post(`/_emulator/mystery/payouts/${statement.payout_id}/pay`).send({}).expect(200);

    // What arrived at the receiver: every type, signed, in its shape.
    const arrived = () => new Set(rx.deliveries.map((d) => d.headers["x-mystery-event"]));
    await waitFor(
      () => MINE.every((t) => arrived().has(t)),
      `deliveries of ${MINE.filter((t) => !arrived().has(t)).join(", ")}`,
    );
    const byKey = new Map([...secrets].map(([k, s]) => [s, k]));
    for (const d of rx.deliveries) {
      const body = JSON.parse(d.body) as { event: string; id: string; data: Record<string, unknown> };
      const type = body.event as (typeof PARTNER_EVENT_TYPES)[number];
      expect(d.headers["x-mystery-event"]).toBe(type);
      expect(d.headers["x-mystery-delivery"]).toBe(body.id);
      expect(body.id.startsWith(`${type}:`)).toBe(true);
      // signed with the secret of the webhook of the account the event belongs to
      const checks = await Promise.all(
        [...byKey.keys()].map((secret) => signatureValid(secret, d.headers["x-mystery-signature"] ?? "", d.body)),
      );
      expect(
        checks.filter((c) => c.ok),
        `${body.id}: signature`,
      ).toHaveLength(1);
      expect(Number(d.headers["x-mystery-timestamp"])).toBe(Number(checks.find((c) => c.ok)!.t));
      const shape = EVENT_PAYLOADS[type].safeParse(body.data);
      expect(shape.success, `${type}: ${shape.success ? "" : shape.error.message} in ${d.body}`).toBe(true);
    }
    // the TIER events went to the TIER partner's webhook, the POOL ones to the POOL partner's
    const tierSecret = secrets.get(ctx.revenueShare)!;
    for (const d of rx.deliveries) {
      const type = d.headers["x-mystery-event"]!;
      const ok = (await signatureValid(tierSecret, d.headers["x-mystery-signature"] ?? "", d.body)).ok;
      if (type.startsWith("sellback.") || type.startsWith("payout.")) expect(ok, type).toBe(true);
      if (type.startsWith("buyback.") || type === "pool.item_pulled") expect(ok, type).toBe(false);
    }
  });
});
