import { invariant, type Answer, type Problem } from "./invariant.ts";
import { isObj, obj, PURCHASE_ANSWERS, rowsOf, shownValue } from "./read.ts";
import { isoOf } from "../time.ts";

// Values, not only formats: a purchase's memo names that purchase, and a time is the wire's ISO-8601 form.

const SOURCE = "docs/reference/live-service.md “Money, ids and time”";

/** The purchases of an answer: a list's rows or `data` itself, with their pointers. */
function purchases(a: Answer): Array<{ p: Record<string, unknown>; at: string }> {
  const d = obj(a.data);
  if (d && "memo" in d) return [{ p: d, at: "/data" }];
  const list = rowsOf(a.data);
  return list ? list.rows.flatMap((v, i) => (obj(v) ? [{ p: obj(v)!, at: `${list.at}/${i}` }] : [])) : [];
}

/** An ISO-8601 UTC time as the wire writes it (fraction optional) or a calendar date. */
const WIRE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z)?$/;
const TIME_KEY = /(_at|^deadline|_deadline)$/;

function times(value: unknown, at: string, out: Problem[]): void {
  if (Array.isArray(value)) return value.forEach((v, i) => times(v, `${at}/${i}`, out));
  if (!isObj(value)) return;
  for (const [k, v] of Object.entries(value)) {
    if (k === "typed_data") continue; // EIP-712 messages carry unix seconds as uint256 strings (buyback.signed-terms)
    if (typeof v === "string" && TIME_KEY.test(k) && !(WIRE_TIME.test(v) && !Number.isNaN(Date.parse(v))))
      out.push({
        pointer: `${at}/${k}`,
        text: `expected an ISO-8601 UTC time (2026-01-15T12:00:00.000Z), received ${JSON.stringify(v)}`,
      });
    else times(v, `${at}/${k}`, out);
  }
}

export const RECORD_INVARIANTS = [
  invariant({
    id: "purchase.memo-names-it",
    rule: "A purchase's memo is <partner-slug>-<id>, an instant one <partner-slug>-instant-<id>; absent when the partner has no slug",
    source: SOURCE,
    operations: PURCHASE_ANSWERS,
    check: (a, _r) => {
      const out: Problem[] = [];
      for (const { p, at } of purchases(a)) {
        if (typeof p.memo !== "string" || p.id === undefined) continue;
        const instant = "packet_type_id" in p;
        const tail = `-${instant ? "instant-" : ""}${String(p.id)}`;
        const slug = p.memo.slice(0, -tail.length);
        if (!p.memo.endsWith(tail) || slug === "" || (!instant && slug.endsWith("-instant")))
          out.push({
            pointer: `${at}/memo`,
            text: `expected <partner-slug>${tail} (purchase ${String(p.id)}), received ${shownValue(p.memo)}`,
          });
      }
      return out;
    },
  }),
  invariant({
    id: "time.iso-utc",
    rule: "Timestamps are ISO-8601 (`*_at`, deadlines): the wire's UTC form, never another text Date.parse happens to accept",
    source: SOURCE,
    operations: "all",
    check: (a) => {
      const out: Problem[] = [];
      times(a.data, "/data", out);
      return out;
    },
  }),
  invariant({
    id: "buyback.signed-terms",
    rule: "An offer's typed_data message is what is signed: deadline (unix seconds) is the offer's deadline shown, price (micros) its price",
    source: "docs/reference/sdk-shapes.md “Buyback shapes”",
    operations: [
      "buyback.create",
      "buyback.createForPurchase",
      "buyback.offers",
      "buyback.purchaseOffers",
      "buyback.acceptPrepare",
    ],
    check: (a) => {
      const d = obj(a.data);
      const list = d && "typed_data" in d ? null : rowsOf(a.data);
      const offers = list ? list.rows.map((v, i) => ({ o: obj(v), at: `${list.at}/${i}` })) : [{ o: d, at: "/data" }];
      const out: Problem[] = [];
      for (const { o, at } of offers) {
        const m = obj(obj(o?.typed_data)?.message);
        if (!o || !m) continue;
        const shown = typeof o.deadline === "string" ? Date.parse(o.deadline) : NaN;
        if (!Number.isNaN(shown) && typeof m.deadline === "string" && String(Math.floor(shown / 1000)) !== m.deadline)
          out.push({
            pointer: `${at}/deadline`,
            text: `expected ${isoOf(Number(m.deadline) * 1000)} (typed_data.message.deadline ${m.deadline}, what is signed), received ${String(o.deadline)}`,
          });
        if (typeof o.price === "string" && typeof m.price === "string" && o.price !== m.price)
          out.push({
            pointer: `${at}/price`,
            text: `expected ${m.price} (typed_data.message.price, what is signed), received ${o.price}`,
          });
      }
      return out;
    },
  }),
];
