import { privateKeyToAccount } from "viem/accounts";
import type { TypedDataDefinition } from "viem";
import { buyAndReveal, endUserWallet, events, type Call } from "./mystery.ts";
import type { Scenario, ScenarioContext } from "./types.ts";
import { pathOf } from "../contract/lifecycle.ts";
import { MYSTERY_PURCHASE } from "../contract/lifecycles/purchases.ts";

// The custodial purchase lifecycle the SDK polls (docs/reference/sdk-shapes.md “Polling”, “Mystery pack methods”;
// docs/reference/live-service.md “Purchases”), the relayer switch, and the relayed buyback accept with
// the holder's OfferRequest signature (docs/reference/live-service.md “Buyback offers and the pool wallet”), driven the way a
// partner integrates: Idempotency-Key on the purchase, polling GET
// /mystery/purchase/{id} until a terminal status, the operator's side (time,
// the relayer) through /_emulator.

const M = "/api/v1/mystery";
const TERMINAL_OK = new Set(["FULFILLED", "PARTIALLY_FULFILLED"]);
const TERMINAL_BAD = new Set(["FAILED", "REFUNDED"]);
/** The path the table gives a custodial purchase the relayer sends and VRF reveals (polled each second: all seen). */
const RELAYED = pathOf(MYSTERY_PURCHASE, ["reserve", "broadcast", "sent", "confirm", "reveal"]).join(" → ");
/** The same once a PENDING purchase is resumed, from the resume on. */
const RESUMED = pathOf(MYSTERY_PURCHASE, ["resume", "broadcast", "sent", "confirm", "reveal"], "PENDING").join(" → ");

type Purchase = {
  id: number;
  memo?: string;
  price: string;
  status: string;
  onchain_request_id: string | null;
  transaction_hash: string | null;
  items?: unknown[];
};
type Wallet = { balance: string; reserved: string; balance_usdc: string };

/**
 * gacha.waitForReveal with `intervalMs: 1000, backoffFactor: 1` (so the scenario shows every step):
 * GET the purchase, stop on FULFILLED / PARTIALLY_FULFILLED, fail on FAILED / REFUNDED, else wait
 * an interval on the virtual clock; 120 s timeout. Returns the purchase and the statuses seen in order.
 */
export async function waitForReveal(
  ctx: ScenarioContext,
  key: string,
  id: number,
): Promise<{ purchase: Purchase; seen: string[] }> {
  const seen: string[] = [];
  for (let elapsed = 0; ; elapsed += 1000) {
    const p = ctx.data<Purchase>(await ctx.http.get(`${M}/purchase/${id}`, { key }), 200, `poll purchase ${id}`);
    if (seen.at(-1) !== p.status) seen.push(p.status);
    if (TERMINAL_OK.has(p.status)) return { purchase: p, seen };
    ctx.expect(
      !TERMINAL_BAD.has(p.status),
      `purchase ${id} ended ${p.status} (TerminalStateError); seen ${seen.join(" → ")}`,
    );
    ctx.expect(
      elapsed + 1000 <= 120_000,
      `purchase ${id} still ${p.status} after 120 s (PollTimeoutError); seen ${seen.join(" → ")}`,
    );
    await ctx.control.advance(1000);
  }
}

const balance = async (ctx: ScenarioContext, key: string, user: string) =>
  ctx.data<{ wallet: Wallet }>(
    await ctx.http.get("/api/v1/wallet/balance", { key, query: { external_user_id: user } }),
    200,
    "balance",
  ).wallet;

export const purchaseLifecycleScenarios: Scenario[] = [
  {
    name: "mystery-custodial-lifecycle",
    title: "Custodial purchase: RESERVED → SUBMITTING → SUBMITTED → FULFILLED, polled the SDK's way",
    description:
      "The partner buys a pack from an end user's custodial balance with an Idempotency-Key: 202 RESERVED with the price held and every on-chain field null; the relayer sends it on chain (SUBMITTING, then SUBMITTED with the VRF request) and the reveal fulfils it, each step on the virtual clock with its webhook.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys.demo!;
      const user = ctx.run.unique("lifecycle-user");
      ctx.step("1. the operator credits 100 USDC to an end user's custodial balance");
      await ctx.control.request("POST", "/mystery/custodial/fund", { key, external_user_id: user, usdc: "100" });
      const stats = async () =>
        ctx.data<{ partner_slug: string | null; total_volume: string }>(
          await ctx.http.get(`${M}/stats`, { key }),
          200,
          "stats",
        );
      const before = await stats();
      ctx.step("2. POST /mystery/purchase {tier_id: 1, external_user_id} with Idempotency-Key → 202 RESERVED");
      const res = await ctx.http.post(`${M}/purchase`, {
        key,
        body: { tier_id: 1, external_user_id: user },
        headers: { "Idempotency-Key": ctx.run.unique("lifecycle-order-1") },
      });
      const p = ctx.data<Purchase>(res, 202, "custodial purchase");
      ctx.expect(p.status === "RESERVED", `the 202 is RESERVED, got ${p.status}`);
      // The memo is <partner-slug>-<id>, absent without a slug (docs/reference/live-service.md “Money, ids and time”).
      const slug = before.partner_slug;
      ctx.expect(
        p.memo === (slug === null ? undefined : `${slug}-${p.id}`),
        `memo ${JSON.stringify(p.memo)} for partner ${JSON.stringify(slug)} and purchase ${p.id}`,
      );
      ctx.expect(
        p.onchain_request_id === null && p.transaction_hash === null,
        `on-chain fields are null until the relayer sends it: ${JSON.stringify(p).slice(0, 200)}`,
      );
      const held = await balance(ctx, key, user);
      ctx.expect(
        held.balance === "100000000" && held.reserved === "25000000",
        `25 USDC held, not yet spent: ${JSON.stringify(held)}`,
      );
      ctx.step("3. poll GET /mystery/purchase/{id} every second (waitForReveal) until a terminal status");
      const { purchase, seen } = await waitForReveal(ctx, key, p.id);
      ctx.step(`   statuses seen: ${seen.join(" → ")}`);
      ctx.expect(seen.join(" → ") === RELAYED, `the purchase goes ${RELAYED}, seen ${seen.join(" → ")}`);
      ctx.expect(
        purchase.items?.length && purchase.onchain_request_id && purchase.transaction_hash,
        "FULFILLED with its items, its VRF request and the relayer's transaction",
      );
      const after = await balance(ctx, key, user);
      ctx.expect(
        after.balance === "75000000" && after.reserved === "0",
        `the hold is settled: ${JSON.stringify(after)}`,
      );
      // Volume counts SUBMITTED, FULFILLED and PARTIALLY_FULFILLED purchases (docs/reference/live-service.md “Purchases”).
      const volume = BigInt((await stats()).total_volume) - BigInt(before.total_volume);
      ctx.expect(
        volume === BigInt(purchase.price),
        `stats.total_volume rose by ${volume}, the purchase's price is ${purchase.price}`,
      );
      ctx.step("4. one webhook per step: purchase.reserved, purchase.submitted, purchase.fulfilled");
      const types = (await events(ctx))
        .filter((e) => e.type.startsWith("purchase.") && e.data.purchase_id === p.id)
        .map((e) => e.type);
      ctx.expect(
        types.join(",") === "purchase.reserved,purchase.submitted,purchase.fulfilled",
        `events ${types.join(", ")}`,
      );
    },
  },
  {
    name: "mystery-relayer-paused",
    title: "The relayer paused: 503 relayer_disabled, a held purchase waits PENDING and is relayed when it is back",
    description:
      "A purchase is held; the operator switches the relayer off: the held purchase waits PENDING (its hold kept) and new custodial purchases answer 503 relayer_disabled (retryable). Switched on again, the PENDING purchase is relayed and fulfilled, and the refused call succeeds on retry with its key.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys.demo!;
      const user = ctx.run.unique("paused-user");
      await ctx.control.request("POST", "/mystery/custodial/fund", { key, external_user_id: user, usdc: "100" });
      ctx.step("1. a custodial purchase is RESERVED; the operator switches the relayer off before it is picked up");
      const p = ctx.data<Purchase>(
        await ctx.http.post(`${M}/purchase`, {
          key,
          body: { tier_id: 1, external_user_id: user },
          headers: { "Idempotency-Key": ctx.run.unique("paused-1") },
        }),
        202,
        "purchase",
      );
      await ctx.control.request("POST", "/mystery/relayer", { enabled: false });
      await ctx.control.advance(3000);
      const pending = ctx.data<Purchase>(await ctx.http.get(`${M}/purchase/${p.id}`, { key }), 200, "get");
      ctx.expect(pending.status === "PENDING", `held while the relayer is off: PENDING, got ${pending.status}`);
      ctx.step("2. a new custodial purchase → 503 relayer_disabled, retryable, with Retry-After; nothing is held");
      const second = ctx.run.unique("paused-2");
      const refused = await ctx.http.post(`${M}/purchase`, {
        key,
        body: { tier_id: 1, external_user_id: user },
        headers: { "Idempotency-Key": second },
      });
      const err = refused.body as { error?: string; retryable?: boolean };
      ctx.expect(
        refused.status === 503 && err.error === "relayer_disabled" && err.retryable === true,
        `503 relayer_disabled retryable, got ${refused.status} ${refused.text.slice(0, 160)}`,
      );
      ctx.expect(Number(refused.headers["retry-after"]) > 0, "Retry-After on the 503");
      const held = await balance(ctx, key, user);
      ctx.expect(held.reserved === "25000000", `only the first purchase is held: ${JSON.stringify(held)}`);
      ctx.step(
        "3. the relayer is back: the PENDING purchase is relayed and revealed; the refused call, retried with its key, buys",
      );
      await ctx.control.request("POST", "/mystery/relayer", { enabled: true });
      const { seen } = await waitForReveal(ctx, key, p.id);
      ctx.expect(seen.join(" → ") === RESUMED, `PENDING → ${RESUMED}, seen ${seen.join(" → ")}`);
      const retry = ctx.data<Purchase>(
        await ctx.http.post(`${M}/purchase`, {
          key,
          body: { tier_id: 1, external_user_id: user },
          headers: { "Idempotency-Key": second },
        }),
        202,
        "retry",
      );
      ctx.expect(retry.status === "RESERVED", `the retry is a new RESERVED purchase, got ${retry.status}`);
    },
  },
  {
    name: "mystery-relayed-accept",
    title: "Relayed buyback accept: the holder signs the offer's OfferRequest, the relayer pays the gas",
    description:
      "A revealed card gets a buyback offer; accept/prepare hands the holder the EIP-712 OfferRequest typed data; the holder approves the marketplace once, signs the typed data in the wallet (eth_signTypedData_v4) and the partner posts the signature: the relayer submits acceptOfferFor and buyback.confirmed follows.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys.demo!;
      const wallet = await endUserWallet(ctx, 6);
      const p = await buyAndReveal(ctx, key, wallet, 1);
      const card = (p.items as Array<{ token_id: string; item_type: string }>).find((i) => i.item_type === "CARD")!;
      ctx.step("1. the operator pins the card's value at $40; the partner asks for an offer");
      await ctx.control.request("POST", "/mystery/oracle", { token_id: card.token_id, usdc: "40" });
      ctx.data(await ctx.http.post(`${M}/buyback`, { key, body: { token_id: card.token_id } }), 201, "offer");
      ctx.step("2. POST /mystery/buyback/{token}/accept/prepare → typed_data: the offer's EIP-712 OfferRequest");
      type Prep = {
        nft_approval: { call: Call | null };
        typed_data: {
          primaryType: string;
          types: Record<string, Array<{ name: string; type: string }>>;
          domain: Record<string, unknown>;
          message: Record<string, string>;
        };
      };
      const prep = ctx.data<Prep>(
        await ctx.http.post(`${M}/buyback/${card.token_id}/accept/prepare`, { key, body: {} }),
        200,
        "accept/prepare",
      );
      const fields = (prep.typed_data.types.OfferRequest ?? []).map((f) => f.name).join(",");
      ctx.expect(
        prep.typed_data.primaryType === "OfferRequest",
        `primaryType OfferRequest, got ${prep.typed_data.primaryType}`,
      );
      ctx.expect(
        fields === "tokenContractAddress,tokenId,price,acceptedCurrency,deadline,requester,chainId,minSellerAmount",
        `OfferRequest fields: ${fields}`,
      );
      ctx.expect(
        prep.typed_data.message.tokenId === card.token_id,
        `the message is the offer for token ${card.token_id}`,
      );
      ctx.step("3. the holder approves the marketplace once, then signs the typed data in the wallet");
      if (prep.nft_approval.call) await wallet.send([prep.nft_approval.call]);
      const signer = privateKeyToAccount(wallet.privateKey);
      const signature = await signer.signTypedData(
        prep.typed_data as unknown as TypedDataDefinition<Record<string, unknown>, string>,
      );
      ctx.step(
        "4. POST …/accept {receiver_signature}: the relayer submits acceptOfferFor → submitted, then buyback.confirmed",
      );
      const accepted = await ctx.http.post(`${M}/buyback/${card.token_id}/accept`, {
        key,
        body: { receiver_signature: signature },
      });
      const done = ctx.data<{ status: string; transaction_hash: string }>(accepted, 200, "relayed accept");
      ctx.expect(
        done.status === "submitted" && /^0x[0-9a-f]{64}$/.test(done.transaction_hash),
        `submitted with the relayer's transaction: ${accepted.text.slice(0, 200)}`,
      );
      await ctx.control.advance(1);
      ctx.expect(
        (await events(ctx, "buyback.confirmed")).length === 1,
        "buyback.confirmed once the acceptance is read from the chain",
      );
    },
  },
];
