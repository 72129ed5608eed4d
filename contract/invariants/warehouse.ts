import { invariant, type Problem } from "./invariant.ts";
import { cents, centsText, obj, rowsOf } from "./read.ts";

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
const CARDS = "docs/warehouse.md “Cards”";
const CARD_OPS = ["warehouse.cards.list", "warehouse.cards.get", "warehouse.inventory.list"];

/** The cards of an answer: `data` (get: itself or `data.card`) or the rows of a list, with their pointers. */
function cards(data: unknown): Array<{ card: Record<string, unknown>; at: string }> {
  const d = obj(data);
  if (d && "unique_id" in d) return [{ card: d, at: "/data" }];
  if (d && obj(d.card)) return [{ card: obj(d.card)!, at: "/data/card" }];
  const list = rowsOf(data);
  return list ? list.rows.flatMap((v, i) => (obj(v) ? [{ card: obj(v)!, at: `${list.at}/${i}` }] : [])) : [];
}
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
  invariant({
    id: "warehouse.card-value-combination",
    rule: 'A card\'s declared value follows its identity and pricing: pending identity, the tenant\'s {amount, source: "tenant"}; published and unpriced, null; published and priced, {amount, source: "service"}',
    source: CARDS,
    operations: CARD_OPS,
    check: (a) => {
      const out: Problem[] = [];
      for (const { card, at } of cards(a.data)) {
        const identity = obj(card.identity)?.status;
        const pricing = obj(card.pricing)?.status;
        if (!("declared_value" in card) || typeof identity !== "string" || typeof pricing !== "string") continue;
        const dv = card.declared_value === null ? null : obj(card.declared_value);
        const want =
          identity !== "confirmed"
            ? ["tenant", null]
            : pricing === "priced"
              ? ["service"]
              : pricing === "unpriced"
                ? [null]
                : null;
        const got = dv === null ? null : dv.source;
        if (want && !want.includes(got as string | null))
          out.push({
            pointer: `${at}/declared_value${dv ? "/source" : ""}`,
            text: `a card ${identity} / ${pricing} has ${want.map((w) => (w === null ? "no declared value" : `source ${JSON.stringify(w)}`)).join(" or ")}, received ${JSON.stringify(card.declared_value)}`,
          });
      }
      return out;
    },
  }),
  invariant({
    id: "warehouse.card-insured-110",
    rule: "A published, priced card shows decimal-string prices, insured = 110% of the market price (to the cent, half up), and the service's declared value is the market price in cents",
    source: CARDS,
    operations: CARD_OPS,
    check: (a) => {
      const out: Problem[] = [];
      for (const { card, at } of cards(a.data)) {
        const market = cents(obj(card.pricing)?.market_price);
        if (market === null) continue;
        const insured = cents(card.insured_price);
        const want = (market * 11n + 5n) / 10n;
        if (insured !== null && insured !== want)
          out.push({
            pointer: `${at}/insured_price`,
            text: `expected 110% of market_price ${centsText(market)} = ${centsText(want)}, received ${JSON.stringify(card.insured_price)}`,
          });
        const dv = obj(card.declared_value);
        if (dv?.source === "service" && Number.isInteger(dv.amount) && BigInt(dv.amount as number) !== market)
          out.push({
            pointer: `${at}/declared_value/amount`,
            text: `expected the market price in cents ${market}, received ${String(dv.amount)}`,
          });
      }
      return out;
    },
  }),
];
