import { describe, expect, it } from "vitest";
import { cardNftAbi } from "../../chain/index.ts";
import { EVENT_PAYLOADS, type PartnerEventType } from "../../emulator/events/payloads.ts";
import { useMystery, type Ctx } from "../mystery/helpers.ts";
import { sdkFor, waitForDelivery } from "../sdk.ts";
import { startReceiver } from "../webhooks/receiver.ts";
import { expectError } from "../../conformance/assert.ts";
import { RELAY_PICKUP_MS } from "../../contract/lifecycles/purchases.ts";

// A custodial instant purchase (no SDK route makes one; the operator does, POST
// /_emulator/instant/custodial) runs the real lifecycle: RESERVED with every
// on-chain field null → the relayer buys and opens the pack on chain for the end
// user's custodial wallet → SUBMITTED → the VRF draw → FULFILLED; each step
// publishes its instant_purchase.* event, and the partner reads the same
// purchase through the SDK's routes.

let ctx: Ctx;
useMystery("auto", (c) => (ctx = c));
const custodial = (body: Record<string, unknown>) => ctx.api.post("/_emulator/instant/custodial").send(body);

describe("a custodial instant purchase", () => {
  it("goes RESERVED → SUBMITTED → FULFILLED on the clock, the pack opened for the end user's custodial wallet, one event per step", async () => {
    const key = ctx.emu.key("demo");
    const rx = await startReceiver(200);
    try {
      await ctx.api
        .post("/api/v1/webhooks")
        .set("X-API-Key", key)
        .send({
          url: rx.url,
          event_types: ["instant_purchase.reserved", "instant_purchase.submitted", "instant_purchase.fulfilled"],
        })
        .expect(201);
      const made = (await custodial({ key, packet_type_id: 1, external_user_id: "acme-user-1" }).expect(201)).body.data;
      expect(made).toMatchObject({
        status: "RESERVED",
        custody: "CUSTODIAL",
        transaction_hash: null,
        onchain_request_id: null,
        submitted_at: null,
        price_usdc: "4.990000",
      });
      expect(made.reserved_at).toBe(ctx.emu.clock.nowIso());
      const cardos = sdkFor(ctx.emu, key);
      const sdk = cardos.instant;
      expect(await sdk.getPurchase(made.id)).toMatchObject({ status: "RESERVED", custody: "CUSTODIAL" });

      // the end user's custodial wallet, as GET /wallet/balance shows it: the price is held on it
      const balanceOf = async () =>
        (
          await ctx.api
            .get("/api/v1/wallet/balance")
            .set("X-API-Key", key)
            .query({ external_user_id: "acme-user-1" })
            .expect(200)
        ).body.data;
      const held = await balanceOf();
      const wallet = held.end_user.wallet_address;
      expect(made.recipient_address).toBe(wallet);
      expect(held.wallet).toMatchObject({
        balance_usdc: "500.000000",
        reserved_usdc: "4.990000",
        available_usdc: "495.010000",
      });
      expect(made.purchaser_address).toBe(ctx.emu.chain!.relayer.address);

      await ctx.emu.clock.advance(RELAY_PICKUP_MS); // the relayer buys and opens it
      const submitted = await sdk.getPurchase(made.id);
      expect(submitted).toMatchObject({ status: "SUBMITTED", custody: "CUSTODIAL", recipient_address: wallet });
      expect(submitted.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(submitted.onchain_request_id).toMatch(/^\d+$/);
      const receipt = await ctx.emu.chain!.publicClient.getTransactionReceipt({
        hash: submitted.transaction_hash as `0x${string}`,
      });
      expect(receipt.from.toLowerCase()).toBe(ctx.emu.chain!.relayer.address.toLowerCase());
      // mined: the hold is spent, one ledger entry per change naming the purchase
      expect((await balanceOf()).wallet).toMatchObject({
        balance_usdc: "495.010000",
        reserved_usdc: "0.000000",
        available_usdc: "495.010000",
      });
      const ledger = (
        await ctx.api
          .get("/api/v1/wallet/ledger")
          .set("X-API-Key", key)
          .query({ external_user_id: "acme-user-1" })
          .expect(200)
      ).body.data.entries;
      const ours = ledger.filter(
        (e: { source: string; source_id: string }) =>
          e.source === "instant_purchase" && e.source_id === String(made.id),
      );
      expect(ours.map((e: { entry_type: string; amount: string }) => [e.entry_type, e.amount]).sort()).toEqual([
        ["HOLD", "-4990000"],
        ["HOLD_SETTLE", "-4990000"],
      ]);

      const { value: purchase, seen } = await waitForDelivery(cardos, made.id);
      expect(seen.at(-1)).toBe("FULFILLED");
      expect(purchase.cards!.length).toBe(5);
      for (const c of purchase.cards!)
        expect(
          (
            await ctx.emu.chain!.publicClient.readContract({
              address: ctx.emu.chain!.addresses.cardNft,
              abi: cardNftAbi,
              functionName: "ownerOf",
              args: [BigInt(c.token_id)],
            })
          ).toLowerCase(),
        ).toBe(wallet.toLowerCase());

      const mine = ctx.events.filter((e) => e.type.startsWith("instant_purchase.") && e.data.purchase_id === made.id);
      expect(mine.map((e) => e.type)).toEqual([
        "instant_purchase.reserved",
        "instant_purchase.submitted",
        "instant_purchase.fulfilled",
      ]);
      for (const e of mine)
        expect(EVENT_PAYLOADS[e.type as PartnerEventType].safeParse(e.data).success, e.type).toBe(true);
      expect(mine[1]!.data).toMatchObject({
        transaction_hash: submitted.transaction_hash,
        store_request_id: submitted.onchain_request_id,
      });
      expect(mine[1]!.data).not.toHaveProperty("custody");
      await ctx.emu.clock.advance(0);
      expect(rx.received.map((r) => r.headers["x-mystery-event"])).toEqual(mine.map((e) => e.type));
      // listed for the partner, filterable by status and end user
      const listed = await sdk.listPurchases({ status: "FULFILLED", external_user_id: "acme-user-1" });
      expect(listed.items.map((p) => p.id)).toEqual([made.id]);
    } finally {
      await rx.close();
    }
  });

  it("counts the stock down on chain; a sold-out pack, a balance that does not cover it, a switched-off store, bad input and an unknown key are refused", async () => {
    const key = ctx.emu.key("demo");
    // an end user with 5 USDC cannot have a 5.49 pack held: 402, and nothing is written
    await ctx.api
      .post("/_emulator/mystery/custodial/fund")
      .send({ key, external_user_id: "poor", usdc: "5" })
      .expect(200);
    const poor = expectError(
      await custodial({ key, packet_type_id: 2, external_user_id: "poor" }),
      402,
      "insufficient_funds",
    );
    expect(poor.details).toEqual({ available_usdc: "5.000000", price_usdc: "5.490000" });
    expect((await ctx.api.get("/_emulator/instant/purchases").expect(200)).body.data.purchases).toEqual([]);
    expectError(await custodial({ key, packet_type_id: 4, external_user_id: "u1" }), 409, "sold_out");
    expectError(await custodial({ key, packet_type_id: 999, external_user_id: "u1" }), 400, "invalid_value");
    expectError(await custodial({ key, packet_type_id: 1 }), 400, "invalid_value");
    expectError(
      await custodial({ key, packet_type_id: 1, external_user_id: "x".repeat(256) }),
      400,
      "identifier_too_long",
    );
    expectError(
      await ctx.api
        .post("/_emulator/mystery/custodial/fund")
        .send({ key, external_user_id: "x".repeat(256), usdc: "1" }),
      400,
      "identifier_too_long",
    );
    expectError(await custodial({ packet_type_id: 1, external_user_id: "u1" }), 400, "invalid_value");
    expectError(await custodial({ key: "rip_v1_nope", packet_type_id: 1, external_user_id: "u1" }), 404, "not_found");
    await ctx.api.post("/_emulator/instant/enabled").send({ enabled: false }).expect(200);
    expectError(await custodial({ key, packet_type_id: 1, external_user_id: "u1" }), 503, "instant_disabled");
    await ctx.api.post("/_emulator/instant/enabled").send({ enabled: true }).expect(200);
    const before = (await ctx.api.get("/_emulator/instant").expect(200)).body.data.packet_types.find(
      (t: { packet_type_id: number }) => t.packet_type_id === 3,
    ).available_packs;
    await ctx.api
      .post("/_emulator/mystery/custodial/fund")
      .send({ key, external_user_id: "u1", usdc: "100" })
      .expect(200);
    await custodial({ key, packet_type_id: 3, external_user_id: "u1" }).expect(201);
    await ctx.emu.clock.advance(RELAY_PICKUP_MS);
    const after = (await ctx.api.get("/_emulator/instant").expect(200)).body.data.packet_types.find(
      (t: { packet_type_id: number }) => t.packet_type_id === 3,
    ).available_packs;
    expect(after).toBe(before - 1);
    expect(ctx.events.filter((e) => e.type === "instant_purchase.reserved")).toHaveLength(1);
  });

  it("fails with its reason when the chain refuses the relayer (the pack sold out in between), and publishes instant_purchase.failed", async () => {
    const key = ctx.emu.key("demo");
    const ids: number[] = [];
    // packet type 3 has 3 bundles: four reservations, the fourth finds it sold out on chain
    for (let i = 0; i < 4; i++) {
      await ctx.api
        .post("/_emulator/mystery/custodial/fund")
        .send({ key, external_user_id: `u${i}`, usdc: "40" })
        .expect(200);
      ids.push((await custodial({ key, packet_type_id: 3, external_user_id: `u${i}` }).expect(201)).body.data.id);
    }
    await ctx.emu.clock.advance(RELAY_PICKUP_MS);
    const sdk = sdkFor(ctx.emu, key).instant;
    const last = await sdk.getPurchase(ids[3]!);
    expect(last.status).toBe("FAILED");
    expect(last.failure_reason).toMatch(/^relay_failed: /);
    expect(ctx.events.filter((e) => e.type === "instant_purchase.failed").map((e) => e.data.purchase_id)).toEqual([
      ids[3],
    ]);
    // its hold went back: u3 has its 40 USDC available again; the three relayed ones spent 29.99 each
    const wallet = async (u: string) =>
      (await ctx.api.get("/api/v1/wallet/balance").set("X-API-Key", key).query({ external_user_id: u }).expect(200))
        .body.data.wallet;
    expect(await wallet("u3")).toMatchObject({ balance_usdc: "40.000000", reserved_usdc: "0.000000" });
    expect(await wallet("u0")).toMatchObject({ balance_usdc: "10.010000", reserved_usdc: "0.000000" });
  });
});
