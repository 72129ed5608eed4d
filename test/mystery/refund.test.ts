import { describe, expect, it } from "vitest";
import { buy, buyRevealed, types, user, type Ctx, useMystery, relay } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";
import { usdcOf } from "../chain-reads.ts";

// Purchases that go wrong: a reveal whose VRF callback reverts (refunded by the
// worker), an operator refund before the reveal, and a relayer that is off
// (503 relayer_disabled; held purchases PENDING). Statuses per docs/reference/live-service.md “Purchases”.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const P = "/api/v1/mystery/purchase";
const C = "/_emulator/mystery/purchases";
const custodial = (idem: string, body: Record<string, unknown>) =>
  ctx.api.post(P).set("X-API-Key", ctx.demo).set("Idempotency-Key", idem).send(body);
const wallet = async (u: string) =>
  (await ctx.api.get(`/api/v1/wallet/balance?external_user_id=${u}`).set("X-API-Key", ctx.demo).expect(200)).body.data
    .wallet;

describe("reveal failure", () => {
  it("the VRF callback reverts (success=false) → the worker refunds on chain → REFUNDED, purchase.refunded, USDC back", async () => {
    const u = user(ctx, 0);
    const before = await usdcOf(ctx.emu, u.address);
    const { purchase } = await buy(ctx, ctx.demo, u, 1);
    expect(await usdcOf(ctx.emu, u.address)).toBe(before - 25_000_000n);
    const res = await ctx.api.post(`${C}/${purchase.id}/fail-reveal`).expect(200);
    expect(res.body.data.vrf).toMatchObject({ request_id: purchase.onchain_request_id, success: false });
    expect(res.body.data.purchase.status).toBe("REFUNDED");

    const got = await ctx.api.get(`${P}/${purchase.id}`).set("X-API-Key", ctx.demo).expect(200);
    expect(got.body.data).toMatchObject({ status: "REFUNDED", volume_usdc: "0.000000" });
    expect(got.body.data.failure_reason).toMatch(/^reveal_failed/);
    expect(got.body.data.items).toBeUndefined();
    expect(await usdcOf(ctx.emu, u.address)).toBe(before);
    expect(types(ctx)).toEqual(["purchase.submitted", "purchase.refunded"]);
    expect(ctx.events[1]!.data).toEqual({
      purchase_id: purchase.id,
      status: "REFUNDED",
      onchain_request_id: purchase.onchain_request_id,
    });

    const list = await ctx.api.get("/api/v1/mystery/purchases?status=REFUNDED").set("X-API-Key", ctx.demo).expect(200);
    expect(list.body.data.purchases.map((p: { id: number }) => p.id)).toEqual([purchase.id]);
    // nothing to redeem, nothing to fail again
    const redeem = await ctx.api
      .post("/api/v1/mystery/redemption/quote")
      .set("X-API-Key", ctx.demo)
      .send({
        purchase_id: purchase.id,
        shipping_address: { name: "A", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" },
      });
    expect(redeem.body.error).toBe("not_fulfilled");
    expect((await ctx.api.post(`${C}/${purchase.id}/fail-reveal`).expect(409)).body.error).toBe("invalid_status");
    await ctx.emu.clock.advance(60_000);
    expect(types(ctx).filter((t) => t === "purchase.refunded")).toHaveLength(1);
  });
});

describe("operator refund", () => {
  it("custodial: refunded before the reveal → REFUNDED and the end user's balance comes back; a late VRF answer changes nothing", async () => {
    expect(await wallet("acme-user-1")).toMatchObject({ balance: "500000000" });
    const res = await custodial("r-1", { tier_id: 1, external_user_id: "acme-user-1" }).expect(202);
    expect(await wallet("acme-user-1")).toMatchObject({ balance: "500000000", reserved: "25000000" });
    await relay(ctx);
    expect(await wallet("acme-user-1")).toMatchObject({ balance: "475000000", reserved: "0" });
    const submitted = (await ctx.api.get(`${P}/${res.body.data.id}`).set("X-API-Key", ctx.demo).expect(200)).body.data;
    const refunded = await ctx.api.post(`${C}/${res.body.data.id}/refund`).expect(200);
    expect(refunded.body.data).toMatchObject({ status: "REFUNDED", custody: "CUSTODIAL" });
    expect(refunded.body.data.failure_reason).toMatch(/operator/);
    expect(await wallet("acme-user-1")).toMatchObject({ balance: "500000000", available: "500000000", reserved: "0" });
    expect(types(ctx)).toEqual(["purchase.reserved", "purchase.submitted", "purchase.refunded"]);

    const late = await ctx.api
      .post("/_emulator/vrf/fulfill")
      .send({ request_id: submitted.onchain_request_id })
      .expect(200);
    expect(late.body.data.success).toBe(false); // the pool's callback: RequestNotPending
    expect(
      (await ctx.api.get(`${P}/${res.body.data.id}`).set("X-API-Key", ctx.demo).expect(200)).body.data.status,
    ).toBe("REFUNDED");
    // the replay of the key answers the purchase as it is now
    expect((await custodial("r-1", { tier_id: 1, external_user_id: "acme-user-1" }).expect(202)).body.data.status).toBe(
      "REFUNDED",
    );
  });

  it("only a purchase still waiting for its reveal: 409 invalid_status once revealed, 404 unknown", async () => {
    const p = await buyRevealed(ctx, ctx.demo, user(ctx, 1), 1);
    expect((await ctx.api.post(`${C}/${p.id}/refund`).expect(409)).body.error).toBe("invalid_status");
    expect((await ctx.api.post(`${C}/${p.id}/fail-reveal`).expect(409)).body.error).toBe("invalid_status");
    expectError(await ctx.api.post(`${C}/999999/refund`), 404, "not_found");
    expectError(await ctx.api.post(`${C}/abc/fail-reveal`), 404, "not_found");
  });
});

describe("relayer switch", () => {
  it("off: a custodial purchase is 503 relayer_disabled (retryable, Retry-After) and holds nothing; on again: the same key buys", async () => {
    expectError(await ctx.api.post("/_emulator/mystery/relayer").send({ enabled: "no" }), 400, "invalid_value");
    await ctx.api.post("/_emulator/mystery/relayer").send({ enabled: false }).expect(200);
    const res = await custodial("f-1", { tier_id: 1, external_user_id: "acme-user-1" }).expect(503);
    expect(res.body).toMatchObject({ success: false, error: "relayer_disabled", retryable: true });
    expect(res.headers["retry-after"]).toBe("1");
    expect(await wallet("acme-user-1")).toMatchObject({ balance: "500000000", reserved: "0" });
    expect(types(ctx)).toEqual([]);

    await ctx.api.post("/_emulator/mystery/relayer").send({ enabled: true }).expect(200);
    // the SDK retries with the same Idempotency-Key: the 503 did not use the key up
    expect((await custodial("f-1", { tier_id: 1, external_user_id: "acme-user-1" }).expect(202)).body.data.status).toBe(
      "RESERVED",
    );
    await relay(ctx);
    expect(types(ctx)).toEqual(["purchase.reserved", "purchase.submitted"]);
  });
});
