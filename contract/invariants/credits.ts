import { invariant, type Problem } from "./invariant.ts";
import { obj, shownValue } from "./read.ts";

// The credit account: a balance made of the month's free credits and the purchased ones.

const count = (v: unknown): number | null => (Number.isInteger(v) ? (v as number) : null);

export const CREDIT_INVARIANTS = [
  invariant({
    id: "credits.balance-split",
    rule: "The balance is the included free credits (reset each month to 500, never stacking) plus the purchased credits (which never expire)",
    source: "docs/reference/api-rules.md “Credits and billing”",
    operations: ["account.usage"],
    check: (a) => {
      const d = obj(a.data);
      const [balance, free, bought] = [count(d?.balance), count(d?.free_credits), count(d?.purchased_credits)];
      if (balance === null || free === null || bought === null || free + bought === balance) return [];
      return [
        {
          pointer: "/data/balance",
          text: `expected free_credits ${free} + purchased_credits ${bought} = ${free + bought}, received ${balance}`,
        },
      ];
    },
  }),
  invariant({
    id: "credits.x402-forms-agree",
    rule: "The top-up challenge is one payment in three forms: the PAYMENT-REQUIRED header (base64 x402 v2), details.payment_required (the same object) and the body's x402 v1 form (x402Version 1, accepts[] with maxAmountRequired), for usd × 10^6 atomic units",
    source: "docs/credits.md “Top up over x402”",
    operations: ["credits.topup"],
    errors: true,
    check: (a, r) => {
      const env = obj(a.data);
      const v2 = obj(obj(env?.details)?.payment_required);
      if (a.status !== 402 || !env || !v2) return [];
      const out: Problem[] = [];
      const req = obj((v2.accepts as unknown[] | undefined)?.[0]);
      const usd = /^(\d+)(?:\.(\d{1,2}))?$/.exec(r.url.searchParams.get("usd") ?? "");
      const want = usd ? (BigInt(usd[1]!) * 100n + BigInt((usd[2] ?? "0").padEnd(2, "0"))) * 10_000n : null;
      if (want !== null && req && req.amount !== String(want))
        out.push({
          pointer: "/details/payment_required/accepts/0/amount",
          text: `expected ${want} (usd ${r.url.searchParams.get("usd")} in 6-decimal units), received ${shownValue(req.amount)}`,
        });
      const v1 = obj((env.accepts as unknown[] | undefined)?.[0]);
      if (env.x402Version !== 1)
        out.push({
          pointer: "/x402Version",
          text: `the body's v1 form says 1, received ${shownValue(env.x402Version)}`,
        });
      if (req && v1)
        for (const [k1, k2] of [
          ["maxAmountRequired", "amount"],
          ["payTo", "payTo"],
          ["asset", "asset"],
          ["network", "network"],
          ["scheme", "scheme"],
        ] as const)
          if (v1[k1] !== req[k2])
            out.push({
              pointer: `/accepts/0/${k1}`,
              text: `expected ${shownValue(req[k2])} (the v2 challenge's ${k2}), received ${shownValue(v1[k1])}`,
            });
      const header = a.headers["payment-required"];
      if (header !== undefined) {
        let decoded: unknown = null;
        try {
          decoded = JSON.parse(atob(header));
        } catch {
          decoded = null;
        }
        if (JSON.stringify(decoded) !== JSON.stringify(v2))
          out.push({
            pointer: "PAYMENT-REQUIRED",
            text: "the header's decoded x402 v2 object differs from details.payment_required",
          });
      }
      return out;
    },
  }),
];
