import type { CheckContext, Need } from "../types.ts";
import type { Call } from "../../harness/wallet.ts";
import { ensure, expectSuccess } from "../assert.ts";
import { buyAndReveal, PACK_USDC } from "./commerce.ts";

// Lifecycles a partner can run against the live sandbox by itself: the same flow as the scenario, with the
// partner's keys and funded test wallet, waiting in real time where the scenario advances the clock. The
// emulator mode runs the scenario itself (conformance/checks/lifecycle.ts).

const M = "/api/v1/mystery";

export interface SandboxLifecycle {
  needs: readonly Need[];
  spendUsdc: number;
  run(ctx: CheckContext): Promise<void>;
}

const walletOf = (ctx: CheckContext) => {
  ensure(ctx.wallet, "no test wallet");
  return ctx.wallet;
};

export const SANDBOX_LIFECYCLES: Readonly<Record<string, SandboxLifecycle>> = {
  "mystery-purchase-wallet": {
    needs: ["partnerKey", "wallet"],
    spendUsdc: PACK_USDC,
    async run(ctx) {
      const { tier, purchase } = await buyAndReveal(ctx, walletOf(ctx));
      ensure(purchase.status === "FULFILLED", `purchase ${purchase.id} must be FULFILLED once VRF revealed it, is ${purchase.status}`);
      const items = purchase.items ?? [];
      ensure(items.length > 0, `purchase ${purchase.id} must carry its items once FULFILLED`);
      ctx.note(`purchase ${purchase.id} (tier ${tier.tier_id}) FULFILLED with ${items.length} items`);
    },
  },
  "mystery-sellback": {
    needs: ["partnerKey", "wallet", "tierKey"],
    spendUsdc: PACK_USDC,
    async run(ctx) {
      ensure(ctx.tierKey, "no TIER key");
      const key = ctx.tierKey;
      const w = walletOf(ctx);
      const { purchase } = await buyAndReveal({ ...ctx, partnerKey: key }, w);
      ensure(purchase.status === "FULFILLED", `purchase ${purchase.id} must be FULFILLED, is ${purchase.status}`);
      const tokenIds = (purchase.items ?? []).map((i) => i.token_id);
      const q = expectSuccess(await ctx.http.post(`${M}/sellback/quote`, { key, body: { wallet_address: w.address, token_ids: tokenIds } }), "quote").data as {
        eligible_token_ids: string[];
        total_payout_usdc: string;
      };
      ensure(q.eligible_token_ids.length > 0, `none of the revealed tokens ${tokenIds.join(", ")} is eligible for sell-back`);
      const body = { wallet_address: w.address, token_ids: q.eligible_token_ids };
      const prep = expectSuccess(await ctx.http.post(`${M}/sellback/prepare`, { key, body }), "prepare").data as { calls: Call[] };
      const receipt = await w.send(prep.calls);
      const rec = expectSuccess(await ctx.http.post(`${M}/sellback/submit`, { key, body: { transaction_hash: receipt.transactionHash } }), "submit").data as { total_usdc: string };
      ensure(rec.total_usdc === q.total_payout_usdc, `the sell-back recorded ${rec.total_usdc} USDC; ${q.total_payout_usdc} was quoted`);
      ctx.note(`sold ${q.eligible_token_ids.length} token(s) back for ${rec.total_usdc} USDC, as quoted`);
    },
  },
};
