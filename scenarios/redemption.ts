import type { Scenario, ScenarioContext } from "./types.ts";
import { buyAndReveal, endUserWallet, events, type Call, type Wallet } from "./mystery.ts";

// Physical redemption as the live service runs it (SDK 0.1.2): quote →
// prepare (Idempotency-Key; the holder pays shipping) → the holder's wallet
// sends burn, USDC approve and payShipping over JSON-RPC → submit → the partner
// polls the redemption by token id, as waitForCompletion does, until COMPLETED.
// The item ships only once the shipping payment is on chain; the NFT burns at
// dispatch. KYC runs only for partners that require it (the "kyc" fixture key).

const M = "/api/v1/mystery";
const MIN = 60_000;
const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };

interface Prepared {
  redemption_id: number;
  status: string;
  token_id: string;
  kyc: { status: string; kyc_url: string | null };
  shipping_payer: string;
  shipping_payment: { payer: string; total_usdc: string; provider_order_id: string } | null;
  unsigned: { chain_id: number; calls: Call[] } | null;
}
interface Row {
  redemption_id: number;
  status: string;
  burn: { is_burned: boolean };
  order: { tracking_number: string | null };
}

/**
 * The SDK's waitForCompletion on the virtual clock: GET by token id, take the row with the
 * redemption id; COMPLETED ends it, FAILED/CANCELLED/EXPIRED fail; else wait (interval 1.5 s,
 * ×1.5, at most 30 min: the warehouse takes hours) and ask again, for up to two days.
 */
async function waitForCompletion(ctx: ScenarioContext, key: string, p: Prepared): Promise<Row> {
  let interval = 1_500;
  let waited = 0;
  for (;;) {
    const rows = ctx.data<{ redemptions: Row[] }>(
      await ctx.http.get(`${M}/redemption/${p.token_id}`, { key }),
      200,
      "poll redemption",
    ).redemptions;
    const row = rows.find((r) => r.redemption_id === p.redemption_id) ?? rows[0];
    ctx.expect(row, "the get answers the redemption");
    // A row has none of the prepare-only keys (docs/reference/sdk-shapes.md “Redemption shapes”); its `kyc`
    // stays, as the interface rules show it (docs/decisions.md).
    const extra = ["shipping_payment", "shipping_payer", "unsigned"].filter((k) => k in row);
    ctx.expect(extra.length === 0, `the redemption row carries the prepare-only keys ${extra.join(", ")}`);
    if (row.status === "COMPLETED") return row;
    ctx.expect(
      !["FAILED", "CANCELLED", "EXPIRED"].includes(row.status),
      `redemption ${p.redemption_id} ended ${row.status}`,
    );
    ctx.expect(
      waited + interval <= 48 * 60 * MIN,
      `redemption ${p.redemption_id} still ${row.status} after ${waited / MIN} min`,
    );
    await ctx.control.advance(interval);
    waited += interval;
    interval = Math.min(30 * MIN, Math.round(interval * 1.5));
  }
}

/** prepare's answer must be the SDK's RedemptionPrepareResult with the three calls in order. */
function checkPrepared(ctx: ScenarioContext, ready: Prepared, wallet: Wallet): Call[] {
  ctx.expect(ready.status === "PREPARED" && ready.unsigned, `PREPARED with unsigned calls (got ${ready.status})`);
  const kinds = ready.unsigned.calls.map((c) => c.kind).join();
  ctx.expect(
    kinds === "burn,erc20-approve,shipping-payment",
    `calls burn, erc20-approve, shipping-payment (got ${kinds})`,
  );
  ctx.expect(ready.shipping_payer === "end_user", "shipping_payer end_user");
  ctx.expect(
    ready.shipping_payment && ready.shipping_payment.payer.toLowerCase() === wallet.address.toLowerCase(),
    "shipping_payment bound to the holder",
  );
  return ready.unsigned.calls;
}

/** The holder sends the three calls; the partner submits the burn; then polls to COMPLETED. */
async function payAndShip(
  ctx: ScenarioContext,
  key: string,
  wallet: Wallet,
  ready: Prepared,
  step: number,
): Promise<Row> {
  const [burnCall, ...payment] = checkPrepared(ctx, ready, wallet);
  ctx.step(
    `${step}. the holder's wallet sends burn (flag), USDC approve and payShipping (${ready.shipping_payment!.total_usdc} USDC)`,
  );
  const burn = await wallet.send([burnCall!]);
  await wallet.send(payment);
  ctx.step(`${step + 1}. submit the burn transaction → BURN_SUBMITTED`);
  const sub = ctx.data<{ status: string }>(
    await ctx.http.post(`${M}/redemption/submit`, {
      key,
      body: { redemption_id: ready.redemption_id, tx_hash: burn.transactionHash },
    }),
    202,
    "submit",
  );
  ctx.expect(sub.status === "BURN_SUBMITTED", `BURN_SUBMITTED (got ${sub.status})`);
  // Re-submitting the same hash is fine (docs/reference/sdk-shapes.md “Redemption shapes”): the same 202.
  const again = ctx.data<{ redemption_id: number; status: string }>(
    await ctx.http.post(`${M}/redemption/submit`, {
      key,
      body: { redemption_id: ready.redemption_id, tx_hash: burn.transactionHash },
    }),
    202,
    "submit again",
  );
  ctx.expect(
    again.redemption_id === ready.redemption_id && again.status === "BURN_SUBMITTED",
    `the same hash submitted again answers the same redemption, BURN_SUBMITTED (got ${JSON.stringify(again)})`,
  );
  ctx.step(
    `${step + 2}. poll the redemption by token id: the warehouse starts once the payment landed, ships a day later`,
  );
  const done = await waitForCompletion(ctx, key, ready);
  ctx.expect(
    done.burn.is_burned && done.order.tracking_number,
    "COMPLETED: burned at dispatch, with a tracking number",
  );
  const updates = (await events(ctx, "redemption.updated"))
    .filter((e) => e.data.redemption_id === ready.redemption_id)
    .map((e) => e.data.status);
  ctx.expect(
    updates.join() === "BURN_SUBMITTED,IN_FULFILLMENT,COMPLETED" ||
      updates.join() === "PREPARED,BURN_SUBMITTED,IN_FULFILLMENT,COMPLETED",
    `redemption.updated each step: ${updates.join()}`,
  );
  // Prepare itself sends redemption.prepared (docs/reference/sdk-shapes.md “Webhook event data”).
  const prepared = (await events(ctx, "redemption.prepared")).filter(
    (e) => e.data.redemption_id === ready.redemption_id,
  );
  ctx.expect(
    prepared.length === 1 && prepared[0]!.data.status === "PREPARED" && prepared[0]!.data.token_id === ready.token_id,
    `one redemption.prepared for redemption ${ready.redemption_id}: ${JSON.stringify(prepared.map((e) => e.data))}`,
  );
  return done;
}

export const redemptionScenarios: Scenario[] = [
  {
    name: "mystery-redemption",
    title: "Physical redemption, shipping paid by the holder on chain (no KYC, as on the live service)",
    description:
      "quote → prepare with an Idempotency-Key returns shipping_payment and three calls → the wallet sends burn, approve and payShipping → submit → polling by token id sees BURN_SUBMITTED → IN_FULFILLMENT → COMPLETED; the NFT burns at dispatch.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys.demo!; // acme: no KYC, like every partner of the live service
      const wallet = await endUserWallet(ctx, 0);
      const p = await buyAndReveal(ctx, key, wallet, 1);
      ctx.step("1. quote the shipping (cheapest live rate; creates nothing)");
      const quote = ctx.data<{ shipping_quote: { amount_usdc: string; carrier: string; service: string } }>(
        await ctx.http.post(`${M}/redemption/quote`, { key, body: { purchase_id: p.id, shipping_address: US } }),
        200,
        "quote",
      );
      ctx.expect(
        quote.shipping_quote.amount_usdc && !quote.shipping_quote.service.startsWith(quote.shipping_quote.carrier),
        "a rate whose service does not repeat the carrier",
      );
      ctx.step(
        "2. prepare (Idempotency-Key header, shipping_payer end_user): PREPARED straight away, with the shipping payment to make",
      );
      const headers = { "Idempotency-Key": ctx.run.unique("scenario-redeem-live-1") };
      const body = { purchase_id: p.id, shipping_address: US, shipping_payer: "end_user" };
      const ready = ctx.data<Prepared>(
        await ctx.http.post(`${M}/redemption/prepare`, { key, body, headers }),
        201,
        "prepare",
      );
      ctx.expect(ready.kyc.status === "NOT_REQUIRED", `no KYC for this partner (got ${ready.kyc.status})`);
      const replay = ctx.data<Prepared>(
        await ctx.http.post(`${M}/redemption/prepare`, { key, body, headers }),
        201,
        "prepare retried",
      );
      ctx.expect(replay.redemption_id === ready.redemption_id, "a retried prepare answers the same redemption");
      await payAndShip(ctx, key, wallet, ready, 3);
    },
  },
  {
    name: "mystery-redemption-kyc",
    title: "Physical redemption for a partner that requires KYC",
    description:
      "prepare returns a KYC link first (the kyc fixture partner) → the operator approves → prepare with the same key returns the calls and the shipping payment → the wallet sends burn, approve and payShipping → submit → COMPLETED, burned at dispatch.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys.kyc!; // vesta requires KYC (POST /_emulator/mystery/kyc switches any partner)
      const wallet = await endUserWallet(ctx, 0);
      const p = await buyAndReveal(ctx, key, wallet, 1);
      ctx.step("1. prepare: KYC first");
      const headers = { "Idempotency-Key": ctx.run.unique("scenario-redeem-kyc-1") };
      const body = { purchase_id: p.id, shipping_address: US };
      const kyc = ctx.data<Prepared>(
        await ctx.http.post(`${M}/redemption/prepare`, { key, body, headers }),
        201,
        "prepare",
      );
      ctx.expect(
        kyc.status === "PREPARED" && kyc.kyc.status === "PENDING" && kyc.kyc.kyc_url && kyc.unsigned === null,
        "kyc_url first, no calls yet",
      );
      ctx.step("2. the end user passes KYC (the operator approves)");
      await ctx.control.request("POST", `/mystery/redemptions/${kyc.redemption_id}/kyc`, { decision: "approve" });
      ctx.step("3. prepare again with the same key: the calls and the shipping payment");
      const ready = ctx.data<Prepared>(
        await ctx.http.post(`${M}/redemption/prepare`, { key, body, headers }),
        201,
        "prepare again",
      );
      ctx.expect(
        ready.redemption_id === kyc.redemption_id && ready.kyc.status === "APPROVED",
        "the same redemption, KYC approved",
      );
      await payAndShip(ctx, key, wallet, ready, 4);
    },
  },
];
