import { describe, expect, it } from "vitest";
import { buyRevealed, user, type Ctx, useMystery } from "./helpers.ts";

// Bad numbers and ids on the commerce routes: every one a 400/404/409 with the
// route's code, never a 500 from viem (values past uint256) and never a record
// found on Object.prototype.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const M = "/api/v1/mystery";
const NINES = "9".repeat(78); // > 2^256 − 1
const LONG = "1".repeat(256);
const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };
const PROTO = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];
const get = (path: string, key = ctx.demo) => ctx.api.get(path).set("X-API-Key", key);
const post = (path: string, body: unknown, key = ctx.demo) =>
  ctx.api
    .post(path)
    .set("X-API-Key", key)
    .send(body as object);
const code = (r: { status: number; body: { error?: string } }) => [r.status, r.body.error];

const BAD_TOKENS: unknown[] = [NINES, "-1", "1.5", "1e3", "0x10", "007", " 7", "", 1e30, -1, 1.5, true, {}];
const BAD_AMOUNTS: unknown[] = [
  NINES,
  "-1",
  "1e3",
  "0x10",
  "007",
  "",
  ".5",
  "5.",
  "25.0000001",
  "1000000000001",
  1e21,
  -5,
  "NaN",
  null,
];

describe("numbers are range-checked before the chain (400 with the route's code)", () => {
  it("GET /mystery/price?token_id= past uint256 or not plain decimal → 400 invalid_price_query", async () => {
    for (const t of [NINES, "-1", "1.5", "1e3", "0x10", "007"])
      expect(code(await get(`${M}/price?token_id=${encodeURIComponent(t)}`)), t).toEqual([400, "invalid_price_query"]);
    expect(code(await get(`${M}/price?token_id=${"9".repeat(77)}`))).toEqual([404, "not_found"]); // in range, not minted
  });

  it("sell-back quote/prepare token_ids → 400 invalid_token_ids", async () => {
    const wallet_address = user(ctx, 2).address;
    for (const t of BAD_TOKENS.filter((x) => x !== ""))
      for (const path of ["quote", "prepare"])
        expect(
          code(await post(`${M}/sellback/${path}`, { wallet_address, token_ids: [t] }, ctx.revenueShare)),
          `${path} ${String(t)}`,
        ).toEqual([400, "invalid_token_ids"]);
  });

  it("USDC amounts: purchase max_price_usdc, sell-back min_total_usdc, slippage_bps, offer_price_usdc → 400 invalid_amount", async () => {
    const wallet_address = user(ctx, 0).address;
    for (const a of BAD_AMOUNTS.filter((x) => x !== null))
      expect(
        code(await post(`${M}/purchase/prepare`, { wallet_address, tier_id: 1, max_price_usdc: a })),
        String(a),
      ).toEqual([400, "invalid_amount"]);
    const ok = await post(`${M}/purchase/prepare`, { wallet_address, tier_id: 1, max_price_usdc: "30.5" }).expect(200);
    expect(ok.body.data).toMatchObject({ max_price: "30500000", max_price_usdc: "30.500000" });
    expect(
      (await post(`${M}/purchase/prepare`, { wallet_address, tier_id: 1, max_price_usdc: 25 }).expect(200)).body.data
        .max_price,
    ).toBe("25000000");

    const u = user(ctx, 2);
    const p = await buyRevealed(ctx, ctx.revenueShare, u, 1);
    const token_ids = p.items.map((i: { token_id: string }) => i.token_id);
    for (const a of BAD_AMOUNTS.filter((x) => x !== null))
      expect(
        code(
          await post(
            `${M}/sellback/prepare`,
            { wallet_address: u.address, token_ids, min_total_usdc: a },
            ctx.revenueShare,
          ),
        ),
        String(a),
      ).toEqual([400, "invalid_amount"]);
    for (const bps of ["1e2", "0x10", "", 1.5, -1, 10_001, "100 ", true])
      expect(
        code(
          await post(
            `${M}/sellback/prepare`,
            { wallet_address: u.address, token_ids, slippage_bps: bps },
            ctx.revenueShare,
          ),
        ),
        String(bps),
      ).toEqual([400, "invalid_amount"]);
    await post(
      `${M}/sellback/prepare`,
      { wallet_address: u.address, token_ids, slippage_bps: "250" },
      ctx.revenueShare,
    ).expect(200);

    const q = await buyRevealed(ctx, ctx.demo, user(ctx, 0), 1);
    const card = q.items.find((i: { item_type: string }) => i.item_type === "CARD");
    await ctx.api.post("/_emulator/mystery/oracle").send({ token_id: card.token_id, usdc: "40" }).expect(200);
    for (const a of [NINES, "-1", "1e3", "0"])
      expect(code(await post(`${M}/buyback`, { token_id: card.token_id, offer_price_usdc: a })), a).toEqual([
        400,
        "invalid_amount",
      ]);
  });

  it("tier ids, token ids of offers and redemptions, control amounts: their own codes, never 500", async () => {
    for (const t of ["1e0", "0x1", "01", 1.5, -1, NINES])
      expect(
        code(await post(`${M}/purchase/prepare`, { wallet_address: user(ctx, 0).address, tier_id: t })),
        String(t),
      ).toEqual([400, "invalid_tier"]);
    for (const t of [NINES, "-1", "0x10", "007"]) {
      expect(code(await post(`${M}/buyback`, { token_id: t })), t).toEqual([404, "token_not_found"]);
      expect(code(await post(`${M}/redemption/quote`, { token_id: t, shipping_address: US })), t).toEqual([
        409,
        "invalid_token_id",
      ]);
    }
    expect(code(await post(`${M}/buyback/${NINES}`, {}))).toEqual([404, "not_found"]); // neither a purchase nor a token id
    expect((await get(`${M}/buyback?token_id=${NINES}`).expect(200)).body.data.offers).toEqual([]);
    expect(code(await ctx.api.post("/_emulator/mystery/oracle").send({ token_id: NINES, usdc: "1" }))).toEqual([
      400,
      "invalid_value",
    ]);
    expect(code(await ctx.api.post("/_emulator/mystery/oracle").send({ token_id: "1", usdc: NINES }))).toEqual([
      400,
      "invalid_value",
    ]);
    expect(code(await ctx.api.post("/_emulator/mystery/liquidity").send({ buyback_usdc: NINES }))).toEqual([
      400,
      "invalid_value",
    ]);
  });
});

describe("ids over 255 characters in bodies and queries → 400 identifier_too_long", () => {
  it("every id field of the commerce routes", async () => {
    const cases: Array<[string, () => PromiseLike<{ status: number; body: { error?: string } }>]> = [
      [
        "redemption quote purchase_id",
        () => post(`${M}/redemption/quote`, { purchase_id: LONG, shipping_address: US }),
      ],
      [
        "redemption prepare purchase_id",
        () => post(`${M}/redemption/prepare`, { purchase_id: LONG, shipping_address: US, idempotency_key: "k" }),
      ],
      [
        "redemption prepare token_id",
        () => post(`${M}/redemption/prepare`, { token_id: LONG, shipping_address: US, idempotency_key: "k" }),
      ],
      [
        "redemption submit redemption_id",
        () => post(`${M}/redemption/submit`, { redemption_id: LONG, tx_hash: `0x${"11".repeat(32)}` }),
      ],
      ["buyback token_id", () => post(`${M}/buyback`, { token_id: LONG })],
      [
        "sell-back token_ids",
        () =>
          post(`${M}/sellback/quote`, { wallet_address: user(ctx, 2).address, token_ids: [LONG] }, ctx.revenueShare),
      ],
      [
        "purchase prepare tier_id",
        () => post(`${M}/purchase/prepare`, { wallet_address: user(ctx, 0).address, tier_id: LONG }),
      ],
      [
        "purchase submit request_id",
        () =>
          post(`${M}/purchase/submit`, {
            wallet_address: user(ctx, 0).address,
            tier_id: 1,
            transaction_hash: `0x${"11".repeat(32)}`,
            request_id: LONG,
          }),
      ],
      ["price token_id", () => get(`${M}/price?token_id=${LONG}`)],
      ["price card_id", () => get(`${M}/price?card_id=${"x".repeat(256)}`)],
      ["buyback list token_id", () => get(`${M}/buyback?token_id=${LONG}`)],
      ["purchases external_user_id", () => get(`${M}/purchases?external_user_id=${"x".repeat(256)}`)],
    ];
    for (const [name, call] of cases) expect(code(await call()), name).toEqual([400, "identifier_too_long"]);
    const p = await buyRevealed(ctx, ctx.demo, user(ctx, 0), 2);
    expect(code(await post(`${M}/buyback/${p.id}`, { token_id: LONG }))).toEqual([400, "identifier_too_long"]);
  });
});

describe("ids named like Object.prototype members", () => {
  it("answer 404/400 (or a real, fresh end user), never 500 or a record found on the prototype; nothing is written onto Object.prototype", async () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    for (const id of PROTO) {
      const e = encodeURIComponent(id);
      // A partner's end user may be called anything: a fresh, empty wallet of its own.
      const bal = await get(`/api/v1/wallet/balance?external_user_id=${e}`).expect(200);
      expect(bal.body.data).toMatchObject({
        end_user: { external_user_id: id },
        wallet: { balance: "0", reserved: "0", available: "0" },
      });
      expect(
        code(
          await ctx.api
            .post("/api/v1/mystery/purchase")
            .set("X-API-Key", ctx.demo)
            .set("Idempotency-Key", `p-${id}`)
            .send({ tier_id: 1, external_user_id: id }),
        ),
      ).toEqual([402, "insufficient_funds"]);
      await ctx.api
        .post("/_emulator/mystery/custodial/fund")
        .send({ account_id: "acme", external_user_id: id, usdc: "30" })
        .expect(200);
      const funded = await get(`/api/v1/wallet/balance?external_user_id=${e}`).expect(200);
      expect(funded.body.data.wallet.balance).toBe("30000000");
      expect(
        (await get(`/api/v1/wallet/ledger?external_user_id=${e}`).expect(200)).body.data.entries.map(
          (x: { entry_type: string }) => x.entry_type,
        ),
      ).toEqual(["DEPOSIT_CREDIT"]);
      await post("/api/v1/wallet/deposit-address", { external_user_id: id }).expect(200);
      expect((await get(`${M}/collection?external_user_id=${e}`).expect(200)).body.data.items).toEqual([]);
      expect(code(await get(`${M}/purchase/${e}`)), id).toEqual([404, "not_found"]);
      expect(code(await get(`${M}/redemption/${e}`)), id).toEqual([404, "not_found"]);
      expect(code(await get(`${M}/buyback/${e}`)), id).toEqual([404, "not_found"]);
      expect(code(await post(`${M}/buyback/${e}`, {})), id).toEqual([404, "not_found"]);
      expect(code(await post(`${M}/buyback/${e}/accept/prepare`, {})), id).toEqual([404, "no_active_offer"]);
      expect(code(await post(`${M}/buyback`, { token_id: id })), id).toEqual([404, "token_not_found"]);
      expect(code(await get(`${M}/price?token_id=${e}`)), id).toEqual([400, "invalid_price_query"]);
      expect(code(await get(`${M}/price?card_id=${e}`)), id).toEqual([404, "not_found"]);
      expect(code(await get(`${M}/catalog/${e}/odds`)), id).toEqual([400, "invalid_tier"]);
      expect(code(await post(`${M}/redemption/quote`, { purchase_id: id, shipping_address: US })), id).toEqual([
        404,
        "not_found",
      ]);
      expect(code(await post(`${M}/redemption/quote`, { token_id: id, shipping_address: US })), id).toEqual([
        409,
        "invalid_token_id",
      ]);
      expect(
        code(await post(`${M}/redemption/submit`, { redemption_id: id, tx_hash: `0x${"11".repeat(32)}` })),
        id,
      ).toEqual([404, "not_found"]);
      expect(
        code(
          await post(
            `${M}/sellback/quote`,
            { wallet_address: user(ctx, 2).address, token_ids: [id] },
            ctx.revenueShare,
          ),
        ),
        id,
      ).toEqual([400, "invalid_token_ids"]);
      expect(
        code(
          await ctx.api.post("/_emulator/mystery/custodial/fund").send({ key: id, external_user_id: "u", usdc: "1" }),
        ),
        id,
      ).toEqual([404, "not_found"]);
      expect(code(await ctx.api.post(`/_emulator/mystery/redemptions/${e}/kyc`).send({})), id).toEqual([
        404,
        "not_found",
      ]);
      expect(code(await ctx.api.post("/_emulator/mystery/payouts/close").send({ account_id: id })), id).toEqual([
        404,
        "not_found",
      ]);
    }
    // One user per id, none of them on the prototype.
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).balance_micros).toBeUndefined();
    const other = await get(`/api/v1/wallet/balance?external_user_id=someone-else`).expect(200);
    expect(other.body.data.wallet.balance).toBe("0");
  });
});
