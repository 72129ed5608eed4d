import type { CheckContext, Need } from "../types.ts";
import type { Call } from "../../harness/wallet.ts";
import { cheapestFirst, ensure, expectSuccess, spendMicros, usdcMicros, usdcText } from "../assert.ts";
import { buyAndReveal, buyInstant, PACK_USDC, type InstantPack } from "./commerce.ts";
import { NotApplicable } from "../types.ts";
import { relayedAcceptBySandbox } from "./relayed-accept-sandbox.ts";
import { WEBHOOK_RETRIES_WAIT_MS, webhookRetriesBySandbox } from "./webhook-retries-sandbox.ts";
import { CUSTODIAL_USDC, custodialLifecycleBySandbox, custodialRetryBySandbox } from "./custodial-sandbox.ts";

// Lifecycles a partner can run against the live sandbox by itself: the same flow as the scenario, with the
// partner's keys and funded test wallet, waiting in real time where the scenario advances the clock. The
// emulator mode runs the scenario itself (conformance/checks/lifecycle.ts).

const M = "/api/v1/mystery";
const I = "/api/v1/instant";
/** The instant lifecycle buys one pack, then runs one packet type's stock down: at most this much. */
const INSTANT_LIFECYCLE_USDC = 100;

export interface SandboxLifecycle {
  needs: readonly Need[];
  /** What only the sandbox run needs (the scenario's control plane stands in for it in emulator mode). */
  sandboxNeeds?: readonly Need[];
  spendUsdc: number;
  /** The most real time it waits (a retry schedule); against --max-wait. */
  waitMs?: number;
  run(ctx: CheckContext): Promise<void>;
}

const walletOf = (ctx: CheckContext) => {
  ensure(ctx.wallet, "no test wallet");
  return ctx.wallet;
};

export const SANDBOX_LIFECYCLES: Readonly<Record<string, SandboxLifecycle>> = {
  // A real purchase's delivery to the suite's receiver, failed twice (webhook-retries-sandbox.ts).
  "webhook-retries": {
    needs: ["partnerKey"],
    sandboxNeeds: ["wallet", "webhookUrl"],
    spendUsdc: PACK_USDC,
    waitMs: WEBHOOK_RETRIES_WAIT_MS,
    run: webhookRetriesBySandbox,
  },
  // The card's own value makes the offer (relayed-accept-sandbox.ts).
  "mystery-relayed-accept": {
    needs: ["partnerKey"],
    sandboxNeeds: ["wallet"],
    spendUsdc: PACK_USDC,
    run: relayedAcceptBySandbox,
  },
  // Funded by a real deposit from the test wallet (custodial-sandbox.ts).
  "mystery-custodial-retry": {
    needs: ["partnerKey"],
    sandboxNeeds: ["wallet"],
    spendUsdc: CUSTODIAL_USDC,
    run: custodialRetryBySandbox,
  },
  "mystery-custodial-lifecycle": {
    needs: ["partnerKey"],
    sandboxNeeds: ["wallet"],
    spendUsdc: CUSTODIAL_USDC,
    run: custodialLifecycleBySandbox,
  },
  "mystery-purchase-wallet": {
    needs: ["partnerKey", "wallet"],
    spendUsdc: PACK_USDC,
    async run(ctx) {
      const { tier, purchase } = await buyAndReveal(ctx, walletOf(ctx));
      ensure(
        purchase.status === "FULFILLED",
        `purchase ${purchase.id} must be FULFILLED once VRF revealed it, is ${purchase.status}`,
      );
      const items = purchase.items ?? [];
      ensure(items.length > 0, `purchase ${purchase.id} must carry its items once FULFILLED`);
      ctx.note(`purchase ${purchase.id} (tier ${tier.tier_id}) FULFILLED with ${items.length} items`);
    },
  },
  "mystery-sellback": {
    needs: ["partnerKey", "wallet", "revenueShareKey"],
    spendUsdc: PACK_USDC,
    async run(ctx) {
      ensure(ctx.revenueShareKey, "no TIER key");
      const key = ctx.revenueShareKey;
      const w = walletOf(ctx);
      const { purchase } = await buyAndReveal({ ...ctx, partnerKey: key }, w);
      ensure(purchase.status === "FULFILLED", `purchase ${purchase.id} must be FULFILLED, is ${purchase.status}`);
      const tokenIds = (purchase.items ?? []).map((i) => i.token_id);
      const q = expectSuccess(
        await ctx.http.post(`${M}/sellback/quote`, { key, body: { wallet_address: w.address, token_ids: tokenIds } }),
        "quote",
      ).data as {
        eligible_token_ids: string[];
        total_payout_usdc: string;
      };
      ensure(
        q.eligible_token_ids.length > 0,
        `none of the revealed tokens ${tokenIds.join(", ")} is eligible for sell-back`,
      );
      const body = { wallet_address: w.address, token_ids: q.eligible_token_ids };
      const prep = expectSuccess(await ctx.http.post(`${M}/sellback/prepare`, { key, body }), "prepare").data as {
        calls: Call[];
      };
      const receipt = await w.send(prep.calls);
      const rec = expectSuccess(
        await ctx.http.post(`${M}/sellback/submit`, { key, body: { transaction_hash: receipt.transactionHash } }),
        "submit",
      ).data as { total_usdc: string };
      ensure(
        rec.total_usdc === q.total_payout_usdc,
        `the sell-back recorded ${rec.total_usdc} USDC; ${q.total_payout_usdc} was quoted`,
      );
      ctx.note(`sold ${q.eligible_token_ids.length} token(s) back for ${rec.total_usdc} USDC, as quoted`);
    },
  },
  instant: {
    needs: ["partnerKey", "wallet"],
    spendUsdc: INSTANT_LIFECYCLE_USDC,
    async run(ctx) {
      const key = ctx.partnerKey;
      const w = walletOf(ctx);
      const catalog = async (all = false) =>
        (
          expectSuccess(
            await ctx.http.get(`${I}/catalog`, { key, ...(all ? { query: { include_unavailable: "1" } } : {}) }),
            "GET /instant/catalog",
          ).data as { packs: InstantPack[] }
        ).packs;
      const packs = (await catalog()).filter((p) => p.available_packs > 0);
      if (!packs.length) throw new NotApplicable("no instant pack is in stock on the target");
      // Decided before anything is bought: the stock to run down must fit the declared spend.
      const last = packs.reduce((a, b) => (b.available_packs < a.available_packs ? b : a));
      const cheapest = usdcMicros([...packs].sort(cheapestFirst((p) => p.price_usdc))[0]!.price_usdc);
      const stockCost = BigInt(last.available_packs) * usdcMicros(last.price_usdc);
      if (cheapest + stockCost > spendMicros(INSTANT_LIFECYCLE_USDC))
        throw new NotApplicable(
          `running packet type ${last.packet_type_id}'s stock down costs ${usdcText(stockCost)} USDC (${last.available_packs} packs), more than the check's declared spend of ${INSTANT_LIFECYCLE_USDC}`,
        );
      const { purchase } = await buyInstant(ctx, w);
      ensure(
        purchase.status === "FULFILLED" && (purchase.cards?.length ?? 0) > 0 && purchase.pack,
        `instant purchase ${purchase.id} must be FULFILLED with its pack and cards, is ${purchase.status}`,
      );
      // The stock may have moved meanwhile (the pack just bought): read it again.
      const left = (await catalog()).find((p) => p.packet_type_id === last.packet_type_id)?.available_packs ?? 0;
      const body = { packet_type_id: last.packet_type_id, wallet_address: w.address };
      for (let i = 0; i < left; i++)
        await w.send(
          (
            expectSuccess(await ctx.http.post(`${I}/purchase/prepare`, { key, body }), "prepare").data as {
              calls: Call[];
            }
          ).calls,
        );
      const soldOut = await ctx.http.post(`${I}/purchase/prepare`, { key, body });
      ensure(
        soldOut.status === 409 && (soldOut.body as { error?: unknown }).error === "sold_out",
        `prepare of a sold-out pack must be 409 sold_out, got ${soldOut.status} ${soldOut.text.slice(0, 120)}`,
      );
      ensure(
        !(await catalog()).some((p) => p.packet_type_id === last.packet_type_id),
        "a sold-out pack leaves the default catalog",
      );
      const shown = (await catalog(true)).find((p) => p.packet_type_id === last.packet_type_id);
      ensure(
        shown?.available_packs === 0,
        `include_unavailable=1 shows the sold-out pack with available_packs 0, got ${JSON.stringify(shown)}`,
      );
      ctx.note(
        `instant purchase ${purchase.id} FULFILLED; packet type ${last.packet_type_id} bought out (${left} packs), then 409 sold_out`,
      );
    },
  },
};
