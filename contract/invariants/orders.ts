import { invariant, type Answer, type Problem } from "./invariant.ts";
import { obj, shownValue, type Obj } from "./read.ts";

// Warehouse orders and quotes: deadlines at the documented local cut-off, fields that go with each status,
// what a quote says it superseded, which carriers a destination allows, and the record a 409 carries.

const SOURCE = "docs/warehouse.md “Quotes and orders”";
const ORDER_READS = [
  "warehouse.orders.create",
  "warehouse.orders.get",
  "warehouse.orders.list",
  "warehouse.orders.cancel",
];

/** The orders of an answer: `data.orders` rows (list) or `data` itself, with their pointers. */
function orders(a: Answer): Array<{ o: Obj; at: string }> {
  const d = obj(a.data);
  if (!d) return [];
  if (Array.isArray(d.orders))
    return d.orders.flatMap((v, i) => (obj(v) ? [{ o: obj(v)!, at: `/data/orders/${i}` }] : []));
  return typeof d.status === "string" && "order_id" in d ? [{ o: d, at: "/data" }] : [];
}

/** The wall time in America/Chicago (CST or CDT as the date demands) of an ISO instant, as "HH:MM:SS.mmm". */
function central(iso: string): string | null {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: "America/Chicago",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(t));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("hour")}:${part("minute")}:${part("second")}.${String(t % 1000).padStart(3, "0")}`;
}

/** Statuses in which the order has a bought label (tracking number and label) and those in which it has none yet. */
const LABELLED: readonly string[] = Object.freeze(["LABEL_PURCHASED", "SHIPPED", "DELIVERED", "RETURNED"]);
const UNLABELLED: readonly string[] = Object.freeze(["PENDING_PAYMENT", "LABEL_PURCHASING"]);

export const ORDER_STATE_INVARIANTS = [
  invariant({
    id: "warehouse.deadline-central-cutoff",
    rule: "Deadlines are US Central business days: ship_by_at is 17:00 Central (CST or CDT as the date demands) and sla_due_at 17:00 Central one business day later, both returned in UTC",
    source: SOURCE,
    operations: ORDER_READS,
    check: (a) => {
      const out: Problem[] = [];
      for (const { o, at } of orders(a))
        for (const field of ["ship_by_at", "sla_due_at"] as const) {
          const v = o[field];
          const local = typeof v === "string" ? central(v) : null;
          if (local !== null && local !== "17:00:00.000")
            out.push({
              pointer: `${at}/${field}`,
              text: `expected 17:00 America/Chicago (the documented cut-off), received ${v} = ${local} Central`,
            });
        }
      return out;
    },
  }),
  invariant({
    id: "warehouse.order-status-fields",
    rule: "Once the label is bought (LABEL_PURCHASED, then SHIPPED, DELIVERED, RETURNED) an order carries its tracking_number and label_url; before (PENDING_PAYMENT, LABEL_PURCHASING) it has neither; a CANCELLED order says its cancel_reason and cancelled_at",
    source: SOURCE,
    operations: ORDER_READS,
    check: (a) => {
      const out: Problem[] = [];
      for (const { o, at } of orders(a)) {
        const s = String(o.status);
        const fields =
          LABELLED.includes(s) || UNLABELLED.includes(s)
            ? ["tracking_number", "label_url"]
            : s === "CANCELLED"
              ? ["cancel_reason", "cancelled_at"]
              : [];
        const want = LABELLED.includes(s) || s === "CANCELLED";
        for (const f of fields)
          if (f in o && (o[f] === null) === want)
            out.push({
              pointer: `${at}/${f}`,
              text: `an order in ${s} ${want ? "carries" : "has no"} ${f}, received ${shownValue(o[f])}`,
            });
      }
      return out;
    },
  }),
  invariant({
    id: "warehouse.quote-superseded",
    rule: "Re-quoting supersedes the caller's uncommitted quotes: the quote answers superseded_order_ids and the newest of them as superseded_order_id, null when none",
    source: SOURCE,
    operations: ["warehouse.quotes.create"],
    check: (a) => {
      const d = obj(a.data);
      const ids = d?.superseded_order_ids;
      if (!d || !Array.isArray(ids) || !ids.every((i) => Number.isInteger(i))) return [];
      const newest = ids.length ? Math.max(...(ids as number[])) : null;
      const out: Problem[] = [];
      if (d.superseded_order_id !== newest)
        out.push({
          pointer: "/data/superseded_order_id",
          text: `expected ${String(newest)} (the newest of superseded_order_ids ${JSON.stringify(ids)}), received ${shownValue(d.superseded_order_id)}`,
        });
      if (Number.isInteger(d.order_id) && ids.includes(d.order_id))
        out.push({
          pointer: "/data/superseded_order_ids",
          text: `a quote cannot supersede itself (order ${String(d.order_id)})`,
        });
      return out;
    },
  }),
  invariant({
    id: "warehouse.quote-carriers",
    rule: "A quote's rates come from carriers serving the destination: DHL Express ships internationally only, LSO domestically only",
    source: SOURCE,
    operations: ["warehouse.quotes.create"],
    check: (a) => {
      const d = obj(a.data);
      const country = obj(d?.address)?.country;
      if (!d || typeof country !== "string" || !Array.isArray(d.rates)) return [];
      const domestic = country.toUpperCase() === "US";
      const banned = domestic ? "dhl_express" : "lso";
      const out: Problem[] = [];
      d.rates.forEach((r, i) => {
        if (obj(r)?.carrier === banned)
          out.push({
            pointer: `/data/rates/${i}/carrier`,
            text: `${banned} does not ship ${domestic ? "domestically" : "internationally"} (destination ${country})`,
          });
      });
      return out;
    },
  }),
  invariant({
    id: "warehouse.conflict-carries-order",
    rule: "409s carry data with the conflicting resource's current state: committing a superseded quote is 409 quote_superseded (data: that order), a move the order's status forbids 409 invalid_status (data: the order)",
    source: SOURCE,
    operations: ["warehouse.orders.create", "warehouse.orders.cancel"],
    errors: true,
    check: (a, r) => {
      const env = obj(a.data);
      if (a.status !== 409 || !env || (env.code !== "quote_superseded" && env.code !== "invalid_status")) return [];
      const o = obj(env.data);
      if (!o || !Number.isInteger(o.order_id) || typeof o.status !== "string")
        return [
          {
            pointer: "/data",
            text: `a 409 ${String(env.code)} carries the order as it is now, received ${shownValue(env.data)}`,
          },
        ];
      const out: Problem[] = [];
      const named = /\/orders\/(\d+)\/cancel$/.exec(r.url.pathname)?.[1];
      if (named !== undefined && String(o.order_id) !== named)
        out.push({
          pointer: "/data/order_id",
          text: `expected order ${named} (the one cancelled), received ${String(o.order_id)}`,
        });
      if (env.code === "quote_superseded" && (o.status !== "CANCELLED" || o.cancel_reason !== "superseded"))
        out.push({
          pointer: "/data/status",
          text: `the superseded quote is CANCELLED with cancel_reason "superseded", received ${String(o.status)} / ${shownValue(o.cancel_reason)}`,
        });
      if (
        named !== undefined &&
        env.code === "invalid_status" &&
        (o.status === "PENDING_PAYMENT" || o.status === "LABEL_PURCHASED")
      )
        out.push({
          pointer: "/data/status",
          text: `cancel works in ${o.status}: the order carried does not explain the 409`,
        });
      return out;
    },
  }),
];
