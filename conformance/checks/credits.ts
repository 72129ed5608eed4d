import type { Hex } from "viem";
import { chainMissing, rpcMissing } from "./target.ts";
import { createPublicClient, decodeEventLog, http as viemHttp, parseAbiItem } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { runs, CheckFailure, type Check, type CheckContext } from "../types.ts";
import type { HttpResult } from "../../harness/http.ts";
import { paymentRequiredOf, signPayment } from "../../harness/x402.ts";
import { ensure, env, expectError, expectSuccess, intHeader } from "../assert.ts";
import { PROBE } from "./pipeline.ts";
import { isoOf } from "../../contract/time.ts";

// Checks of credits: account usage (read-only, free), the x402 top-up
// challenge (read-only: a 402 is never charged) and, against the emulator,
// real payments signed with a funded fixture wallet by the official client.

const TOPUP = "/api/v1/credits/topup";
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const USAGE = "/api/v1/account/usage";

/** Decodes PAYMENT-REQUIRED of a 402 (base64 JSON x402 v2 PaymentRequired). */
export function challengeOf(r: HttpResult, what: string): PaymentRequired {
  // docs/reference/api-rules.md “Error codes”: 402 insufficient_credits is also the x402 top-up challenge.
  expectError(r, 402, "insufficient_credits", what);
  try {
    return paymentRequiredOf(r);
  } catch (err) {
    throw new CheckFailure(`${what}: ${(err as Error).message}`);
  }
}

/** The suite's funded test wallet (sandbox: --wallet-key; emulator: a fixture account): its key signs the x402 authorization. */
function walletKey(ctx: CheckContext): Hex {
  ensure(ctx.wallet, "no test wallet");
  return ctx.wallet.privateKey;
}

/** Paying checks: sandbox writes with the partner key and the funded wallet, which pays `usdc`. */
const paying = (usdc: number) => ({ ...runs("sandbox", ["partnerKey", "wallet"]), spendUsdc: usdc });

function expectSuccessful(r: HttpResult): HttpResult {
  expectSuccess(r, "GET a card");
  return r;
}

async function balanceNow(ctx: CheckContext, key: string): Promise<number> {
  const r = await ctx.http.get(USAGE, { key });
  const d = expectSuccess(r, "GET /account/usage").data as { balance?: unknown };
  ensure(typeof d.balance === "number", "account usage must carry an integer balance");
  return d.balance;
}

async function pay(ctx: CheckContext, key: string, usd: number, wallet: Hex) {
  const pr = challengeOf(await ctx.http.post(TOPUP, { key, query: { usd } }), `top-up ${usd} USD without payment`);
  const payment = await signPayment(pr, wallet);
  const r = await ctx.http.post(TOPUP, { key, query: { usd }, headers: { "PAYMENT-SIGNATURE": payment } });
  return { pr, payment, r };
}

export const creditsChecks: Check[] = [
  {
    id: "credits.usage-shape",
    guards: "docs/reference/api-rules.md “Credit account”",
    profile: "credits",
    title: "Account usage shows balance, plan and month-to-date usage",
    rule: "GET /api/v1/account/usage: balance (integer credits), plan (Pay as you go), month-to-date usage.",
    ...runs("read-only", ["partnerKey"], 1),
    deviation: "usage_missing_plan",
    async run({ http, partnerKey, note }) {
      const d = expectSuccess(await http.get(USAGE, { key: partnerKey }), "GET /account/usage").data as Record<
        string,
        unknown
      >;
      ensure(Number.isInteger(d.balance), `balance must be an integer, got ${JSON.stringify(d.balance)}`);
      ensure(
        d.plan === "Pay as you go",
        `plan must be "Pay as you go" (the only available plan), got ${JSON.stringify(d.plan)}`,
      );
      ensure(
        typeof d.month_to_date_usage === "number",
        `month_to_date_usage must be a number, got ${JSON.stringify(d.month_to_date_usage)}`,
      );
      // Values, not presence: one billed read moves both the balance and the month's usage by its cost.
      const read = await http.get(PROBE, { key: partnerKey });
      const cost = intHeader(expectSuccessful(read), "X-Credits-Cost", "catalog read");
      const after = expectSuccess(await http.get(USAGE, { key: partnerKey }), "GET /account/usage after a read")
        .data as Record<string, unknown>;
      ensure(
        after.balance === (d.balance as number) - cost,
        `balance must fall by the read's cost ${cost}: ${String(d.balance)} → ${String(after.balance)}`,
      );
      ensure(
        after.month_to_date_usage === (d.month_to_date_usage as number) + cost,
        `month_to_date_usage must grow by the read's cost ${cost}: ${String(d.month_to_date_usage)} → ${String(after.month_to_date_usage)}`,
      );
      note(`balance ${d.balance}, month-to-date ${d.month_to_date_usage}`);
    },
  },
  {
    id: "credits.usage-period",
    guards:
      "docs/reference/api-rules.md “Credits and billing” (500 free credits per month, reset at the UTC month start)",
    profile: "credits",
    title: "Account usage's period and free-credit reset are the UTC month around the target's clock",
    rule: "period.month is the current UTC month; period.start its first instant, period.end and free_credits_reset_at the next month's first instant (UTC), and the target's clock lies within [start, end).",
    ...runs("read-only", ["partnerKey"]),
    deviation: "usage_reset_not_month_start",
    async run({ http, partnerKey, note }) {
      const r = await http.get(USAGE, { key: partnerKey });
      const d = expectSuccess(r, "GET /account/usage").data as {
        period: { month: string; start: string; end: string };
        free_credits_reset_at: string;
      };
      const [y, m] = d.period.month.split("-").map(Number) as [number, number];
      const start = isoOf(Date.UTC(y, m - 1, 1));
      const end = isoOf(Date.UTC(y, m, 1));
      ensure(
        Date.parse(d.period.start) === Date.parse(start),
        `period.start must be ${start} (the first instant of ${d.period.month}, UTC), got ${d.period.start}`,
      );
      ensure(
        Date.parse(d.period.end) === Date.parse(end),
        `period.end must be ${end} (the next UTC month's start), got ${d.period.end}`,
      );
      ensure(
        Date.parse(d.free_credits_reset_at) === Date.parse(end),
        `free_credits_reset_at must be ${end} (the next UTC month's start), got ${d.free_credits_reset_at}`,
      );
      // The target's own clock (its rolling window frees at most 60 s after now): now must lie in the period.
      const nowMax = intHeader(r, "X-RateLimit-Reset", "GET /account/usage") * 1000;
      ensure(
        nowMax - 61_000 < Date.parse(end) && nowMax >= Date.parse(start),
        `the target's clock (X-RateLimit-Reset ${nowMax / 1000} − 60 s) must lie within the period ${start} … ${end}`,
      );
      note(`period ${d.period.month}: ${start} … ${end}`);
    },
  },
  {
    id: "credits.usage-consistent",
    guards: "docs/reference/api-rules.md “Credit account” and “Credits and billing” (X-Credits-Remaining)",
    profile: "credits",
    title: "Account usage agrees with X-Credits-Remaining",
    rule: "X-Credits-Remaining is the balance after the call; the account usage balance is the same balance.",
    ...runs("read-only", ["partnerKey"], 1),
    deviation: "usage_balance_mismatch",
    async run({ http, partnerKey }) {
      const read = await http.get(PROBE, { key: partnerKey });
      expectSuccess(read, "GET a card");
      const remaining = intHeader(read, "X-Credits-Remaining", "catalog read");
      const u = await http.get(USAGE, { key: partnerKey });
      const d = expectSuccess(u, "GET /account/usage").data as { balance?: unknown };
      ensure(
        d.balance === remaining,
        `usage balance ${JSON.stringify(d.balance)} must equal the X-Credits-Remaining just seen (${remaining})`,
      );
      const own = u.headers["x-credits-remaining"];
      ensure(
        own === undefined || Number(own) === d.balance,
        `usage balance ${d.balance} disagrees with its own X-Credits-Remaining ${own}`,
      );
    },
  },
  {
    id: "credits.topup-invalid-amount",
    guards: "docs/reference/api-rules.md “Credits endpoints” and “Credits and billing” (5 to 1,000 USD per payment)",
    profile: "credits",
    title: "Top-up amounts outside 5..1000 USD → 400 invalid_amount",
    rule: "POST /api/v1/credits/topup?usd=<amount>: usd from 5 to 1000; a bad amount is 400 invalid_amount.",
    ...runs("read-only", ["partnerKey"]),
    deviation: "topup_amount_unchecked",
    async run({ http, partnerKey }) {
      for (const usd of ["4", "1001", "abc"])
        expectError(await http.post(TOPUP, { key: partnerKey, query: { usd } }), 400, "invalid_amount", `usd=${usd}`);
    },
  },
  {
    id: "x402.challenge",
    guards:
      "docs/reference/api-rules.md “Credits endpoints” (x402 top-up) and “Error codes” (402 is also the challenge)",
    applicable: chainMissing,
    profile: "x402",
    title: "A top-up without payment → 402 with a decodable PAYMENT-REQUIRED",
    rule: "First call returns 402 with header PAYMENT-REQUIRED (base64 payment requirements for the amount).",
    ...runs("read-only", ["partnerKey"]),
    deviation: "x402_no_payment_required_header",
    async run({ http, partnerKey, note }) {
      const r = await http.post(TOPUP, { key: partnerKey, query: { usd: 5 } });
      const pr = challengeOf(r, "top-up 5 USD without payment");
      ensure(env(r).success === false, "the 402 body must use the error envelope");
      const req = pr.accepts[0]!;
      ensure(req.scheme === "exact", `scheme must be "exact", got ${req.scheme}`);
      ensure(/^eip155:\d+$/.test(req.network), `network must be eip155:<chainId>, got ${req.network}`);
      ensure(
        /^0x[0-9a-fA-F]{40}$/.test(req.asset) && /^0x[0-9a-fA-F]{40}$/.test(req.payTo),
        "asset and payTo must be addresses",
      );
      ensure(req.maxTimeoutSeconds > 0, "maxTimeoutSeconds must be positive");
      ensure(
        typeof req.extra?.name === "string" && typeof req.extra?.version === "string",
        "extra must name the token's EIP-712 domain {name, version}",
      );
      note(`${req.network} asset ${req.asset} payTo ${req.payTo}`);
    },
  },
  {
    id: "x402.challenge-amount",
    guards: "docs/reference/api-rules.md “Credits endpoints” (payment requirements for the amount)",
    applicable: chainMissing,
    profile: "x402",
    title: "The challenge asks for the amount in stablecoin atomic units",
    rule: "PAYMENT-REQUIRED carries the payment requirements for the amount (USD stablecoin, 6 decimals).",
    ...runs("read-only", ["partnerKey"]),
    deviation: "x402_wrong_amount",
    async run({ http, partnerKey }) {
      for (const [usd, atomic] of [
        ["5", "5000000"],
        ["12.5", "12500000"],
        ["1000", "1000000000"],
      ] as const) {
        const pr = challengeOf(await http.post(TOPUP, { key: partnerKey, query: { usd } }), `top-up ${usd} USD`);
        ensure(
          pr.accepts[0]!.amount === atomic,
          `usd=${usd} must ask for ${atomic} atomic units, got ${pr.accepts[0]!.amount}`,
        );
      }
    },
  },
  {
    id: "x402.pay-grants-credits",
    guards: "docs/reference/api-rules.md “Top-up result” and “Credits and billing” (500 credits per 1 USD)",
    applicable: chainMissing,
    profile: "x402",
    title: "Paying the challenge grants 500 credits per USD",
    rule: "After the client signs a gasless transfer and retries, 200 with {credits_granted, balance_credits, usd, tx_hash}; 500 credits per 1 USD.",
    ...paying(6),
    deviation: "topup_short_grant",
    async run(ctx) {
      const key = ctx.partnerKey;
      const before = await balanceNow(ctx, key);
      const { r } = await pay(ctx, key, 6, walletKey(ctx));
      const d = expectSuccess(r, "top-up 6 USD with payment").data as Record<string, unknown>;
      ensure(d.credits_granted === 3000, `6 USD must grant 3000 credits, got ${JSON.stringify(d.credits_granted)}`);
      ensure(d.usd === 6, `usd must be 6, got ${JSON.stringify(d.usd)}`);
      ensure(
        typeof d.tx_hash === "string" && /^0x[0-9a-f]{64}$/i.test(d.tx_hash),
        "tx_hash must be a transaction hash",
      );
      ensure(r.headers["payment-response"], "a settled top-up carries PAYMENT-RESPONSE");
      const after = await balanceNow(ctx, key);
      ensure(
        after === before + 3000 && d.balance_credits === after,
        `balance must go ${before} → ${before + 3000}; got ${after} (balance_credits ${d.balance_credits})`,
      );
      ctx.note(`settled in ${d.tx_hash}`);
    },
  },
  {
    id: "x402.settlement-values",
    guards: "docs/reference/api-rules.md “Credits endpoints” (PAYMENT-RESPONSE carries the x402 SettleResponse)",
    applicable: rpcMissing,
    profile: "x402",
    title:
      "PAYMENT-RESPONSE names the challenge's network, the paying wallet and the settling transaction, as the chain shows it",
    rule: "A settled top-up's PAYMENT-RESPONSE is success with the challenge's network, the payer's address and tx_hash as transaction; on the chain that transaction succeeded and moved the challenge's amount of its asset from the payer to payTo.",
    ...paying(5),
    deviation: "payment_response_wrong_payer",
    async run(ctx) {
      const key = walletKey(ctx);
      const payer = privateKeyToAccount(key).address.toLowerCase();
      const { pr, r } = await pay(ctx, ctx.partnerKey, 5, key);
      const d = expectSuccess(r, "top-up 5 USD with payment").data as { tx_hash?: unknown };
      const raw = r.headers["payment-response"];
      ensure(raw, "a settled top-up carries PAYMENT-RESPONSE");
      let s: ReturnType<typeof decodePaymentResponseHeader>;
      try {
        s = decodePaymentResponseHeader(raw);
      } catch (e) {
        throw new CheckFailure(`PAYMENT-RESPONSE is not a base64 JSON SettleResponse: ${(e as Error).message}`);
      }
      const req = pr.accepts[0]!;
      ensure(s.success === true, `PAYMENT-RESPONSE success must be true, got ${JSON.stringify(s.success)}`);
      ensure(
        s.network === req.network,
        `PAYMENT-RESPONSE network must be the challenge's ${req.network}, got ${JSON.stringify(s.network)}`,
      );
      ensure(
        typeof s.payer === "string" && s.payer.toLowerCase() === payer,
        `PAYMENT-RESPONSE payer must be the paying wallet ${payer}, got ${JSON.stringify(s.payer)}`,
      );
      ensure(
        s.transaction === d.tx_hash,
        `PAYMENT-RESPONSE transaction must be the result's tx_hash ${String(d.tx_hash)}, got ${JSON.stringify(s.transaction)}`,
      );
      const chain = createPublicClient({ transport: viemHttp(ctx.wallet!.rpcUrl) });
      ensure(
        `eip155:${await chain.getChainId()}` === req.network,
        `the chain's id must be the challenge's network ${req.network}`,
      );
      const receipt = await chain.getTransactionReceipt({ hash: s.transaction as `0x${string}` });
      ensure(
        receipt.status === "success",
        `transaction ${s.transaction} must have succeeded on the chain, got ${receipt.status}`,
      );
      const moved = receipt.logs.some((log) => {
        if (log.address.toLowerCase() !== req.asset.toLowerCase()) return false;
        try {
          const ev = decodeEventLog({ abi: [TRANSFER], data: log.data, topics: log.topics });
          return (
            ev.args.from.toLowerCase() === payer &&
            ev.args.to.toLowerCase() === req.payTo.toLowerCase() &&
            ev.args.value === BigInt(req.amount)
          );
        } catch {
          return false;
        }
      });
      ensure(
        moved,
        `transaction ${s.transaction} must transfer ${req.amount} of the challenge's asset ${req.asset} from ${payer} to ${req.payTo}`,
      );
    },
  },
  {
    id: "x402.replay-idempotent",
    guards: "docs/reference/api-rules.md “Credits endpoints” (idempotent on the transaction hash)",
    applicable: chainMissing,
    profile: "x402",
    title: "Replaying a settled payment grants nothing twice",
    rule: "The top-up is idempotent on the transaction hash: a replay returns the original result.",
    ...paying(5),
    deviation: "topup_replay_grants_again",
    async run(ctx) {
      const key = ctx.partnerKey;
      const { payment, r } = await pay(ctx, key, 5, walletKey(ctx));
      const first = expectSuccess(r, "top-up 5 USD").data as Record<string, unknown>;
      const balance = await balanceNow(ctx, key);
      const again = await ctx.http.post(TOPUP, { key, query: { usd: 5 }, headers: { "PAYMENT-SIGNATURE": payment } });
      const second = expectSuccess(again, "replayed payment").data as Record<string, unknown>;
      ensure(second.tx_hash === first.tx_hash, "a replay must return the original tx_hash");
      ensure((await balanceNow(ctx, key)) === balance, "a replay must not grant credits again");
    },
  },
  {
    id: "x402.bad-payment-402",
    guards: "docs/reference/api-rules.md “Credits endpoints” (a bad payment is a 402 naming the reason)",
    applicable: chainMissing,
    profile: "x402",
    title: "A payment signed by the wrong wallet → 402 naming the reason, no credits",
    rule: "Every bad payment (bad signature, wrong amount, wrong payTo, …) gets a 402 naming the x402 reason, and no credits.",
    ...paying(0),
    deviation: "bad_payment_accepted",
    async run(ctx) {
      const key = ctx.partnerKey;
      const before = await balanceNow(ctx, key);
      const pr = challengeOf(await ctx.http.post(TOPUP, { key, query: { usd: 5 } }), "top-up 5 USD");
      // Signed for a lower amount than asked: the authorization's value does not match.
      const cheap = { ...pr, accepts: [{ ...pr.accepts[0]!, amount: "1000000" }] };
      const payload = JSON.parse(
        Buffer.from(await signPayment(cheap, walletKey(ctx)), "base64").toString("utf8"),
      ) as PaymentPayload;
      payload.accepted = pr.accepts[0]!;
      const r = await ctx.http.post(TOPUP, {
        key,
        query: { usd: 5 },
        headers: { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) },
      });
      expectError(r, 402, "insufficient_credits", "under-signed payment");
      const reason = (env(r).details as { reason?: unknown } | undefined)?.reason;
      ensure(typeof reason === "string" && reason.length > 0, "the 402 must name the x402 reason in details.reason");
      ensure((await balanceNow(ctx, key)) === before, "a refused payment must grant nothing");
      ctx.note(`reason: ${reason}`);
    },
  },
];
