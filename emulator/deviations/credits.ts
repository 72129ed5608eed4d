import { balanceOf } from "../pipeline/metering.ts";
import { errorIs, type Deviation, type Exchange } from "./deviation.ts";

// Deviations that break the credits area's rules (one per conformance check).

const isTopup = (x: Exchange) => x.url.pathname === "/api/v1/credits/topup";
const isUsage = (x: Exchange) => x.url.pathname === "/api/v1/account/usage";
const dataOf = (x: Exchange) => (x.body?.data ?? null) as Record<string, unknown> | null;
const accountOf = (x: Exchange) => x.services.store.state.credits[x.req.headers.get("x-api-key") ?? ""];

export const creditsDeviations: readonly Deviation[] = [
  { name: "usage_missing_plan", breaks: "account usage shows balance, plan and month-to-date usage", apply: (x) => {
      const d = dataOf(x);
      if (isUsage(x) && x.status === 200 && d) delete d.plan;
    } },
  { name: "usage_balance_mismatch", breaks: "account usage agrees with X-Credits-Remaining", apply: (x) => {
      const d = dataOf(x);
      if (isUsage(x) && x.status === 200 && d && typeof d.balance === "number") d.balance += 1;
    } },
  { name: "topup_amount_unchecked", breaks: "usd outside 5..1000 is 400 invalid_amount", apply: (x) => {
      if (isTopup(x) && errorIs(x, 400, "invalid_amount")) {
        x.status = 402;
        x.body = { success: false, message: "Payment required", error: "payment_required" };
      }
    } },
  { name: "x402_no_payment_required_header", breaks: "the 402 challenge carries PAYMENT-REQUIRED", apply: (x) => {
      if (isTopup(x) && x.status === 402) x.headers.delete("PAYMENT-REQUIRED");
    } },
  { name: "x402_wrong_amount", breaks: "the challenge asks for usd in stablecoin atomic units", apply: (x) => {
      const raw = x.headers.get("PAYMENT-REQUIRED");
      if (!isTopup(x) || !raw) return;
      const pr = JSON.parse(Buffer.from(raw, "base64").toString("utf8")) as { accepts: Array<{ amount: string }> };
      for (const a of pr.accepts) a.amount = (BigInt(a.amount) / 10n ** 6n).toString();
      x.headers.set("PAYMENT-REQUIRED", Buffer.from(JSON.stringify(pr)).toString("base64"));
    } },
  { name: "topup_short_grant", breaks: "500 credits per USD", apply: (x) => {
      const d = dataOf(x);
      const acct = accountOf(x);
      if (!isTopup(x) || x.status !== 200 || !d || !acct || x.headers.get("Idempotent-Replayed")) return;
      const cut = Math.floor(Number(d.credits_granted) / 2);
      acct.purchased -= cut;
      d.credits_granted = Number(d.credits_granted) - cut;
      d.balance_credits = balanceOf(acct);
    } },
  { name: "topup_replay_grants_again", breaks: "top-up is idempotent on the transaction", apply: (x) => {
      const d = dataOf(x);
      const acct = accountOf(x);
      if (isTopup(x) && x.status === 200 && d && acct && x.headers.get("Idempotent-Replayed")) acct.purchased += Number(d.credits_granted);
    } },
  { name: "bad_payment_accepted", breaks: "a bad payment is 402 naming the x402 reason, no credits", apply: (x) => {
      const details = x.body?.details as { x402_error?: string } | undefined;
      if (isTopup(x) && errorIs(x, 402, "insufficient_credits") && details?.x402_error === "payment_invalid") {
        x.status = 200;
        x.body = { success: true, data: { credits_granted: 0, balance_credits: 0, usd: 0, tx_hash: null } };
      }
    } },
];
