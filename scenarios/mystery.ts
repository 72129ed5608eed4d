import { parseUnits, type Hex } from "viem";
import { vrfRequestIdsFromLogs } from "../chain/index.ts";
import { openWallet } from "../harness/wallet.ts";
import type { Scenario, ScenarioContext } from "./types.ts";

// Mystery-pack lifecycles, driven the way a partner integrates: the partner's
// backend calls the API with its key, and the end user's wallet signs the
// returned calldata over the emulator's JSON-RPC (a viem client on rpcUrl,
// exactly as against Base). The operator side (VRF, KYC, warehouse, time) is
// the /_emulator control plane.

const M = "/api/v1/mystery";
const MIN = 60_000;

export type Call = { to: `0x${string}`; data: Hex; kind?: string };
type Purchase = {
  id: number;
  status: string;
  onchain_request_id: string | null;
  items?: Array<{ token_id: string; item_type: string }>;
};

/** An end user's wallet: the harness's signing wallet over the emulator's JSON-RPC, with this run's new funded key (ctx.run.endUserKey). */
export async function endUserWallet(ctx: ScenarioContext, index: number) {
  const info = await ctx.control.request<{ rpcUrl: string; chainId: number }>("GET", "/chain");
  ctx.expect(info.rpcUrl, "the chain must be served over JSON-RPC (rpcUrl)");
  const wallet = await openWallet(await ctx.run.endUserKey(index), info.rpcUrl);
  return {
    address: wallet.address,
    /** The wallet's key, for typed-data signatures. */
    privateKey: wallet.privateKey,
    /** Signs and sends each call in order; returns the last receipt (a revert fails the step, naming why). */
    async send(calls: Call[]) {
      try {
        return await wallet.send(calls);
      } catch (err) {
        ctx.expect(false, err instanceof Error ? err.message : String(err));
      }
    },
  };
}

export type Wallet = Awaited<ReturnType<typeof endUserWallet>>;

/** The mystery events of this run's accounts (a used target has others). */
export async function events(
  ctx: ScenarioContext,
  type?: string,
): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
  const all = (
    await ctx.control.request<{ events: Array<{ account_id: string; type: string; data: Record<string, unknown> }> }>(
      "GET",
      `/mystery/events${type ? `?type=${type}` : ""}`,
    )
  ).events;
  return all.filter((e) => ctx.run.accounts.has(e.account_id));
}

/** Non-custodial purchase: prepare → the wallet signs approve + purchase → submit with the VRF request id → reveal. */
export async function buyAndReveal(
  ctx: ScenarioContext,
  key: string,
  wallet: Wallet,
  tierId: number,
): Promise<Purchase> {
  const prep = ctx.data<{ calls: Call[] }>(
    await ctx.http.post(`${M}/purchase/prepare`, { key, body: { wallet_address: wallet.address, tier_id: tierId } }),
    200,
    "prepare",
  );
  const receipt = await wallet.send(prep.calls);
  const [requestId] = vrfRequestIdsFromLogs(receipt.logs);
  const sub = ctx.data<Purchase>(
    await ctx.http.post(`${M}/purchase/submit`, {
      key,
      body: {
        wallet_address: wallet.address,
        tier_id: tierId,
        transaction_hash: receipt.transactionHash,
        request_id: String(requestId),
      },
    }),
    202,
    "submit",
  );
  await ctx.control.advance(6_000); // VRF auto mode reveals 5 s after the request
  const got = ctx.data<Purchase>(await ctx.http.get(`${M}/purchase/${sub.id}`, { key }), 200, "get purchase");
  ctx.expect(
    got.status === "FULFILLED" && got.items?.length,
    `purchase ${sub.id} should be FULFILLED with items, is ${got.status}`,
  );
  return got;
}

/** A revealed card worth $40 (buyback-eligible), with an offer the holder accepts on chain. */
async function soldCard(ctx: ScenarioContext, key: string, wallet: Wallet) {
  const p = await buyAndReveal(ctx, key, wallet, 1);
  const card = p.items!.find((i) => i.item_type === "CARD")!;
  ctx.step("the operator pins the card's oracle value at $40 (eligible range $10–$100)");
  await ctx.control.request("POST", "/mystery/oracle", { token_id: card.token_id, usdc: "40" });
  ctx.step("the partner asks for a buyback offer: 85% of $40 = $34, the holder receives $34 − 2.5% fee");
  const offer = ctx.data<{ offer_id: number; price_usdc: string; seller_receives_usdc: string; calls: Call[] }>(
    await ctx.http.post(`${M}/buyback/${p.id}`, { key, body: {} }),
    201,
    "buyback offer",
  );
  ctx.expect(
    offer.price_usdc === "34.000000" && offer.seller_receives_usdc === "33.150000",
    `offer ${offer.price_usdc}/${offer.seller_receives_usdc}`,
  );
  ctx.step("the holder approves the marketplace and accepts the offer on chain");
  await wallet.send(offer.calls);
  await ctx.control.advance(1);
  ctx.expect((await events(ctx, "buyback.confirmed")).length === 1, "buyback.confirmed after the holder accepts");
  return { p, card, offer };
}

export const mysteryScenarios: Scenario[] = [
  {
    name: "mystery-purchase-wallet",
    title: "Non-custodial purchase signed by the user's wallet, revealed by VRF",
    description:
      "prepare returns approve + purchase calldata; a viem wallet signs it over JSON-RPC; submit links the mined tx and VRF request id; the reveal makes the purchase FULFILLED.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys.demo!;
      const wallet = await endUserWallet(ctx, 0);
      ctx.step("1. prepare → calls[0] erc20-approve, calls[1] purchase (no rows yet)");
      ctx.step(
        "2. the wallet signs both, 3. submit with the hash and the decoded VRF request id, 4. VRF reveals after 5 s",
      );
      const p = await buyAndReveal(ctx, key, wallet, 2);
      ctx.expect(p.items!.length === 3, "a Premium pack reveals three items");
      const fulfilled = await events(ctx, "purchase.fulfilled");
      ctx.expect(
        fulfilled.length === 1 && fulfilled[0]!.data.purchase_id === p.id,
        "purchase.fulfilled for the purchase",
      );
    },
  },
  {
    name: "mystery-custodial-retry",
    title: "Custodial purchase with an idempotent retry",
    description:
      "The partner funds an end user's custodial balance, buys with an Idempotency-Key, retries after a (simulated) timeout and gets the same purchase, charged once.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys.demo!;
      ctx.step("1. the operator credits 100 USDC to a new end user");
      const user = ctx.run.unique("scenario-user");
      await ctx.control.request("POST", "/mystery/custodial/fund", { key, external_user_id: user, usdc: "100" });
      const body = { tier_id: 1, external_user_id: user };
      const headers = { "Idempotency-Key": ctx.run.unique("scenario-order-1") };
      ctx.step(
        "2. POST /mystery/purchase with Idempotency-Key: 202 RESERVED (the price is held); the relayer buys on chain seconds later",
      );
      const first = ctx.data<Purchase>(
        await ctx.http.post(`${M}/purchase`, { key, body, headers }),
        202,
        "custodial purchase",
      );
      ctx.expect(first.status === "RESERVED", `the live service answers RESERVED, got ${first.status}`);
      ctx.step("3. the same call again (a retry): the original purchase, no second charge");
      const retry = ctx.data<Purchase>(await ctx.http.post(`${M}/purchase`, { key, body, headers }), 202, "retry");
      ctx.expect(retry.id === first.id, "the retry returns the original purchase");
      await ctx.control.advance(4_000); // the relayer picks it up (SUBMITTING) and it is mined (SUBMITTED): the hold is settled
      const bal = ctx.data<{ wallet: { balance_usdc: string } }>(
        await ctx.http.get("/api/v1/wallet/balance", { key, query: { external_user_id: user } }),
        200,
        "balance",
      );
      ctx.expect(bal.wallet.balance_usdc === "75.000000", `charged once: balance ${bal.wallet.balance_usdc}`);
      ctx.step("4. the same key for another tier is refused");
      const other = await ctx.http.post(`${M}/purchase`, { key, body: { ...body, tier_id: 2 }, headers });
      ctx.expect(other.status === 409, `idempotency_mismatch expected, got ${other.status}`);
      await ctx.control.advance(6_000);
      ctx.expect(
        ctx.data<Purchase>(await ctx.http.get(`${M}/purchase/${first.id}`, { key }), 200, "get").status === "FULFILLED",
        "revealed",
      );
    },
  },
  {
    name: "mystery-buyback-forwarded",
    title: "Buyback: held without a pool wallet, forwarded once it is set",
    description:
      "The holder accepts a buyback offer; with no pool wallet the transfer is held (one event) and retried every 15 minutes; setting the pool wallet forwards the card.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys.demo!;
      const wallet = await endUserWallet(ctx, 1);
      const { card } = await soldCard(ctx, key, wallet);
      ctx.step("the forwarding worker finds no pool wallet: one buyback.transfer_held, retries every 15 min");
      await ctx.control.advance(30 * MIN);
      ctx.expect((await events(ctx, "buyback.transfer_held")).length === 1, "exactly one transfer_held");
      ctx.step("the partner sets its pool wallet; the next retry forwards the card");
      const pool = (await endUserWallet(ctx, 9)).address;
      ctx.data(
        await ctx.http.call("PUT", `${M}/pool-wallet`, { key, body: { wallet_address: pool } }),
        200,
        "set pool wallet",
      );
      await ctx.control.advance(15 * MIN);
      const moved = await events(ctx, "buyback.card_transferred");
      ctx.expect(
        moved.length === 1 && moved[0]!.data.to_address === pool && moved[0]!.data.token_id === card.token_id,
        "buyback.card_transferred to the pool wallet",
      );
    },
  },
  {
    name: "mystery-buyback-transfer-failed",
    title: "Buyback: no pool wallet ever set → terminal transfer failure",
    description:
      "After the held event, nine more attempts 15 minutes apart fail; the tenth failure sends buyback.transfer_failed.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys.demo!;
      const wallet = await endUserWallet(ctx, 1);
      await soldCard(ctx, key, wallet);
      ctx.step("no pool wallet: retry every 15 minutes, 10 attempts");
      await ctx.control.advance(3 * 60 * MIN);
      const types = (await events(ctx)).map((e) => e.type).filter((t) => t.startsWith("buyback."));
      ctx.expect(
        types.join() === "buyback.confirmed,buyback.transfer_held,buyback.transfer_failed",
        `events: ${types.join()}`,
      );
    },
  },
  {
    name: "mystery-sellback",
    title: "Sell-back (TIER partner): quote → prepare → sign → submit",
    description:
      "The original recipient sells revealed cards back to the pool inside the buyback window; the payout is read from CardSellExecuted.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys["revenue-share"]!;
      const wallet = await endUserWallet(ctx, 2);
      const p = await buyAndReveal(ctx, key, wallet, 1);
      const tokenIds = p.items!.map((i) => i.token_id);
      ctx.step("1. quote: every token eligible, payout = oracle value × 85%");
      const q = ctx.data<{ eligible_token_ids: string[]; total_payout_usdc: string }>(
        await ctx.http.post(`${M}/sellback/quote`, {
          key,
          body: { wallet_address: wallet.address, token_ids: tokenIds },
        }),
        200,
        "quote",
      );
      ctx.expect(q.eligible_token_ids.length === tokenIds.length, "all eligible");
      ctx.step("2. prepare: setApprovalForAll (first time) + acceptCardBuyback");
      const prep = ctx.data<{ calls: Call[] }>(
        await ctx.http.post(`${M}/sellback/prepare`, {
          key,
          body: { wallet_address: wallet.address, token_ids: tokenIds },
        }),
        200,
        "prepare",
      );
      const receipt = await wallet.send(prep.calls);
      ctx.step("3. submit: the record comes from the on-chain CardSellExecuted log");
      const rec = ctx.data<{ total_usdc: string; token_ids: string[] }>(
        await ctx.http.post(`${M}/sellback/submit`, { key, body: { transaction_hash: receipt.transactionHash } }),
        200,
        "submit",
      );
      ctx.expect(rec.total_usdc === q.total_payout_usdc, `paid ${rec.total_usdc}, quoted ${q.total_payout_usdc}`);
      ctx.expect((await events(ctx, "sellback.confirmed")).length === 1, "sellback.confirmed");
      ctx.step("4. the sell-back is listed with its payout (GET /mystery/sellbacks)");
      const listed = ctx.data<{ sellbacks: Array<{ transaction_hash: string; total_usdc: string }> }>(
        await ctx.http.get(`${M}/sellbacks`, { key }),
        200,
        "sell-back list",
      );
      ctx.expect(
        listed.sellbacks.some(
          (s) =>
            s.transaction_hash.toLowerCase() === receipt.transactionHash.toLowerCase() &&
            s.total_usdc === rec.total_usdc,
        ),
        `the sell-back of ${receipt.transactionHash} is listed with ${rec.total_usdc}`,
      );
    },
  },
  {
    name: "mystery-revenue-payout",
    title: "Revenue share (TIER partner): packs sold → 5% accrues → statement closed → paid",
    description:
      "A TIER partner's end user buys packs from a custodial balance; the revenue summary shows the gross and the 5% share; the operator closes the period into a PENDING statement and pays it to the partner's payout wallet (PAID with a tx hash).",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys["revenue-share"]!;
      const account = ctx.run.accountOf(key); // this run's TIER account, like the fixture "nova"
      const user = ctx.run.unique("scenario-collector");
      const { now: start } = await ctx.control.request<{ now: string }>("GET", "/clock");
      ctx.step("1. the operator credits 100 USDC to an end user of the TIER partner");
      await ctx.control.request("POST", "/mystery/custodial/fund", { key, external_user_id: user, usdc: "100" });
      const tiers = ctx.data<{ tiers: Array<{ tier_id: number; price_micros: string }> }>(
        await ctx.http.get(`${M}/catalog`, { key }),
        200,
        "catalog",
      ).tiers;
      const price = BigInt(tiers.find((t) => t.tier_id === 1)!.price_micros);
      ctx.step("2. the end user buys two tier-1 packs (custodial purchase, one Idempotency-Key per order)");
      for (const order of ["scenario-rev-1", "scenario-rev-2"]) {
        const p = ctx.data<Purchase>(
          await ctx.http.post(`${M}/purchase`, {
            key,
            body: { tier_id: 1, external_user_id: user },
            headers: { "Idempotency-Key": ctx.run.unique(order) },
          }),
          202,
          `purchase ${order}`,
        );
        ctx.expect(p.status === "RESERVED", `purchase ${p.id} should be RESERVED, is ${p.status}`);
      }
      await ctx.control.advance(4_000); // the relayer sends both on chain: SUBMITTED
      ctx.step(
        "3. GET /mystery/revenue?from=<before the sales>: gross = both packs, share = 5% of net (no sell-backs)",
      );
      const gross = 2n * price;
      const share = (gross * 500n) / 10_000n;
      const rev = ctx.data<Record<string, unknown>>(
        await ctx.http.get(`${M}/revenue`, { key, query: { from: start } }),
        200,
        "revenue",
      );
      ctx.expect(
        rev.billing_model === "TIER" && rev.revenue_share_bps === 500 && rev.qualifying_packs === 2,
        `TIER, 500 bps, 2 packs: ${JSON.stringify(rev).slice(0, 160)}`,
      );
      ctx.expect(
        rev.gross_micros === String(gross) && rev.revenue_share_micros === String(share),
        `gross ${String(rev.gross_micros)} (want ${gross}), share ${String(rev.revenue_share_micros)} (want ${share})`,
      );

      type Statement = {
        payout_id: number;
        status: string;
        payout_usdc: string;
        payout_address: string | null;
        tx_hash: string | null;
        qualifying_packs: number;
      };
      type Payouts = {
        payouts: Statement[];
        outstanding_usdc: string;
        accruing: { payout_usdc: string } | null;
        total_owed_usdc: string;
      };
      const payouts = async () => ctx.data<Payouts>(await ctx.http.get(`${M}/payouts`, { key }), 200, "payouts");
      ctx.step("4. GET /mystery/payouts: the open period accrues the share (accruing), nothing closed yet is owed");
      const accruing = (await payouts()).accruing;
      ctx.expect(
        accruing && parseUnits(accruing.payout_usdc, 6) >= share,
        `accruing should hold at least the share, got ${JSON.stringify(accruing)}`,
      );

      ctx.step("5. the partner sets its payout wallet (PUT /mystery/payout-wallet, payout:manage)");
      const payTo = (await endUserWallet(ctx, 5)).address;
      ctx.data(
        await ctx.http.call("PUT", `${M}/payout-wallet`, { key, body: { address: payTo } }),
        200,
        "set payout wallet",
      );

      ctx.step("6. a minute later the operator closes the period: a frozen PENDING statement (payout.statement_ready)");
      await ctx.control.advance(MIN);
      const [closed] = (
        await ctx.control.request<{ payouts: Statement[] }>("POST", "/mystery/payouts/close", { account_id: account })
      ).payouts;
      ctx.expect(closed, "close returns the statement");
      ctx.expect(
        closed.payout_usdc === accruing.payout_usdc && closed.qualifying_packs >= 2,
        `the statement pays what accrued (${accruing.payout_usdc}), got ${closed.payout_usdc}`,
      );
      let listed = await payouts();
      let st = listed.payouts.find((p) => p.payout_id === closed.payout_id);
      ctx.expect(
        st?.status === "PENDING" && st.payout_address === payTo,
        `GET /mystery/payouts lists it PENDING to ${payTo}: ${JSON.stringify(st)}`,
      );
      ctx.expect(
        listed.outstanding_usdc === st.payout_usdc,
        `outstanding_usdc ${listed.outstanding_usdc} = the PENDING statement`,
      );

      ctx.step(
        "7. the operator pays it: USDC to the payout wallet on chain → PAID with the transaction hash (payout.paid)",
      );
      await ctx.control.request("POST", `/mystery/payouts/${closed.payout_id}/pay`, {});
      listed = await payouts();
      st = listed.payouts.find((p) => p.payout_id === closed.payout_id);
      ctx.expect(
        st?.status === "PAID" && /^0x[0-9a-f]{64}$/.test(st.tx_hash ?? ""),
        `the statement should read PAID with a tx hash: ${JSON.stringify(st)}`,
      );
      ctx.expect(
        listed.outstanding_usdc === "0.000000",
        `nothing outstanding after payment, got ${listed.outstanding_usdc}`,
      );
      ctx.expect(
        (await events(ctx, "payout.paid")).some((e) => e.data.payout_id === closed.payout_id),
        "payout.paid published",
      );
    },
  },
];
