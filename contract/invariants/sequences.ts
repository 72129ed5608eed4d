import { across, type Answer } from "./invariant.ts";
import { obj, rowsOf } from "./read.ts";
import { reachable, type AnyLifecycle } from "../lifecycle.ts";
import { INSTANT_PURCHASE, MYSTERY_PURCHASE } from "../lifecycles/purchases.ts";

// Rules about a sequence of answers: the same record read twice, a write then a read.

/** The purchases an answer holds: a list's rows, or `data` itself. */
const purchases = (a: Answer) => {
  const list = rowsOf(a.data);
  return list && !obj(a.data)?.status
    ? list.rows.map((record, i) => ({ record, pointer: `${list.at}/${i}` }))
    : [{ record: a.data, pointer: "/data" }];
};

const WALLET_READS: Readonly<Record<string, string>> = {
  "mystery.poolWallet.set": "pool",
  "mystery.poolWallet.get": "pool",
  "revenue.setPayoutWallet": "payout",
  "revenue.getPayoutWallet": "payout",
  "payoutWallet.set": "payout",
  "payoutWallet.get": "payout",
};

export const SEQUENCE_INVARIANTS = [
  across({
    id: "purchase.status-forward",
    rule: "A purchase moves along RESERVED → SUBMITTED → FULFILLED or ends REFUNDED / FAILED: read again, its status is one the lifecycle table (contract/lifecycles/purchases.ts) reaches from the status read before",
    source: "docs/reference/live-service.md “Purchases”",
    operations: [
      "gacha.purchase",
      "gacha.submit",
      "gacha.getPurchase",
      "gacha.listPurchases",
      "instant.submit",
      "instant.getPurchase",
      "instant.listPurchases",
    ],
    records: purchases,
    key: (record, _r, op) => {
      const p = obj(record);
      return p && typeof p.status === "string" && p.id !== undefined ? `${op.split(".")[0]}:${String(p.id)}` : null;
    },
    check: (prev, next) => {
      const [a, b] = [String(obj(prev.record)?.status), String(obj(next.record)?.status)];
      const lc = (next.operation.startsWith("instant.") ? INSTANT_PURCHASE : MYSTERY_PURCHASE) as AnyLifecycle;
      if (a === b || !lc.states.includes(a) || !lc.states.includes(b) || reachable(lc, a, b)) return [];
      return [
        {
          pointer: `${next.pointer}/status`,
          text: `no move of the ${lc.name} lifecycle leads from ${a} (read by ${prev.operation}) to ${b}`,
        },
      ];
    },
  }),
  across({
    id: "wallet.put-then-get",
    rule: "PUT pool-wallet / payout-wallet sets the wallet in force; a GET afterwards reads back the same address and chain",
    source: "docs/reference/live-service.md “Buyback offers and the pool wallet”",
    operations: Object.keys(WALLET_READS),
    key: (_record, r, op) => `${WALLET_READS[op]}:${r.key}`,
    check: (prev, next) => {
      if (next.request.method !== "GET") return [];
      const [a, b] = [obj(prev.record), obj(next.record)];
      if (!a || !b || typeof a.address !== "string" || typeof b.address !== "string") return [];
      const out = [];
      if (a.address.toLowerCase() !== b.address.toLowerCase())
        out.push({
          pointer: `${next.pointer}/address`,
          text: `expected ${a.address} (as ${prev.operation} answered), received ${b.address}`,
        });
      if (a.chain !== b.chain)
        out.push({
          pointer: `${next.pointer}/chain`,
          text: `expected ${String(a.chain)} (as ${prev.operation} answered), received ${String(b.chain)}`,
        });
      return out;
    },
  }),
];
