import { describe, expect, it } from "vitest";
import { decodeErrorResult, type BaseError, type Hex } from "viem";
import { cardNftAbi, shippingPaymentProcessorAbi, type FixtureAccount } from "../../chain/index.ts";
import { mystery } from "../../emulator/areas/mystery/state.ts";
import { buyRevealed, sendCalls, user, type Ctx, useMystery } from "./helpers.ts";
import { TerminalStateError, type Redemption, type RedemptionPrepareResult } from "@ripdotfun/cardos-sdk";
import { apiError, sdkFor, waitForCompletion } from "../sdk.ts";
import { expectError } from "../../conformance/assert.ts";
import { usdcOf } from "../chain-reads.ts";

// Redemption as the live service runs it (SDK 0.1.2; docs/reference/live-service.md “Redemption”),
// driven by the official SDK (test/sdk.ts): its headers, an Idempotency-Key on prepare, polling by token id
// until a terminal status (docs/reference/sdk-shapes.md “Transport”, “Polling”, “Redemption methods”). The
// holder's fixture wallet sends the three calls on the local chain; the polling waits on the virtual clock.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };
const HOUR = 60 * 60 * 1000;

/** What a prepare answers beyond the SDK's type: the KYC gate (docs/reference/live-service.md “Redemption”). */
type Kyc = { kyc: { status: string; kyc_url: string | null } };
/** The SDK types calls' addresses and calldata as plain strings; the fixture wallet sends hex. */
type Calls = Array<{ to: `0x${string}`; data: `0x${string}` }>;
const calls = (prep: RedemptionPrepareResult, from: number, to?: number) =>
  prep.unsigned!.calls.slice(from, to) as Calls;

/** The official SDK for `apiKey`; its waitForCompletion polls on the emulator's clock (test/sdk.ts). */
const client = (apiKey: string) => sdkFor(ctx.emu, apiKey);

const frozen = (tokenId: string) =>
  ctx.emu.chain!.publicClient.readContract({
    address: ctx.emu.chain!.addresses.cardNft,
    abi: cardNftAbi,
    functionName: "isTransferFrozen",
    args: [BigInt(tokenId)],
  });
const updates = (id: number) =>
  ctx.events.filter((e) => e.type === "redemption.updated" && e.data.redemption_id === id).map((e) => e.data.status);

/** A revealed Starter pack's CARD of the demo partner (acme: no KYC), held by `u`. */
async function card(u: FixtureAccount = user(ctx, 0), key = ctx.demo) {
  const p = await buyRevealed(ctx, key, u, 1);
  return { purchase: p, token: p.items.find((i: { item_type: string }) => i.item_type === "CARD").token_id as string };
}

describe("redemption the way the SDK drives it", () => {
  it("quote → prepare → the wallet sends burn, approve, payShipping → submit → polling by token id reaches COMPLETED; the holder paid the quoted shipping", async () => {
    const u = user(ctx, 0);
    const { purchase, token } = await card(u);
    const sdk = client(ctx.demo);
    const shipping_quote = await sdk.redemption.quote({ purchase_id: purchase.id, shipping_address: US });
    expect(shipping_quote).toMatchObject({
      carrier: "USPS",
      service: "Ground Advantage",
      service_token: "usps_ground_advantage",
      amount_usdc: "5.40",
    });

    const prep = await sdk.redemption.prepare({
      purchase_id: purchase.id,
      shipping_address: US,
      shipping_payer: "end_user",
      idempotency_key: "sdk-1",
    });
    expect(prep).toMatchObject({
      status: "PREPARED",
      token_id: token,
      item_type: "CARD",
      shipping_payer: "end_user",
      kyc: { status: "NOT_REQUIRED" },
    });
    expect(prep.shipping_payment).toEqual({
      payer: u.address,
      processor: ctx.emu.chain!.addresses.shippingProcessor,
      total_usdc: "5.400000",
      total_micros: "5400000",
      expiration_time: Date.parse(prep.expires_at!) / 1000,
      provider_order_id: `ord_rdm_${prep.redemption_id}`,
    });
    expect(prep.unsigned!.calls.map((c) => [c.kind, c.to])).toEqual([
      ["burn", ctx.emu.chain!.addresses.cardNft],
      ["erc20-approve", ctx.emu.chain!.addresses.stablecoin],
      ["shipping-payment", ctx.emu.chain!.addresses.shippingProcessor],
    ]);
    // The SDK resends the same key on a retry: the original redemption, no second one.
    expect(
      (await sdk.redemption.prepare({ purchase_id: purchase.id, shipping_address: US, idempotency_key: "sdk-1" }))
        .redemption_id,
    ).toBe(prep.redemption_id);

    const [holderBefore, treasuryBefore] = [
      await usdcOf(ctx.emu, u.address),
      await usdcOf(ctx.emu, ctx.emu.chain!.treasury.address),
    ];
    const burn = await sendCalls(ctx, u, calls(prep, 0, 1));
    const paid = await sendCalls(ctx, u, calls(prep, 1));
    expect(paid.status).toBe("success");
    expect(await usdcOf(ctx.emu, u.address)).toBe(holderBefore - 5_400_000n);
    expect(await usdcOf(ctx.emu, ctx.emu.chain!.treasury.address)).toBe(treasuryBefore + 5_400_000n);

    const sub = await sdk.redemption.submit({ redemption_id: prep.redemption_id, tx_hash: burn.transactionHash });
    expect(sub).toMatchObject({
      redemption_id: prep.redemption_id,
      status: "BURN_SUBMITTED",
      burn_tx_hash: burn.transactionHash,
    });
    expect(
      await sdk.redemption.submit({ redemption_id: prep.redemption_id, tx_hash: burn.transactionHash }),
    ).toMatchObject({ status: "BURN_SUBMITTED" }); // same hash: fine

    const { value: row, seen } = await waitForCompletion(sdk, prep);
    expect(seen).toEqual(["BURN_SUBMITTED", "IN_FULFILLMENT", "COMPLETED"]);
    expect(row).toMatchObject({
      burn: { is_burned: true, burn_type: 1 },
      order: { status: "SHIPPED" },
      burn_tx_hash: burn.transactionHash,
    });
    expect(row.order.tracking_number).toMatch(/^9400\d+/);
    expect(updates(prep.redemption_id)).toEqual(["BURN_SUBMITTED", "IN_FULFILLMENT", "COMPLETED"]);
    // The get row carries none of the prepare-only keys (docs/reference/sdk-shapes.md “Redemption shapes”).
    expect(Object.keys(row)).not.toEqual(expect.arrayContaining(["shipping_payment"]));
  });

  it("a wallet that submits the shipping payment's hash (one hash for the batch) is taken: the burn it paid for is recorded", async () => {
    const u = user(ctx, 1);
    const { token } = await card(u);
    const sdk = client(ctx.demo);
    const prep = await sdk.redemption.prepare({ token_id: token, shipping_address: US });
    const burn = await sendCalls(ctx, u, calls(prep, 0, 1));
    const payment = await sendCalls(ctx, u, calls(prep, 1));
    expect(
      await sdk.redemption.submit({ redemption_id: prep.redemption_id, tx_hash: payment.transactionHash }),
    ).toMatchObject({ status: "BURN_SUBMITTED", burn_tx_hash: burn.transactionHash });
    expect(
      (await sdk.redemption.submit({ redemption_id: prep.redemption_id, tx_hash: payment.transactionHash })).status,
    ).toBe("BURN_SUBMITTED");
    expect((await waitForCompletion(sdk, prep)).value.status).toBe("COMPLETED");
  });
});

describe("the item ships only once the shipping payment has landed", () => {
  it("a burn without payment stays BURN_SUBMITTED (the warehouse refuses it: 409 shipping_unpaid); paying later ships it", async () => {
    const u = user(ctx, 2);
    const { token } = await card(u);
    const sdk = client(ctx.demo);
    const prep = await sdk.redemption.prepare({ token_id: token, shipping_address: US, idempotency_key: "unpaid-1" });
    const burn = await sendCalls(ctx, u, calls(prep, 0, 1));
    await sdk.redemption.submit({ redemption_id: prep.redemption_id, tx_hash: burn.transactionHash });
    await ctx.emu.clock.advance(3 * HOUR);
    expect((await sdk.redemption.get(token))[0]!.status).toBe("BURN_SUBMITTED");
    expectError(
      await ctx.api.post(`/_emulator/mystery/redemptions/${prep.redemption_id}/start-fulfillment`),
      409,
      "shipping_unpaid",
    );
    // A replay of the prepare still names the payment to make (null once paid); a new key meets the live redemption.
    expect(
      await sdk.redemption.prepare({ token_id: token, shipping_address: US, idempotency_key: "unpaid-1" }),
    ).toMatchObject({ status: "BURN_SUBMITTED", unsigned: null, shipping_payment: { total_micros: "5400000" } });
    expect(
      (await apiError(sdk.redemption.prepare({ token_id: token, shipping_address: US, idempotency_key: "unpaid-2" })))
        .code,
    ).toBe("redemption_exists");
    await sendCalls(ctx, u, calls(prep, 1));
    const { seen } = await waitForCompletion(sdk, prep);
    expect(seen).toEqual(["BURN_SUBMITTED", "IN_FULFILLMENT", "COMPLETED"]);
  });

  it("never paid: CANCELLED at expires_at, the burn cancelled on chain, redemption.updated; waitForCompletion throws on CANCELLED", async () => {
    const u = user(ctx, 2);
    const { token } = await card(u);
    const sdk = client(ctx.demo);
    const prep = await sdk.redemption.prepare({ token_id: token, shipping_address: US });
    const burn = await sendCalls(ctx, u, calls(prep, 0, 1));
    await sdk.redemption.submit({ redemption_id: prep.redemption_id, tx_hash: burn.transactionHash });
    expect(await frozen(token)).toBe(true);
    await ctx.emu.clock.advance(24 * HOUR);
    const err = await waitForCompletion(sdk, prep).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TerminalStateError);
    expect((err as TerminalStateError<Redemption>).state).toBe("CANCELLED");
    expect((err as TerminalStateError<Redemption>).value.failure_reason).toMatch(
      /shipping payment .* not received .*burn flagged on chain was cancelled/,
    );
    expect(await frozen(token)).toBe(false);
    expect(updates(prep.redemption_id)).toEqual(["BURN_SUBMITTED", "CANCELLED"]);
    // The token is free again: a new redemption can start.
    expect((await sdk.redemption.prepare({ token_id: token, shipping_address: US })).status).toBe("PREPARED");
  });

  it("the payment is bound to the holder: another wallet's payShipping reverts (WrongPayer)", async () => {
    const u = user(ctx, 3);
    const { token } = await card(u);
    const prep = await client(ctx.demo).redemption.prepare({ token_id: token, shipping_address: US });
    await sendCalls(ctx, u, calls(prep, 0, 2));
    // Someone else cannot pay it (the quote is bound to the payer).
    const pay = calls(prep, 2, 3)[0]!;
    const err = (await ctx.emu
      .chain!.publicClient.call({ account: user(ctx, 4).address, to: pay.to, data: pay.data })
      .catch((e: BaseError) => e)) as BaseError;
    const raw = (err.walk((e) => typeof (e as { data?: unknown }).data === "string") as { data?: Hex } | null)?.data;
    expect(decodeErrorResult({ abi: shippingPaymentProcessorAbi, data: raw! }).errorName).toBe("WrongPayer");
    // The holder's own call goes through.
    expect((await sendCalls(ctx, u, [pay])).status).toBe("success");
  });
});

describe("verify, item_type, shipping payer, signer outage, cancel", () => {
  it("?verify=true reconciles the row with the chain: a burn and payment sent but never submitted read BURN_SUBMITTED", async () => {
    const u = user(ctx, 0);
    const { token } = await card(u);
    const sdk = client(ctx.demo);
    const prep = await sdk.redemption.prepare({ token_id: token, shipping_address: US });
    const burn = await sendCalls(ctx, u, calls(prep, 0, 1));
    await sendCalls(ctx, u, calls(prep, 1));
    expect((await sdk.redemption.get(token))[0]).toMatchObject({ status: "PREPARED", burn_tx_hash: null });
    expect((await sdk.redemption.get(token, { verify: true }))[0]).toMatchObject({
      status: "BURN_SUBMITTED",
      burn_tx_hash: burn.transactionHash,
    });
    expect((await waitForCompletion(sdk, prep)).value.status).toBe("COMPLETED");
    expectError(
      await ctx.api.get(`/api/v1/mystery/redemption/${token}?verify=maybe`).set("X-API-Key", ctx.demo),
      400,
      "invalid_value",
    );
  });

  it("item_type: a wrong one is 409 item_type_mismatch; a token number of several types needs it (409 ambiguous_token); a bad one 400 invalid_item_type", async () => {
    const { purchase, token } = await card(user(ctx, 0));
    const sdk = client(ctx.demo);
    expect(
      (await apiError(sdk.redemption.quote({ token_id: token, item_type: "SEALED_PRODUCT", shipping_address: US })))
        .code,
    ).toBe("item_type_mismatch");
    const graded = await apiError(
      sdk.redemption.quote({
        purchase_id: purchase.id,
        token_id: token,
        item_type: "GRADED_CARD",
        shipping_address: US,
      }),
    );
    expect([graded.status, graded.code]).toEqual([409, "item_type_mismatch"]);
    expect(
      (await apiError(sdk.redemption.prepare({ token_id: token, item_type: "SEALED_PRODUCT", shipping_address: US })))
        .code,
    ).toBe("item_type_mismatch");
    expect(
      (await apiError(sdk.redemption.quote({ token_id: token, item_type: "card" as never, shipping_address: US })))
        .code,
    ).toBe("invalid_item_type");
    expect((await sdk.redemption.quote({ token_id: token, item_type: "CARD", shipping_address: US })).carrier).toBe(
      "USPS",
    );
    // The same number as a sealed product of another item contract (as on the live service).
    const slice = mystery(ctx.emu.services);
    const other = {
      ...slice.purchases[purchase.id]!,
      id: 424242,
      items: [{ ...purchase.items[0], token_id: token, item_type: "SEALED_PRODUCT" as const }],
    };
    slice.purchases[other.id] = other;
    const amb = await apiError(sdk.redemption.quote({ token_id: token, shipping_address: US }));
    expect([amb.status, amb.code, (amb.body as { details?: unknown }).details]).toEqual([
      409,
      "ambiguous_token",
      { item_types: ["CARD", "SEALED_PRODUCT"] },
    ]);
    expect(await sdk.redemption.quote({ token_id: token, item_type: "CARD", shipping_address: US })).toBeTruthy();
  });

  it('shipping_payer other than "end_user" is 400 invalid_shipping_payer', async () => {
    const { token } = await card(user(ctx, 0));
    for (const payer of ["partner", "END_USER", 1, ""])
      expect(
        (
          await apiError(
            client(ctx.demo).redemption.prepare({
              token_id: token,
              shipping_address: US,
              shipping_payer: payer as never,
            }),
          )
        ).code,
        String(payer),
      ).toBe("invalid_shipping_payer");
    expect(
      (
        await client(ctx.demo).redemption.prepare({
          token_id: token,
          shipping_address: US,
          shipping_payer: null as never,
        })
      ).shipping_payer,
    ).toBe("end_user");
  });

  it("shipping signer down: 503 shipping_signer_unavailable (retryable, Retry-After), no row; a replay still answers; the retry works once it is back", async () => {
    const [a, b] = [await card(user(ctx, 0)), await card(user(ctx, 1))];
    const sdk = client(ctx.demo);
    const opened = await sdk.redemption.prepare({ token_id: a.token, shipping_address: US, idempotency_key: "before" });
    await ctx.api.post("/_emulator/mystery/shipping-signer").send({ enabled: false }).expect(200);
    const res = await ctx.api
      .post("/api/v1/mystery/redemption/prepare")
      .set("X-API-Key", ctx.demo)
      .set("Idempotency-Key", "down-1")
      .send({ token_id: b.token, shipping_address: US });
    expect(expectError(res, 503, "shipping_signer_unavailable").retryable).toBe(true);
    expect(res.headers["retry-after"]).toBe("5");
    expect(await apiError(sdk.redemption.get(b.token))).toMatchObject({
      status: 404,
      code: "not_found",
    });
    expect(
      (await sdk.redemption.prepare({ token_id: a.token, shipping_address: US, idempotency_key: "before" }))
        .redemption_id,
    ).toBe(opened.redemption_id);
    expectError(await ctx.api.post("/_emulator/mystery/shipping-signer").send({ enabled: "no" }), 400, "invalid_value");
    await ctx.api.post("/_emulator/mystery/shipping-signer").send({ enabled: true }).expect(200);
    expect(
      (await sdk.redemption.prepare({ token_id: b.token, shipping_address: US, idempotency_key: "down-1" })).status,
    ).toBe("PREPARED");
  });

  it("operator cancel: CANCELLED with the burn cancelled and the paid shipping paid back; a shipped one cannot be cancelled", async () => {
    const u = user(ctx, 3);
    const { token } = await card(u);
    const sdk = client(ctx.demo);
    const prep = await sdk.redemption.prepare({ token_id: token, shipping_address: US });
    const before = await usdcOf(ctx.emu, u.address);
    const burn = await sendCalls(ctx, u, calls(prep, 0, 1));
    await sendCalls(ctx, u, calls(prep, 1));
    await sdk.redemption.submit({ redemption_id: prep.redemption_id, tx_hash: burn.transactionHash });
    const res = await ctx.api
      .post(`/_emulator/mystery/redemptions/${prep.redemption_id}/cancel`)
      .send({ reason: "address undeliverable" })
      .expect(200);
    expect(res.body.data).toMatchObject({ status: "CANCELLED" });
    expect(res.body.data.failure_reason).toMatch(/^address undeliverable .*cancelled.*paid back/);
    expect(await usdcOf(ctx.emu, u.address)).toBe(before);
    expect(await frozen(token)).toBe(false);
    expect(updates(prep.redemption_id)).toEqual(["BURN_SUBMITTED", "CANCELLED"]);
    expect(
      ((await waitForCompletion(sdk, prep).catch((e: unknown) => e)) as TerminalStateError<Redemption>).state,
    ).toBe("CANCELLED");
    expectError(
      await ctx.api.post(`/_emulator/mystery/redemptions/${prep.redemption_id}/cancel`).send({}),
      409,
      "invalid_status",
    );
    expectError(await ctx.api.post("/_emulator/mystery/redemptions/999999/cancel").send({}), 404, "not_found");
  });
});

describe("KYC if required: a per-partner setting", () => {
  it("off for the demo partner; the control plane switches it on (kyc PENDING, kyc_url, no calls, no payment) and off again", async () => {
    const [a, b] = [await card(user(ctx, 0)), await card(user(ctx, 0))];
    const sdk = client(ctx.demo);
    const on = await ctx.api.post("/_emulator/mystery/kyc").send({ key: ctx.demo, required: true }).expect(200);
    expect(on.body.data).toEqual({ account_id: "acme", kyc_required: true });
    const gated = await sdk.redemption.prepare({ token_id: a.token, shipping_address: US });
    expect(gated).toMatchObject({
      status: "PREPARED",
      kyc: { status: "PENDING" },
      unsigned: null,
      shipping_payment: null,
    });
    expect((gated as typeof gated & Kyc).kyc.kyc_url).toMatch(/^https:\/\//);
    expect(
      (await apiError(sdk.redemption.submit({ redemption_id: gated.redemption_id, tx_hash: `0x${"11".repeat(32)}` })))
        .code,
    ).toBe("kyc_required");
    await ctx.api.post("/_emulator/mystery/kyc").send({ account_id: "acme", required: false }).expect(200);
    expect((await sdk.redemption.prepare({ token_id: b.token, shipping_address: US })).status).toBe("PREPARED");
    expectError(await ctx.api.post("/_emulator/mystery/kyc").send({ account_id: "acme" }), 400, "invalid_value");
    expectError(await ctx.api.post("/_emulator/mystery/kyc").send({ required: true }), 400, "invalid_value");
    expectError(await ctx.api.post("/_emulator/mystery/kyc").send({ key: "nope", required: true }), 404, "not_found");
  });

  it("the kyc fixture partner (vesta) requires it: approval, then the same key returns the three calls", async () => {
    const kyc = ctx.emu.key("kyc");
    const u = user(ctx, 1);
    const { token } = await card(u, kyc);
    const sdk = client(kyc);
    const first = await sdk.redemption.prepare({ token_id: token, shipping_address: US, idempotency_key: "v-1" });
    expect(first).toMatchObject({ status: "PREPARED", kyc: { status: "PENDING" }, unsigned: null });
    await ctx.api
      .post(`/_emulator/mystery/redemptions/${first.redemption_id}/kyc`)
      .send({ decision: "approve" })
      .expect(200);
    const ready = await sdk.redemption.prepare({ token_id: token, shipping_address: US, idempotency_key: "v-1" });
    expect(ready).toMatchObject({
      redemption_id: first.redemption_id,
      status: "PREPARED",
      kyc: { status: "APPROVED" },
    });
    expect(ready.unsigned!.calls.map((c) => c.kind)).toEqual(["burn", "erc20-approve", "shipping-payment"]);
    const burn = await sendCalls(ctx, u, calls(ready, 0, 1));
    await sendCalls(ctx, u, calls(ready, 1));
    await sdk.redemption.submit({ redemption_id: ready.redemption_id, tx_hash: burn.transactionHash });
    expect((await waitForCompletion(sdk, ready)).value.status).toBe("COMPLETED");
  });
});

describe("get by purchase id or token id", () => {
  it("a number naming both a purchase of the account and a redeemed token answers the redemptions of both (waitForCompletion finds its row)", async () => {
    const sdk = client(ctx.demo);
    const a = await card(user(ctx, 0));
    const b = await card(user(ctx, 1));
    const ra = await sdk.redemption.prepare({ token_id: a.token, shipping_address: US });
    const rb = await sdk.redemption.prepare({ token_id: b.token, shipping_address: US });
    // Token numbers and purchase ids meet once a session has minted past 5000 tokens: B's token takes A's purchase id.
    mystery(ctx.emu.services).redemptions[rb.redemption_id]!.token_id = String(a.purchase.id);
    const rows = (await sdk.redemption.get(a.purchase.id)).map((r) => r.redemption_id);
    expect(rows).toEqual([rb.redemption_id, ra.redemption_id]);
  });
});

describe("carrier and service names", () => {
  it("each as itself: carrier USPS / UPS / DHL Express / LSO, service without the carrier, the Shippo token", async () => {
    const { token } = await card(user(ctx, 0));
    // Every rate: beside the cheapest (all the SDK's quote returns), the answer lists them in `data.rates`.
    const res = await ctx.api
      .post("/api/v1/mystery/redemption/quote")
      .set("X-API-Key", ctx.demo)
      .send({ token_id: token, shipping_address: US })
      .expect(200);
    const rates = res.body.data.rates as Array<{ carrier: string; service: string }>;
    expect(res.body.data.shipping_quote).toEqual(
      await client(ctx.demo).redemption.quote({ token_id: token, shipping_address: US }),
    );
    for (const r of rates) expect(r.service.startsWith(r.carrier), `${r.carrier} / ${r.service}`).toBe(false);
    expect(rates.map((r) => `${r.carrier} ${r.service}`)).toEqual([
      "USPS Ground Advantage",
      "LSO Ground",
      "USPS Priority Mail",
      "UPS Ground",
      "UPS 2nd Day Air",
    ]);
  });
});
