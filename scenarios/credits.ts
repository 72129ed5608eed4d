import { decodePaymentResponseHeader } from "@x402/core/http";
import { paymentRequiredOf, signPayment } from "../harness/x402.ts";
import type { Scenario, ScenarioContext } from "./types.ts";

/** Scenarios of the credits area. */
export const creditsScenarios: Scenario[] = [
  {
    name: "topup-x402",
    title: "Top up credits over x402: 402 → sign → pay → credits; a replay grants nothing",
    description:
      "A partner asks for 10 USD of credits, gets the 402 challenge, signs the EIP-3009 authorization with a funded wallet (official x402 client), retries with PAYMENT-SIGNATURE and receives 5000 credits settled on the local chain. Replaying the same payment returns the original result.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const { http, control, keys, step, data } = ctx;
      const key = keys.demo!;
      const usage = async () =>
        data<{ balance: number; purchased_credits: number }>(
          await http.get("/api/v1/account/usage", { key }),
          200,
          "account usage",
        );

      step("1. read the balance: 500 free credits, nothing purchased");
      const start = await usage();
      ctx.expect(
        start.balance === 500 && start.purchased_credits === 0,
        `a fresh partner key should hold 500 free credits, got ${JSON.stringify(start)}`,
      );

      step("2. POST /api/v1/credits/topup?usd=10 without payment → 402 with PAYMENT-REQUIRED");
      const challenge = await http.post("/api/v1/credits/topup", { key, query: { usd: 10 } });
      ctx.expect(challenge.status === 402, `the top-up without payment should answer 402, got ${challenge.status}`);
      const required = paymentRequiredOf(challenge);
      const req = required.accepts[0]!;
      step(`   pay ${req.amount} atomic units of ${req.asset} on ${req.network} to ${req.payTo}`);

      step("3. sign the transfer authorization with a funded fixture wallet (gasless for the payer)");
      const payment = await signPayment(required, await ctx.run.endUserKey(0));

      step("4. retry with PAYMENT-SIGNATURE → 200, credits granted, settled on-chain");
      const paid = await http.post("/api/v1/credits/topup", {
        key,
        query: { usd: 10 },
        headers: { "PAYMENT-SIGNATURE": payment },
      });
      const result = data<{ credits_granted: number; balance_credits: number; usd: number; tx_hash: string }>(
        paid,
        200,
        "paid top-up",
      );
      ctx.expect(
        result.credits_granted === 5000 && result.balance_credits === 5500,
        `expected 5000 credits granted, balance 5500; got ${JSON.stringify(result)}`,
      );
      const settlement = decodePaymentResponseHeader(paid.headers["payment-response"]!);
      ctx.expect(
        settlement.success && settlement.transaction === result.tx_hash,
        "PAYMENT-RESPONSE must report the settlement transaction",
      );
      step(`   tx ${result.tx_hash} from ${settlement.payer}`);

      step("5. replay the same payment → the original result, nothing granted twice");
      const replay = data<{ tx_hash: string; balance_credits: number }>(
        await http.post("/api/v1/credits/topup", {
          key,
          query: { usd: 10 },
          headers: { "PAYMENT-SIGNATURE": payment },
        }),
        200,
        "replayed top-up",
      );
      ctx.expect(replay.tx_hash === result.tx_hash, "a replay returns the original tx_hash");
      const end = await usage();
      ctx.expect(
        end.balance === 5500 && end.purchased_credits === 5000,
        `balance must stay 5500 after the replay, got ${JSON.stringify(end)}`,
      );

      step("6. purchased credits never expire: a month later only the free part resets");
      await control.advance(31 * 24 * 3600_000);
      const later = await usage();
      ctx.expect(later.balance === 5500 && later.purchased_credits === 5000, `after a month: ${JSON.stringify(later)}`);
    },
  },
];
