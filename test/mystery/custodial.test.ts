import { describe, expect, it } from "vitest";
import { relay, types, type Ctx, useMystery } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const buy = (key: string, idem: string | null, body: Record<string, unknown>) => {
  const r = ctx.api.post("/api/v1/mystery/purchase").set("X-API-Key", key);
  if (idem !== null) r.set("Idempotency-Key", idem);
  return r.send(body);
};
const balance = (user: string) =>
  ctx.api.get(`/api/v1/wallet/balance?external_user_id=${user}`).set("X-API-Key", ctx.demo).expect(200);

describe("custodial purchase", () => {
  it("holds the price (202 RESERVED), the relayer buys on chain for the user's wallet on the clock, VRF reveals", async () => {
    const before = await balance("acme-user-1");
    expect(before.body.data.wallet).toMatchObject({ balance: "500000000", available_usdc: "500.000000" });
    const res = await buy(ctx.demo, "k-1", { tier_id: 1, external_user_id: "acme-user-1" }).expect(202);
    expect(res.body.data).toMatchObject({
      custody: "CUSTODIAL",
      status: "RESERVED",
      price: "25000000",
      price_usdc: "25.000000",
      external_user_id: "acme-user-1",
      onchain_request_id: null,
      transaction_hash: null,
    });
    expect((await balance("acme-user-1")).body.data.wallet).toMatchObject({
      balance: "500000000",
      reserved: "25000000",
    });
    await relay(ctx);
    const after = await balance("acme-user-1");
    expect(after.body.data.wallet).toMatchObject({ balance: "475000000", reserved: "0" });
    expect(types(ctx)).toEqual(["purchase.reserved", "purchase.submitted"]);
    expect(ctx.events[1]!.data.onchain_request_id).toMatch(/^\d+$/);
    await ctx.api.post("/_emulator/vrf/fulfill").send({}).expect(200);
    const got = await ctx.api
      .get(`/api/v1/mystery/purchase/${res.body.data.id}`)
      .set("X-API-Key", ctx.demo)
      .expect(200);
    expect(got.body.data.status).toBe("FULFILLED");
    const owner = await ctx.emu.chain!.publicClient.readContract({
      address: ctx.emu.chain!.addresses.cardNft,
      abi: (await import("../../chain/index.ts")).cardNftAbi,
      functionName: "ownerOf",
      args: [BigInt(got.body.data.items[0].token_id)],
    });
    expect(owner).toBe(ctx.emu.chain!.endUsers[0]!.address);
  });

  it("Idempotency-Key: missing → 400, replay → the original 202 (no double charge), other tier → 409", async () => {
    const missing = await buy(ctx.demo, null, { tier_id: 1, external_user_id: "acme-user-1" }).expect(400);
    expect(missing.body.error).toBe("missing_idempotency_key");
    const first = await buy(ctx.demo, "k-2", { tier_id: 1, external_user_id: "acme-user-1" }).expect(202);
    const replay = await buy(ctx.demo, "k-2", { tier_id: 1, external_user_id: "acme-user-1" }).expect(202);
    expect(replay.body.data.id).toBe(first.body.data.id);
    await relay(ctx);
    expect((await balance("acme-user-1")).body.data.wallet.balance).toBe("475000000");
    const mismatch = await buy(ctx.demo, "k-2", { tier_id: 2, external_user_id: "acme-user-1" }).expect(409);
    expect(mismatch.body.error).toBe("idempotency_mismatch");
    // keys are per partner
    await buy(ctx.revenueShare, "k-2", { tier_id: 1, external_user_id: "nova-user-1" }).expect(202);
  });

  it("insufficient funds → 402 and nothing is held; funding through the control plane unblocks it", async () => {
    const poor = await buy(ctx.demo, "k-3", { tier_id: 2, external_user_id: "acme-user-2" }).expect(402);
    expect(poor.body.error).toBe("insufficient_funds");
    expect((await balance("acme-user-2")).body.data.wallet).toMatchObject({ balance: "30000000", reserved: "0" });
    await ctx.api
      .post("/_emulator/mystery/custodial/fund")
      .send({ account_id: "acme", external_user_id: "acme-user-2", usdc: "100" })
      .expect(200);
    await ctx.api
      .post("/_emulator/mystery/custodial/fund")
      .send({ key: ctx.demo, external_user_id: "new-user", usdc: "25" })
      .expect(200);
    // the failed key can be retried
    await buy(ctx.demo, "k-3", { tier_id: 2, external_user_id: "acme-user-2" }).expect(202);
    await buy(ctx.demo, "k-4", { tier_id: 1, external_user_id: "new-user" }).expect(202);
    expect((await balance("new-user")).body.data.wallet).toMatchObject({
      balance: "25000000",
      reserved: "25000000",
      available: "0",
    });
    await relay(ctx);
    expect((await balance("new-user")).body.data.wallet.balance).toBe("0");
  });

  it("validates tier, identity and quantity", async () => {
    expect((await buy(ctx.demo, "k-5", { tier_id: 42, external_user_id: "acme-user-1" })).body.error).toBe(
      "invalid_tier",
    );
    expect((await buy(ctx.demo, "k-5", { tier_id: 1 })).body.error).toBe("missing_user_identifier");
    expect((await buy(ctx.demo, "k-5", { tier_id: 1, external_user_id: "acme-user-1", quantity: 2 })).body.error).toBe(
      "unsupported_quantity",
    );
    expect((await buy(ctx.demo, "k-5", { tier_id: 1, external_user_id: "x".repeat(256) })).body.error).toBe(
      "identifier_too_long",
    );
    expectError(
      await buy(ctx.tenant, "k-5", { tier_id: 1, external_user_id: "acme-user-1" }),
      403,
      "Insufficient permissions",
    );
    expectError(await ctx.api.get("/api/v1/wallet/balance").set("X-API-Key", ctx.demo), 400, "missing_user_identifier");
  });
});
