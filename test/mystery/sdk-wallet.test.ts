import { describe, expect, it } from "vitest";
import { type Ctx, useMystery, relay } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const W = "/api/v1/wallet";
const ledger = (q: string, key = ctx.demo) => ctx.api.get(`${W}/ledger?${q}`).set("X-API-Key", key);
const buy = (idem: string, body: Record<string, unknown>) =>
  ctx.api.post("/api/v1/mystery/purchase").set("X-API-Key", ctx.demo).set("Idempotency-Key", idem).send(body);
const fund = (body: Record<string, unknown>) =>
  ctx.api
    .post("/_emulator/mystery/custodial/fund")
    .send({ account_id: "acme", ...body })
    .expect(200);

describe("custodial wallet ledger, deposits and deposit address (SDK cardos.wallet)", () => {
  it("fund → DEPOSIT_CREDIT + CONFIRMED deposit + deposit.credited; purchase → HOLD, HOLD_SETTLE; newest first", async () => {
    await fund({ external_user_id: "w-user", usdc: "40" });
    const dep = ctx.events.find((e) => e.type === "deposit.credited")!;
    expect(dep).toMatchObject({
      account_id: "acme",
      data: { amount: "40000000", amount_usdc: "40.000000", chain_in: "base", token_in: "USDC" },
    });
    expect(dep.data.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const r = await buy("w-1", { tier_id: 1, external_user_id: "w-user" }).expect(202);
    await relay(ctx); // RESERVED (HOLD) → SUBMITTED (HOLD_SETTLE) on the virtual clock
    const res = await ledger("external_user_id=w-user").expect(200);
    const entries = res.body.data.entries as Array<Record<string, unknown>>;
    expect(entries.map((e) => e.entry_type)).toEqual(["HOLD_SETTLE", "HOLD", "DEPOSIT_CREDIT"]);
    expect(entries[2]).toMatchObject({
      amount: "40000000",
      amount_usdc: "40.000000",
      balance_after: "40000000",
      reserved_after: "0",
      source: "deposit",
      source_id: String(dep.data.deposit_id),
    });
    expect(entries[1]).toMatchObject({
      amount: "-25000000",
      amount_usdc: "-25.000000",
      balance_after: "40000000",
      reserved_after: "25000000",
      source: "purchase",
      source_id: String(r.body.data.id),
    });
    expect(entries[0]).toMatchObject({ amount: "-25000000", balance_after: "15000000", reserved_after: "0" });
    expect(Object.keys(entries[0]!).sort()).toEqual([
      "amount",
      "amount_usdc",
      "balance_after",
      "created_at",
      "description",
      "entry_type",
      "id",
      "reserved_after",
      "source",
      "source_id",
    ]);
    const page = await ledger("external_user_id=w-user&limit=1&offset=1").expect(200);
    expect(page.body.data.entries).toEqual([entries[1]]);
    expect(page.body.pagination).toMatchObject({ limit: 1, offset: 1, has_more: true });

    const deps = await ctx.api.get(`${W}/deposits?external_user_id=w-user`).set("X-API-Key", ctx.demo).expect(200);
    expect(deps.body.data).toMatchObject({
      linked_internal_user: true,
      deposits: [
        {
          id: dep.data.deposit_id,
          chain_in: "base",
          token_in: "USDC",
          amount: "40.000000",
          status: "CONFIRMED",
          tx_hash: dep.data.tx_hash,
        },
      ],
    });
    expect(typeof deps.body.data.wallet_id).toBe("number");
    expect(deps.body.data.deposits[0].confirmed_at).toBe(deps.body.data.deposits[0].created_at);
    expect(deps.body.pagination).toMatchObject({ offset: 0, has_more: false });
  });

  it("seeded balances open with an ADJUSTMENT; a failed relay is HOLD_RELEASE; a refund is REFUND_CREDIT", async () => {
    const failed = await buy("w-2", { tier_id: 1, external_user_id: "acme-user-1" }).expect(202);
    expect(failed.body.data.status).toBe("RESERVED");
    // the relayer goes off before it picks the purchase up: PENDING, then FAILED after an hour
    await ctx.api.post("/_emulator/mystery/relayer").send({ enabled: false }).expect(200);
    await ctx.emu.clock.advance(60 * 60 * 1000 + 1000);
    expect(
      (await ctx.api.get(`/api/v1/mystery/purchase/${failed.body.data.id}`).set("X-API-Key", ctx.demo).expect(200)).body
        .data.status,
    ).toBe("FAILED");
    await ctx.api.post("/_emulator/mystery/relayer").send({ enabled: true }).expect(200);
    const okBuy = await buy("w-3", { tier_id: 1, external_user_id: "acme-user-1" }).expect(202);
    await relay(ctx);
    await ctx.api.post(`/_emulator/mystery/purchases/${okBuy.body.data.id}/refund`).expect(200);
    const entries = (await ledger("external_user_id=acme-user-1").expect(200)).body.data.entries as Array<
      Record<string, string>
    >;
    expect(entries.map((e) => e.entry_type)).toEqual([
      "REFUND_CREDIT",
      "HOLD_SETTLE",
      "HOLD",
      "HOLD_RELEASE",
      "HOLD",
      "ADJUSTMENT",
    ]);
    expect(entries.at(-1)).toMatchObject({
      amount: "500000000",
      balance_after: "500000000",
      reserved_after: "0",
      source: "opening_balance",
    });
    expect(entries[0]).toMatchObject({
      amount: "25000000",
      balance_after: "500000000",
      source_id: String(okBuy.body.data.id),
    });
    // the entries add up to the balance
    const bal = (await ctx.api.get(`${W}/balance?external_user_id=acme-user-1`).set("X-API-Key", ctx.demo).expect(200))
      .body.data.wallet;
    expect(entries[0]!.balance_after).toBe(bal.balance);
  });

  it("deposit-address needs wallet:deposit; dedicated and stable per user; deposits empty until linked", async () => {
    const before = await ctx.api.get(`${W}/deposits?external_user_id=fresh`).set("X-API-Key", ctx.demo).expect(200);
    expect(before.body.data).toMatchObject({ linked_internal_user: false, deposits: [] });
    const a = await ctx.api
      .post(`${W}/deposit-address`)
      .set("X-API-Key", ctx.demo)
      .send({ external_user_id: "fresh" })
      .expect(200);
    expect(a.body.data).toMatchObject({ chain: "base", currency: "USDC", dedicated: true });
    expect(a.body.data.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const again = await ctx.api
      .post(`${W}/deposit-address`)
      .set("X-API-Key", ctx.demo)
      .send({ external_user_id: "fresh" })
      .expect(200);
    expect(again.body.data.address).toBe(a.body.data.address);
    const other = await ctx.api
      .post(`${W}/deposit-address`)
      .set("X-API-Key", ctx.demo)
      .send({ external_user_id: "other" })
      .expect(200);
    expect(other.body.data.address).not.toBe(a.body.data.address);
    expect(
      (await ctx.api.get(`${W}/deposits?external_user_id=fresh`).set("X-API-Key", ctx.demo).expect(200)).body.data
        .linked_internal_user,
    ).toBe(true);

    const readOnly = await ctx.api
      .post("/_emulator/keys")
      .send({ kind: "partner", scopes: ["wallet:read"] })
      .expect(201);
    const denied = await ctx.api
      .post(`${W}/deposit-address`)
      .set("X-API-Key", readOnly.body.data.key)
      .send({ external_user_id: "fresh" })
      .expect(403);
    expect(denied.body).toMatchObject({ success: false, error: "Insufficient permissions" });
    await ctx.api.get(`${W}/ledger?external_user_id=fresh`).set("X-API-Key", readOnly.body.data.key).expect(200);
  });

  it("identity errors and access", async () => {
    expect((await ledger("").expect(400)).body.error).toBe("missing_user_identifier");
    expect((await ledger("wallet_address=nope").expect(400)).body.error).toBe("invalid_wallet_address");
    expect((await ctx.api.get(`${W}/deposits`).set("X-API-Key", ctx.demo).expect(400)).body.error).toBe(
      "missing_user_identifier",
    );
    expect(
      (await ctx.api.post(`${W}/deposit-address`).set("X-API-Key", ctx.demo).send({}).expect(400)).body.error,
    ).toBe("missing_user_identifier");
    expectError(await ledger("external_user_id=a", ctx.tenant), 403, "Insufficient permissions");
    expectError(
      await ctx.api.post(`${W}/deposit-address`).set("X-API-Key", ctx.tenant).send({ external_user_id: "a" }),
      403,
      "Insufficient permissions",
    );
  });
});
