import { balanceOf, monthOf } from "../../emulator/pipeline/metering.ts";
import { own } from "../../emulator/state/own.ts";
import { creditsSlice } from "../../emulator/areas/credits/state.ts";
import { dataOf, errorIs, is, keyOf, type Deviation, type Exchange } from "./deviation.ts";
import { isoOf } from "../../contract/time.ts";

// Deviations that break the credits area's rules (one per conformance check).

const isTopup = (x: Exchange) => x.url.pathname === "/api/v1/credits/topup";
const isUsage = (x: Exchange) => x.url.pathname === "/api/v1/account/usage";
const accountOf = (x: Exchange) => own(x.services.store.state.credits, x.req.headers.get("x-api-key") ?? "");

export const creditsDeviations: readonly Deviation[] = [
  {
    name: "usage_reset_not_month_start",
    breaks: "free credits reset at the next UTC month start (the deviation says a day earlier)",
    apply: (x) => {
      const d = dataOf(x);
      const period = d?.period as { end?: string } | undefined;
      if (isUsage(x) && x.status === 200 && d && typeof period?.end === "string")
        d.free_credits_reset_at = isoOf(Date.parse(period.end) - 86_400_000);
    },
  },
  {
    name: "usage_missing_plan",
    breaks: "account usage shows balance, plan and month-to-date usage",
    apply: (x) => {
      const d = dataOf(x);
      if (isUsage(x) && x.status === 200 && d) delete d.plan;
    },
  },
  {
    name: "usage_balance_mismatch",
    breaks: "account usage agrees with X-Credits-Remaining",
    apply: (x) => {
      const d = dataOf(x);
      if (isUsage(x) && x.status === 200 && d && typeof d.balance === "number") d.balance += 1;
    },
  },
  {
    name: "topup_amount_unchecked",
    breaks: "usd outside 5..1000 is 400 invalid_amount",
    apply: (x) => {
      if (isTopup(x) && errorIs(x, 400, "invalid_amount")) {
        x.status = 402;
        x.body = { success: false, message: "Payment required", error: "payment_required" };
      }
    },
  },
  {
    name: "x402_no_payment_required_header",
    breaks: "the 402 challenge carries PAYMENT-REQUIRED",
    apply: (x) => {
      if (isTopup(x) && x.status === 402) x.headers.delete("PAYMENT-REQUIRED");
    },
  },
  {
    name: "payment_response_wrong_payer",
    breaks: "PAYMENT-RESPONSE names the wallet that paid",
    apply: (x) => {
      const raw = x.headers.get("PAYMENT-RESPONSE");
      if (!isTopup(x) || x.status !== 200 || !raw) return;
      const settle = JSON.parse(Buffer.from(raw, "base64").toString("utf8")) as Record<string, unknown>;
      settle.payer = `0x${"00".repeat(19)}01`;
      x.headers.set("PAYMENT-RESPONSE", Buffer.from(JSON.stringify(settle)).toString("base64"));
    },
  },
  {
    name: "x402_wrong_amount",
    breaks: "the challenge asks for usd in stablecoin atomic units",
    apply: (x) => {
      const raw = x.headers.get("PAYMENT-REQUIRED");
      if (!isTopup(x) || !raw) return;
      const pr = JSON.parse(Buffer.from(raw, "base64").toString("utf8")) as { accepts: Array<{ amount: string }> };
      for (const a of pr.accepts) a.amount = (BigInt(a.amount) / 10n ** 6n).toString();
      x.headers.set("PAYMENT-REQUIRED", Buffer.from(JSON.stringify(pr)).toString("base64"));
    },
  },
  {
    name: "topup_short_grant",
    breaks: "500 credits per USD",
    apply: (x) => {
      const d = dataOf(x);
      const acct = accountOf(x);
      if (!isTopup(x) || x.status !== 200 || !d || !acct || x.headers.get("Idempotent-Replayed")) return;
      const cut = Math.floor(Number(d.credits_granted) / 2);
      acct.purchased -= cut;
      d.credits_granted = Number(d.credits_granted) - cut;
      d.balance_credits = balanceOf(acct);
    },
  },
  {
    name: "topup_replay_grants_again",
    breaks: "top-up is idempotent on the transaction",
    apply: (x) => {
      const d = dataOf(x);
      const acct = accountOf(x);
      if (isTopup(x) && x.status === 200 && d && acct && x.headers.get("Idempotent-Replayed"))
        acct.purchased += Number(d.credits_granted);
    },
  },
  {
    name: "bad_payment_accepted",
    breaks: "a bad payment is 402 naming the x402 reason, no credits",
    apply: (x) => {
      const details = x.body?.details as { x402_error?: string } | undefined;
      if (isTopup(x) && errorIs(x, 402, "insufficient_credits") && details?.x402_error === "payment_invalid") {
        x.status = 200;
        x.body = { success: true, data: { credits_granted: 0, balance_credits: 0, usd: 0, tx_hash: null } };
      }
    },
  },

  // Lifecycle deviations (conformance/checks/lifecycle.ts, one per scenario) break the rule a
  // lifecycle shows at its end, observed through the public API the scenario reads; where
  // that rule lives in later state rather than in one response, they change the state the
  // way a broken server would.
  {
    name: "lifecycle_purchased_credits_expire",
    breaks: "purchased credits never expire (only the free part resets monthly)",
    apply: (x) => {
      // Once a month boundary has passed since a top-up, the purchased pool is dropped with the free reset.
      const key = keyOf(x);
      const acct = key ? own(x.services.store.state.credits, key.key) : undefined;
      if (!key || !acct || !is(x, "GET", /^\/api\/v1\/account\/usage$/) || x.status !== 200) return;
      const month = monthOf(x.services.clock.now());
      const old = Object.values(creditsSlice(x.services.store).topups).some(
        (t) => t.key === key.key && t.settled_at.slice(0, 7) < month,
      );
      const d = dataOf(x);
      if (!old || !d || acct.purchased === 0) return;
      acct.purchased = 0;
      d.purchased_credits = 0;
      d.balance = balanceOf(acct);
      x.headers.set("X-Credits-Remaining", String(balanceOf(acct)));
    },
  },
];
