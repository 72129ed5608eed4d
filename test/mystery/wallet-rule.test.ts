import { describe, expect, it } from "vitest";
import { user, type Ctx, useMystery } from "./helpers.ts";

// One wallet rule on every route that takes a wallet (docs/decisions.md "One
// wallet rule"): an address in one case, lower or upper, is answered exactly
// as its EIP-55 form; mixed case with a wrong checksum is the route's wallet
// 400, whichever route it is sent to.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const M = "/api/v1/mystery";
const HASH = `0x${"11".repeat(32)}`;
type Answer = { status: number; body: { error?: string } };
const code = (r: Answer) => [r.status, r.body.error];

/** Every route that takes a wallet: the call with `w` as the wallet, and the code a wallet it refuses answers. */
function routes(): Array<[string, (w: string, n: number) => PromiseLike<Answer>, string]> {
  const key = (k: string) => ({ "X-API-Key": k });
  const post = (path: string, body: object, k = ctx.demo, headers: Record<string, string> = {}) =>
    ctx.api
      .post(path)
      .set({ ...key(k), ...headers })
      .send(body);
  const put = (path: string, body: object, k = ctx.demo) => ctx.api.put(path).set(key(k)).send(body);
  const get = (path: string, k = ctx.demo) => ctx.api.get(path).set(key(k));
  const tokens = { token_ids: ["1"] };
  return [
    [
      "purchase prepare",
      (w) => post(`${M}/purchase/prepare`, { tier_id: 1, wallet_address: w }),
      "invalid_wallet_address",
    ],
    [
      "purchase submit",
      (w) => post(`${M}/purchase/submit`, { tier_id: 1, transaction_hash: HASH, wallet_address: w }),
      "invalid_wallet_address",
    ],
    [
      "custodial purchase",
      (w, n) => post(`${M}/purchase`, { tier_id: 1, wallet_address: w }, ctx.demo, { "Idempotency-Key": `wr-${n}` }),
      "invalid_wallet_address",
    ],
    ["wallet balance", (w) => get(`/api/v1/wallet/balance?wallet_address=${w}`), "invalid_wallet_address"],
    ["wallet ledger", (w) => get(`/api/v1/wallet/ledger?wallet_address=${w}`), "invalid_wallet_address"],
    ["wallet deposits", (w) => get(`/api/v1/wallet/deposits?wallet_address=${w}`), "invalid_wallet_address"],
    ["deposit address", (w) => post("/api/v1/wallet/deposit-address", { wallet_address: w }), "invalid_wallet_address"],
    ["collection", (w) => get(`${M}/collection?wallet_address=${w}`), "invalid_wallet_address"],
    ["pool wallet", (w) => put(`${M}/pool-wallet`, { wallet_address: w }), "invalid_address"],
    ["pool wallet (address)", (w) => put(`${M}/pool-wallet`, { address: w }), "invalid_address"],
    ["payout wallet", (w) => put(`${M}/payout-wallet`, { address: w }, ctx.revenueShare), "invalid_address"],
    [
      "payout wallet (older path)",
      (w) => put("/api/v1/payout-wallet", { wallet_address: w }, ctx.revenueShare),
      "invalid_address",
    ],
    [
      "sell-back quote",
      (w) => post(`${M}/sellback/quote`, { ...tokens, wallet_address: w }, ctx.revenueShare),
      "invalid_wallet_address",
    ],
    [
      "sell-back prepare",
      (w) => post(`${M}/sellback/prepare`, { ...tokens, wallet_address: w }, ctx.revenueShare),
      "invalid_wallet_address",
    ],
    [
      "sell-back submit",
      (w) => post(`${M}/sellback/submit`, { transaction_hash: HASH, wallet_address: w }, ctx.revenueShare),
      "invalid_wallet_address",
    ],
    [
      "instant prepare",
      (w) => post("/api/v1/instant/purchase/prepare", { packet_type_id: 1, wallet_address: w }),
      "invalid_wallet_address",
    ],
    [
      "instant submit",
      (w) => post("/api/v1/instant/purchase/submit", { packet_type_id: 1, transaction_hash: HASH, wallet_address: w }),
      "invalid_wallet_address",
    ],
  ];
}

describe("the same wallet string is answered the same on every route that takes one", () => {
  it("lower case, upper case and the EIP-55 form alike; a wrong checksum is the route's wallet 400", async () => {
    const good = user(ctx, 3).address;
    const lower = good.toLowerCase();
    const upper = `0x${good.slice(2).toUpperCase()}`;
    // One letter's case flipped: the same address, its checksum now wrong.
    const i = [...good].findIndex((ch, k) => k > 1 && /[a-fA-F]/.test(ch));
    const flipped = good[i] === good[i]!.toLowerCase() ? good[i]!.toUpperCase() : good[i]!.toLowerCase();
    const wrong = `${good.slice(0, i)}${flipped}${good.slice(i + 1)}`;
    expect(wrong.toLowerCase()).toBe(lower);
    let n = 0;
    for (const [name, call, walletCode] of routes()) {
      const asChecksummed = code(await call(good, n++));
      expect(asChecksummed[1], `${name}: the EIP-55 form is taken`).not.toBe(walletCode);
      expect([401, 403], `${name}: the key may call it`).not.toContain(asChecksummed[0]);
      expect(code(await call(lower, n++)), `${name}: all lower case`).toEqual(asChecksummed);
      expect(code(await call(upper, n++)), `${name}: all upper case`).toEqual(asChecksummed);
      expect(code(await call(wrong, n++)), `${name}: wrong checksum`).toEqual([400, walletCode]);
    }
  });
});
