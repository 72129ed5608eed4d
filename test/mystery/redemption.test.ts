import { describe, expect, it } from "vitest";
import { encodeFunctionData } from "viem";
import { BURN_TYPES, cardNftAbi } from "../../chain/index.ts";
import { buy, buyRevealed, sendCalls, user, type Ctx, useMystery } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const R = "/api/v1/mystery/redemption";
const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };
const post = (path: string, key: string, body: Record<string, unknown>) =>
  ctx.api.post(`${R}/${path}`).set("X-API-Key", key).send(body);
const nft = () => ctx.emu.chain!.addresses.cardNft;
const read = <T>(functionName: string, args: unknown[]) =>
  ctx.emu.chain!.publicClient.readContract({
    address: nft(),
    abi: cardNftAbi,
    functionName: functionName as never,
    args: args as never,
  }) as Promise<T>;

describe("redemption quote", () => {
  it("validates the address, phone and carriers; returns the cheapest rate; creates no rows", async () => {
    const p = await buyRevealed(ctx, ctx.demo, user(ctx, 0), 1);
    const q = (body: Record<string, unknown>) => post("quote", ctx.demo, { purchase_id: p.id, ...body });
    expect((await q({})).body.error).toBe("missing_shipping_address");
    expect((await q({ shipping_address: { ...US, zip: "ABC" } })).body).toMatchObject({
      error: "invalid_address",
      details: { field: "zip" },
    });
    expect((await q({ shipping_address: { ...US, street1: "" } })).body.error).toBe("invalid_address");
    const abroad = { name: "Kim", street1: "1 Rue", city: "Paris", zip: "75001", country: "FR" };
    expect((await q({ shipping_address: abroad })).body.error).toBe("phone_required");
    expect((await q({ shipping_address: US, carriers: ["fedex"] })).body.error).toBe("unknown_carrier");
    const ok = await q({ shipping_address: US }).expect(200);
    expect(ok.body.data.shipping_quote).toMatchObject({ carrier: "USPS", amount_usdc: "5.40", currency: "USD" });
    expect(ok.body.data.shipping_quote.rate_id).toMatch(/^rate_/);
    const dhl = await q({
      shipping_address: { ...abroad, phone: "+33 1 23 45 67 89" },
      carriers: ["dhl_express", "ups"],
    }).expect(200);
    expect(dhl.body.data.shipping_quote).toMatchObject({ carrier: "DHL Express", amount_usdc: "58.00" });
    expectError(await ctx.api.get(`${R}/${p.id}`).set("X-API-Key", ctx.demo), 404, "not_found");
  });
});

describe("redemption with KYC to dispatch (burn on dispatch)", () => {
  it("KYC link first (vesta requires KYC), calldata after approval, BURN_SUBMITTED → IN_FULFILLMENT → COMPLETED with the burn finalised", async () => {
    // demo (acme) runs no KYC, as on the live service; the "kyc" fixture key's partner (vesta) does.
    const kyc = ctx.emu.key("kyc");
    const u = user(ctx, 0);
    const p = await buyRevealed(ctx, kyc, u, 1);
    const card = p.items.find((i: { item_type: string }) => i.item_type === "CARD");
    const first = await post("prepare", kyc, {
      purchase_id: p.id,
      shipping_address: US,
      idempotency_key: "r-1",
    }).expect(201);
    expect(first.body.data).toMatchObject({
      status: "PREPARED",
      token_id: card.token_id,
      unsigned: null,
      shipping_payment: null,
      kyc: { status: "PENDING" },
    });
    expect(first.body.data.kyc.kyc_url).toMatch(/^https:\/\//);
    const id = first.body.data.redemption_id;
    const early = await post("submit", kyc, { redemption_id: id, tx_hash: `0x${"11".repeat(32)}` }).expect(409);
    expect(early.body.error).toBe("kyc_required");
    // same key before approval: still the KYC link, no calls
    expect(
      (await post("prepare", kyc, { purchase_id: p.id, shipping_address: US, idempotency_key: "r-1" }).expect(201)).body
        .data,
    ).toMatchObject({ status: "PREPARED", kyc: { status: "PENDING" }, unsigned: null });
    await ctx.api.post(`/_emulator/mystery/redemptions/${id}/kyc`).send({ decision: "approve" }).expect(200);
    const again = await ctx.api
      .post(`${R}/prepare`)
      .set("X-API-Key", kyc)
      .set("Idempotency-Key", "r-1")
      .send({ purchase_id: p.id, shipping_address: US })
      .expect(201);
    expect(again.body.data).toMatchObject({
      redemption_id: id,
      status: "PREPARED",
      kyc: { status: "APPROVED", kyc_url: null },
    });
    expect(again.body.data.unsigned.calls.map((c: { kind: string }) => c.kind)).toEqual([
      "burn",
      "erc20-approve",
      "shipping-payment",
    ]);
    expect(again.body.data.unsigned.calls[0]).toMatchObject({ kind: "burn", to: nft() });
    expect(again.body.data).toMatchObject({
      shipping_payer: "end_user",
      shipping_payment: { payer: u.address, total_usdc: "5.400000", total_micros: "5400000" },
    });
    expect(again.body.data.unsigned.calls[0].data).toBe(
      encodeFunctionData({
        abi: cardNftAbi,
        functionName: "initiateBurn",
        args: [BigInt(card.token_id), BURN_TYPES.REDEEM_CARD],
      }),
    );

    const burn = await sendCalls(ctx, u, again.body.data.unsigned.calls);
    expect((await post("submit", kyc, { redemption_id: id, tx_hash: "0x12" })).body.error).toBe("invalid_tx_hash");
    const sub = await post("submit", kyc, { redemption_id: id, tx_hash: burn.transactionHash }).expect(202);
    expect(sub.body.data.status).toBe("BURN_SUBMITTED");
    await post("submit", kyc, { redemption_id: id, tx_hash: burn.transactionHash }).expect(202); // same hash: idempotent
    const other = await post("submit", kyc, { redemption_id: id, tx_hash: `0x${"22".repeat(32)}` }).expect(409);
    expect(other.body.error).toBe("invalid_status");
    expect(await read<boolean>("isTransferFrozen", [BigInt(card.token_id)])).toBe(true);

    await ctx.emu.clock.advance(60 * 60 * 1000);
    let got = await ctx.api.get(`${R}/${p.id}`).set("X-API-Key", kyc).expect(200);
    expect(got.body.data.redemptions[0]).toMatchObject({
      status: "IN_FULFILLMENT",
      burn: { is_burned: false, db_status: "PENDING_REDEEM" },
    });
    await ctx.emu.clock.advance(24 * 60 * 60 * 1000);
    got = await ctx.api.get(`${R}/${card.token_id}`).set("X-API-Key", kyc).expect(200);
    expect(got.body.data.redemptions[0]).toMatchObject({
      status: "COMPLETED",
      burn: { is_burned: true, burn_type: 1, burn_type_label: "REDEEM_CARD" },
    });
    expect(got.body.data.redemptions[0].order.tracking_number).toBeTruthy();
    expect(await read<boolean>("isBurned", [BigInt(card.token_id)])).toBe(true);
    expect(await read<number>("getItemBurnType", [BigInt(card.token_id)])).toBe(1);
    const updates = ctx.events.filter((e) => e.type === "redemption.updated").map((e) => e.data.status);
    expect(updates).toEqual(["PREPARED", "BURN_SUBMITTED", "IN_FULFILLMENT", "COMPLETED"]);
    expect(ctx.events.filter((e) => e.type === "redemption.prepared")).toHaveLength(1);

    // after dispatch: nothing left on this purchase; the burned token has no holder
    expect(
      (await post("prepare", kyc, { purchase_id: p.id, shipping_address: US, idempotency_key: "r-2" })).body.error,
    ).toBe("no_items");
    expect(
      (
        await post("prepare", kyc, {
          purchase_id: p.id,
          token_id: card.token_id,
          shipping_address: US,
          idempotency_key: "r-3",
        })
      ).body.error,
    ).toBe("no_holder");
    const list = await ctx.api.get("/api/v1/mystery/redemptions?status=COMPLETED").set("X-API-Key", kyc).expect(200);
    expect(list.body.data.redemptions).toHaveLength(1);
  });

  it("manual warehouse mode: control actions start fulfilment and dispatch", async () => {
    await ctx.api.post("/_emulator/mystery/warehouse").send({ mode: "manual" }).expect(200);
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1); // nova: no KYC
    const prep = await post("prepare", ctx.revenueShare, {
      purchase_id: p.id,
      shipping_address: US,
      idempotency_key: "n-1",
    }).expect(201);
    expect(prep.body.data).toMatchObject({ status: "PREPARED", kyc: { status: "NOT_REQUIRED" } });
    const id = prep.body.data.redemption_id;
    expectError(await ctx.api.post(`/_emulator/mystery/redemptions/${id}/dispatch`), 409, "invalid_status");
    const burn = await sendCalls(ctx, u, prep.body.data.unsigned.calls);
    await post("submit", ctx.revenueShare, { redemption_id: id, tx_hash: burn.transactionHash }).expect(202);
    await ctx.emu.clock.advance(48 * 60 * 60 * 1000);
    expect((await ctx.api.get(`${R}/${p.id}`).set("X-API-Key", ctx.revenueShare)).body.data.redemptions[0].status).toBe(
      "BURN_SUBMITTED",
    );
    expect(
      (await ctx.api.post(`/_emulator/mystery/redemptions/${id}/start-fulfillment`).expect(200)).body.data.status,
    ).toBe("IN_FULFILLMENT");
    expect((await ctx.api.post(`/_emulator/mystery/redemptions/${id}/dispatch`).expect(200)).body.data.status).toBe(
      "COMPLETED",
    );
  });
});

describe("redemption conflicts", () => {
  it("not_fulfilled, token_required, invalid_token_id, unsupported_item, redemption_exists, idempotency_mismatch", async () => {
    const u = user(ctx, 2);
    const { purchase: pending } = await buy(ctx, ctx.revenueShare, u, 1);
    const body = (extra: Record<string, unknown>) => ({
      shipping_address: US,
      idempotency_key: `k-${Math.random()}`,
      ...extra,
    });
    expect((await post("prepare", ctx.revenueShare, body({ purchase_id: pending.id }))).body.error).toBe(
      "not_fulfilled",
    );
    expectError(await post("quote", ctx.revenueShare, body({ purchase_id: pending.id })), 409, "not_fulfilled");
    expect((await post("quote", ctx.revenueShare, { shipping_address: US })).body.error).toBe(
      "purchase_or_token_required",
    );
    expectError(await post("quote", ctx.revenueShare, body({ purchase_id: 999999 })), 404, "not_found");
    const p2 = await buyRevealed(ctx, ctx.revenueShare, u, 2);
    expect((await post("prepare", ctx.revenueShare, body({ purchase_id: p2.id }))).body.error).toBe("token_required");
    expect((await post("prepare", ctx.revenueShare, body({ purchase_id: p2.id, token_id: "999999" }))).body.error).toBe(
      "invalid_token_id",
    );
    const packet = p2.items.find((i: { item_type: string }) => i.item_type === "PACKET");
    expect(
      (await post("prepare", ctx.revenueShare, body({ purchase_id: p2.id, token_id: packet.token_id }))).body.error,
    ).toBe("unsupported_item");
    const graded = p2.items.find((i: { item_type: string }) => i.item_type === "GRADED_CARD");
    await post("prepare", ctx.revenueShare, {
      purchase_id: p2.id,
      token_id: graded.token_id,
      shipping_address: US,
      idempotency_key: "same",
    }).expect(201);
    expect(
      (await post("prepare", ctx.revenueShare, body({ purchase_id: p2.id, token_id: graded.token_id }))).body.error,
    ).toBe("redemption_exists");
    const card = p2.items.find((i: { item_type: string }) => i.item_type === "CARD");
    expect(
      (
        await post("prepare", ctx.revenueShare, {
          purchase_id: p2.id,
          token_id: card.token_id,
          shipping_address: US,
          idempotency_key: "same",
        })
      ).body.error,
    ).toBe("idempotency_mismatch");
    // token-first works too
    await post("quote", ctx.revenueShare, { token_id: card.token_id, shipping_address: US }).expect(200);
    expect((await post("quote", ctx.revenueShare, { token_id: "424242", shipping_address: US })).body.error).toBe(
      "token_not_found",
    );
    expect(
      (await post("prepare", ctx.revenueShare, { purchase_id: p2.id, token_id: card.token_id, shipping_address: US }))
        .body.error,
    ).toBe("missing_idempotency_key");
  });

  it("not_owner when the card moved, not_burnable when another burn is pending", async () => {
    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 2);
    const [card, graded] = [p.items[0], p.items[1]];
    const chain = ctx.emu.chain!;
    await sendCalls(ctx, u, [
      {
        to: nft(),
        data: encodeFunctionData({
          abi: cardNftAbi,
          functionName: "transferFrom",
          args: [u.address, chain.endUsers[4]!.address, BigInt(card.token_id)],
        }),
      },
    ]);
    await sendCalls(ctx, u, [
      {
        to: nft(),
        data: encodeFunctionData({
          abi: cardNftAbi,
          functionName: "initiateBurn",
          args: [BigInt(graded.token_id), BURN_TYPES.GRADING],
        }),
      },
    ]);
    const prep = (token: string) =>
      post("prepare", ctx.revenueShare, {
        purchase_id: p.id,
        token_id: token,
        shipping_address: US,
        idempotency_key: `x-${token}`,
      });
    expect((await prep(card.token_id)).body.error).toBe("not_owner");
    expect((await prep(graded.token_id)).body.error).toBe("not_burnable");
  });

  it("reads: 404 for unknown, invalid_status filter, not found for other partners; submit 404", async () => {
    expectError(await ctx.api.get(`${R}/123`).set("X-API-Key", ctx.demo), 404, "not_found");
    expect(
      (await ctx.api.get("/api/v1/mystery/redemptions?status=SHIPPED").set("X-API-Key", ctx.demo).expect(400)).body
        .error,
    ).toBe("invalid_status");
    expectError(
      await post("submit", ctx.demo, { redemption_id: 424242, tx_hash: `0x${"33".repeat(32)}` }),
      404,
      "not_found",
    );
    expectError(
      await ctx.api.get(`/api/v1/mystery/redemptions`).set("X-API-Key", ctx.tenant),
      403,
      "Insufficient permissions",
    );
  });
});
