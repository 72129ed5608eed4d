import { invariant } from "./invariant.ts";
import { obj } from "./read.ts";

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
];
