import { invariant, type Problem } from "./invariant.ts";
import { cents, centsText, obj } from "./read.ts";

// Warehouse invoices: every line and every total adds up in integer cents.

/** The invoices of an answer: `data` (get) or `data.invoices` (list), with their pointers. */
function invoices(data: unknown): Array<{ inv: Record<string, unknown>; at: string }> {
  const d = obj(data);
  if (!d) return [];
  if (Array.isArray(d.invoices))
    return d.invoices.flatMap((v, i) => (obj(v) ? [{ inv: obj(v)!, at: `/data/invoices/${i}` }] : []));
  return Array.isArray(d.lines) ? [{ inv: d, at: "/data" }] : [];
}

const OPS = ["warehouse.invoices.list", "warehouse.invoices.get"];
const SOURCE = "docs/warehouse.md “Handovers, inbound, billing”";

export const WAREHOUSE_INVARIANTS = [
  invariant({
    id: "warehouse.invoice-line-amount",
    rule: "Every invoice line adds up: quantity × unit_amount = amount exactly (never an averaged unit price)",
    source: SOURCE,
    operations: OPS,
    check: (a) => {
      const out: Problem[] = [];
      for (const { inv, at } of invoices(a.data))
        (inv.lines as unknown[]).forEach((l, i) => {
          const line = obj(l);
          const [unit, amount] = [cents(line?.unit_amount), cents(line?.amount)];
          const q = line?.quantity;
          if (unit === null || amount === null || !Number.isInteger(q)) return;
          const want = BigInt(q as number) * unit;
          if (want !== amount)
            out.push({
              pointer: `${at}/lines/${i}/amount`,
              text: `expected quantity ${String(q)} × unit_amount ${String(line!.unit_amount)} = ${centsText(want)}, received ${JSON.stringify(line!.amount)}`,
            });
        });
      return out;
    },
  }),
  invariant({
    id: "warehouse.invoice-total",
    rule: "An invoice's lines sum to its total",
    source: SOURCE,
    operations: OPS,
    check: (a) => {
      const out: Problem[] = [];
      for (const { inv, at } of invoices(a.data)) {
        const amounts = (inv.lines as unknown[]).map((l) => cents(obj(l)?.amount));
        const total = cents(inv.total);
        if (total === null || amounts.some((x) => x === null)) continue;
        const want = amounts.reduce<bigint>((n, x) => n + x!, 0n);
        if (want !== total)
          out.push({
            pointer: `${at}/total`,
            text: `expected the lines' sum ${centsText(want)}, received ${JSON.stringify(inv.total)}`,
          });
      }
      return out;
    },
  }),
];
