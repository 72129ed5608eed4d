import { across, type Answer } from "./invariant.ts";
import { obj, PURCHASE_ANSWERS, rowsOf } from "./read.ts";
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

/** The stock rows of a catalog answer, or the purchases of a purchase answer. */
const stockRecords = (a: Answer) => {
  const packs = obj(a.data)?.packs;
  return Array.isArray(packs) ? packs.map((record, i) => ({ record, pointer: `/data/packs/${i}` })) : purchases(a);
};

/** What the stock rule remembers of a packet type: the catalog's reading and the units bought since. */
interface Stock {
  available: number;
  bought: number;
  counted: readonly unknown[];
}
const stockOf = (v: unknown): Stock | null => {
  const s = obj(v);
  return s && typeof s.available === "number" && typeof s.bought === "number" ? (s as unknown as Stock) : null;
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
    operations: PURCHASE_ANSWERS,
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
  across({
    id: "webhooks.update-then-get",
    // Beyond the live service (docs/reference/live-service.md “Webhook registry” says it has no update route):
    // held wherever a target serves one, as the emulator does.
    rule: "PATCH (or PUT) /api/v1/webhooks/:id answers data.webhook (updated_at moves): the webhook as it now is, so GET /webhooks/{id} right after it answers the same fields and values",
    source: "docs/webhooks.md “Registry (`webhooks:manage`; partner and tenant keys)”",
    operations: ["webhooks.update", "webhooks.replace", "webhooks.get"],
    key: (record, r) => {
      const id = obj(obj(record)?.webhook)?.id;
      return typeof id === "number" ? `${r.key}:${id}` : null;
    },
    check: (prev, next) => {
      if (prev.operation === "webhooks.get" || next.operation !== "webhooks.get") return [];
      const [a, b] = [obj(obj(prev.record)?.webhook), obj(obj(next.record)?.webhook)];
      if (!a || !b) return [];
      return [...new Set([...Object.keys(a), ...Object.keys(b)])]
        .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
        .map((k) => ({
          pointer: `${next.pointer}/webhook/${k}`,
          text: `expected ${JSON.stringify(a[k]) ?? "nothing"} (as ${prev.operation} answered), received ${JSON.stringify(b[k]) ?? "nothing"}`,
        }));
    },
  }),
  across({
    id: "instant.stock-falls",
    rule: "available_packs is the on-chain stock; a purchase reserves its unit at once, a refund or failure gives it back: read again after a purchase, a pack's stock has fallen by at least the units bought",
    // Not on a reference page: live-service.md “Instant packs” names available_packs but states no stock movement.
    source: "docs/instant.md “Choices”",
    operations: ["instant.catalog", "instant.submit", "instant.getPurchase", "instant.listPurchases"],
    records: stockRecords,
    key: (record) => {
      const r = obj(record);
      return r && Number.isInteger(r.packet_type_id) ? `stock:${String(r.packet_type_id)}` : null;
    },
    carry: (prev, next) => {
      const r = obj(next.record)!;
      if (typeof r.available_packs === "number")
        return { ...next, record: { available: r.available_packs, bought: 0, counted: [] } satisfies Stock };
      const s = prev && stockOf(prev.record);
      // A purchase before any reading, or one that gave its unit back (refunded, failed): nothing to hold a reading to.
      if (!prev || !s || r.status === "REFUNDED" || r.status === "FAILED") return null;
      if (s.counted.includes(r.id) || !Number.isInteger(r.quantity)) return prev;
      return { ...prev, record: { ...s, bought: s.bought + (r.quantity as number), counted: [...s.counted, r.id] } };
    },
    check: (prev, next) => {
      const s = stockOf(prev.record);
      const now = obj(next.record)?.available_packs;
      if (!s || s.bought === 0 || typeof now !== "number" || now <= s.available - s.bought) return [];
      return [
        {
          pointer: `${next.pointer}/available_packs`,
          text: `expected at most ${s.available - s.bought} (${s.available} read before, ${s.bought} bought since: purchases ${s.counted.join(", ")}), received ${now}`,
        },
      ];
    },
  }),
];
