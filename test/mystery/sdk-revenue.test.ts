import { describe, expect, it } from "vitest";
import { buy, buyRevealed, sendCalls, user, type Ctx, useMystery } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const get = (path: string, key = ctx.revenueShare) => ctx.api.get(`/api/v1/mystery${path}`).set("X-API-Key", key);
const control = (path: string, body: Record<string, unknown> = {}) =>
  ctx.api.post(`/_emulator/mystery${path}`).send(body);

/** A revealed TIER purchase whose items are all sold back; returns the sell-back total (micros). */
async function buyAndSellBack(oracleUsdc?: string): Promise<bigint> {
  const u = user(ctx, 2);
  const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
  const tokenIds = p.items.map((i: { token_id: string }) => i.token_id);
  if (oracleUsdc) for (const token_id of tokenIds) await control("/oracle", { token_id, usdc: oracleUsdc }).expect(200);
  const prep = await ctx.api
    .post("/api/v1/mystery/sellback/prepare")
    .set("X-API-Key", ctx.revenueShare)
    .send({ wallet_address: u.address, token_ids: tokenIds })
    .expect(200);
  const receipt = await sendCalls(ctx, u, prep.body.data.calls);
  const sub = await ctx.api
    .post("/api/v1/mystery/sellback/submit")
    .set("X-API-Key", ctx.revenueShare)
    .send({ transaction_hash: receipt.transactionHash })
    .expect(200);
  return BigInt(sub.body.data.total_micros);
}

describe("revenue share (SDK cardos.revenue)", () => {
  it("terms: TIER 5% / 1% quarterly; POOL keys see billing_model POOL", async () => {
    const t = await get("/terms").expect(200);
    expect(t.body.data).toMatchObject({
      billing_model: "TIER",
      revenue_share_bps: 500,
      revenue_share_pct: "5.00",
      instant_revenue_share_bps: 100,
      instant_revenue_share_pct: "1.00",
      payout_schedule: "QUARTERLY",
      payout_currency: "USDC",
      payout_wallet: null,
    });
    expect(t.body.data.current_period).toMatchObject({ kind: "QUARTERLY" });
    expect(Date.parse(t.body.data.current_period.closes_at)).toBeGreaterThan(ctx.emu.clock.now());
    await ctx.api
      .put("/api/v1/mystery/payout-wallet")
      .set("X-API-Key", ctx.revenueShare)
      .send({ address: user(ctx, 5).address })
      .expect(200);
    expect((await get("/terms").expect(200)).body.data.payout_wallet).toEqual({
      chain: "base",
      address: user(ctx, 5).address,
    });
    expect((await get("/terms", ctx.demo).expect(200)).body.data).toMatchObject({
      billing_model: "POOL",
      revenue_share_bps: 0,
    });
  });

  it("revenue: gross from submitted/fulfilled packs, sell-backs subtracted, 5% share; to is exclusive; strings", async () => {
    const start = ctx.emu.clock.nowIso();
    await buy(ctx, ctx.revenueShare, user(ctx, 3), 2); // SUBMITTED, not revealed: counts
    const sold = await buyAndSellBack();
    const all = await get("/revenue").expect(200);
    const tiers = (await get("/catalog").expect(200)).body.data.tiers as Array<{
      tier_id: number;
      price_micros: string;
    }>;
    const g = tiers.filter((t) => t.tier_id === 1 || t.tier_id === 2).reduce((n, t) => n + BigInt(t.price_micros), 0n);
    const net = g - sold;
    const share = net > 0n ? (net * 500n) / 10_000n : 0n;
    expect(all.body.data).toMatchObject({
      billing_model: "TIER",
      qualifying_packs: 2,
      gross_micros: String(g),
      sellback_count: 1,
      sellback_micros: String(sold),
      net_micros: String(net),
      revenue_share_micros: String(share),
      payout_micros: String(share),
      fees_usdc: "0.000000",
      period: { kind: "ALL_TIME", from: null, to: null },
    });
    expect(all.body.data.gross_usdc).toMatch(/^\d+\.\d{6}$/);
    expect(all.body.data.by_product.tier).toMatchObject({ packs: 2, share_bps: 500, sellback_count: 1 });
    // to is exclusive: a window ending at the first purchase's time holds nothing
    const before = await get(`/revenue?to=${encodeURIComponent(start)}`).expect(200);
    expect(before.body.data).toMatchObject({
      qualifying_packs: 0,
      gross_micros: "0",
      period: { kind: "CUSTOM", to: start },
    });
    expect((await get(`/revenue?from=${encodeURIComponent(start)}`).expect(200)).body.data.qualifying_packs).toBe(2);
    expect((await get("/revenue?from=yesterday").expect(400)).body.error).toBe("invalid_value");
    expect(
      (await get(`/revenue?from=${encodeURIComponent(start)}&to=${encodeURIComponent(start)}`).expect(400)).body.error,
    ).toBe("invalid_value");
  });

  it("a net loss earns 0 (no clawback), refunded purchases do not count", async () => {
    // the oracle values the pack's cards far above its price: the sell-back exceeds the gross
    const sold = await buyAndSellBack("90");
    const r = await get("/revenue").expect(200);
    expect(BigInt(r.body.data.sellback_micros)).toBe(sold);
    expect(BigInt(r.body.data.net_micros)).toBeLessThan(0n);
    expect(r.body.data.net_usdc).toMatch(/^-\d+\.\d{6}$/);
    expect(r.body.data).toMatchObject({ revenue_share_micros: "0", payout_usdc: "0.000000" });
    const { purchase } = await buy(ctx, ctx.revenueShare, user(ctx, 3), 1);
    await control(`/purchases/${purchase.id}/refund`).expect(200);
    expect((await get("/revenue").expect(200)).body.data.qualifying_packs).toBe(1);
  });

  it("payouts: accruing beside payouts; close → PENDING statement (payout.statement_ready); pay → PAID (payout.paid)", async () => {
    await ctx.api
      .put("/api/v1/mystery/payout-wallet")
      .set("X-API-Key", ctx.revenueShare)
      .send({ address: user(ctx, 5).address })
      .expect(200);
    await buy(ctx, ctx.revenueShare, user(ctx, 3), 2);
    const open = await get("/payouts?limit=1").expect(200);
    expect(open.body.data).toMatchObject({ payouts: [], outstanding_usdc: "0.000000" });
    const accruing = open.body.data.accruing;
    expect(accruing).toMatchObject({ qualifying_packs: 1, instant_packs: 0, sellback_count: 0 });
    expect(Object.keys(accruing)).toEqual(
      expect.arrayContaining([
        "since",
        "as_of",
        "gross_usdc",
        "sellback_usdc",
        "net_usdc",
        "payout_usdc",
        "period_closes_at",
      ]),
    );
    expect(open.body.data.total_owed_usdc).toBe(accruing.payout_usdc);

    await ctx.emu.clock.advance(60_000);
    const closed = await control("/payouts/close", { account_id: "nova" }).expect(200);
    const st = closed.body.data.payouts[0];
    expect(st).toMatchObject({
      status: "PENDING",
      qualifying_packs: 1,
      revenue_share_bps: 500,
      revenue_share_pct: "5.00",
      payout_usdc: accruing.payout_usdc,
      payout_address: user(ctx, 5).address,
      chain: "base",
      tx_hash: null,
      paid_at: null,
    });
    expect(ctx.events.filter((e) => e.type === "payout.statement_ready")).toEqual([
      expect.objectContaining({ account_id: "nova", key: String(st.payout_id) }),
    ]);
    const after = await get("/payouts").expect(200);
    expect(after.body.data.payouts).toEqual([st]);
    expect(after.body.data.outstanding_usdc).toBe(st.payout_usdc);
    expect(after.body.data.accruing).toMatchObject({
      qualifying_packs: 0,
      payout_usdc: "0.000000",
      since: st.period.to,
    });
    expect(after.body.data.total_owed_usdc).toBe(st.payout_usdc);
    // the period is frozen: a later purchase accrues in the next one
    await buy(ctx, ctx.revenueShare, user(ctx, 3), 1);
    expect((await get("/payouts").expect(200)).body.data.payouts[0].qualifying_packs).toBe(1);
    expectError(await control("/payouts/close", { account_id: "nova" }), 409, "period_empty"); // nothing elapsed

    const paid = await control(`/payouts/${st.payout_id}/pay`).expect(200);
    expect(paid.body.data).toMatchObject({ status: "PAID", payout_address: user(ctx, 5).address });
    expect(paid.body.data.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await ctx.emu.chain!.publicClient.getTransactionReceipt({ hash: paid.body.data.tx_hash });
    expect(receipt.status).toBe("success");
    expect(ctx.events.some((e) => e.type === "payout.paid" && e.data.status === "PAID")).toBe(true);
    expect((await get("/payouts").expect(200)).body.data.outstanding_usdc).toBe("0.000000");
    expect((await control(`/payouts/${st.payout_id}/pay`)).body.error).toBe("invalid_status");
    expectError(await control("/payouts/999/pay"), 404, "not_found");
  });

  it("close: POOL account 409 not_tier_partner, unknown 404; pay without a payout wallet 409", async () => {
    expect((await control("/payouts/close", { account_id: "acme" }).expect(409)).body.error).toBe("not_tier_partner");
    expectError(await control("/payouts/close", { account_id: "nobody" }), 404, "not_found");
    await ctx.emu.clock.advance(1000);
    const st = (await control("/payouts/close", { account_id: "nova" }).expect(200)).body.data.payouts[0];
    expect(st.payout_address).toBeNull();
    expect((await control(`/payouts/${st.payout_id}/pay`).expect(409)).body.error).toBe("payout_wallet_not_set");
    // omitted account_id closes every TIER account with an open period
    await ctx.emu.clock.advance(1000);
    const all = await control("/payouts/close").expect(200);
    expect(all.body.data.payouts.length).toBeGreaterThan(0);
  });

  it("POOL keys: no statements, accruing null; tenant 403; packs:read required", async () => {
    const pool = await get("/payouts", ctx.demo).expect(200);
    expect(pool.body.data).toEqual({
      payouts: [],
      outstanding_usdc: "0.000000",
      accruing: null,
      total_owed_usdc: "0.000000",
    });
    expect((await get("/revenue", ctx.demo).expect(200)).body.data).toMatchObject({
      billing_model: "POOL",
      revenue_share_micros: "0",
    });
    for (const p of ["/terms", "/revenue", "/payouts"])
      expectError(await get(p, ctx.tenant), 403, "Insufficient permissions", p);
    const k = await ctx.api
      .post("/_emulator/keys")
      .send({ kind: "partner", scopes: ["read:catalog"] })
      .expect(201);
    expectError(await get("/payouts", k.body.data.key), 403, "Insufficient permissions");
  });
});
