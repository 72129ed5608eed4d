import { invariant, type Answer, type AskedFor, type Problem } from "./invariant.ts";
import { obj, rowsOf } from "./read.ts";

// Lists with a documented order, checked for the order and not only for membership.

type Key = number | string | undefined;

/** A row's sort value for `field`: digit strings and numbers as numbers (hp "120"), text case-insensitively. */
function keyOf(row: unknown, field: string): Key {
  const v = obj(row)?.[field];
  if (typeof v === "number") return v;
  if (typeof v !== "string" || v === "") return undefined;
  return /^\d+$/.test(v) ? Number(v) : v.toLowerCase();
}

/** The one orderBy key of a Card Data search whose field the rows carry, or null (a compound or nested key). */
function singleKey(a: Answer, q: URLSearchParams, rows: unknown[]): { field: string; dir: 1 | -1 } | null {
  const raw = q.get("orderBy")?.trim();
  if (!raw || raw.includes(",")) return null;
  const field = raw.replace(/^-/, "").toLowerCase();
  if (!/^[a-z_]+$/.test(field) || !rows.some((r) => obj(r) && field in obj(r)!)) return null;
  const kinds = new Set(rows.map((r) => typeof keyOf(r, field)).filter((t) => t !== "undefined"));
  return kinds.size <= 1 && a.status === 200 ? { field, dir: raw.startsWith("-") ? -1 : 1 } : null;
}

/** Lists documented newest first, by operation: the rows' time field. */
const NEWEST_FIRST: Readonly<Record<string, string>> = {
  "gacha.listPurchases": "created_at",
  "instant.listPurchases": "created_at",
  "wallet.ledger": "created_at",
  "webhooks.deliveries": "created_at",
};

const CARD_DATA_LISTS = ["cards.search", "expansions.search", "expansions.cards", "sealed.search"];

export const ORDER_INVARIANTS = [
  invariant({
    id: "catalog.ties-by-id",
    rule: "Sorted Card Data results break ties on the unique `id` (orderBy ascending, `-field` descending, missing values last)",
    source: "docs/reference/live-service.md “Pagination”",
    operations: CARD_DATA_LISTS,
    check: (a, r: AskedFor) => {
      const list = rowsOf(a.data);
      if (!list) return [];
      const order = singleKey(a, r.url.searchParams, list.rows);
      if (!order) return [];
      const out: Problem[] = [];
      for (let i = 1; i < list.rows.length; i++) {
        const [p, n] = [keyOf(list.rows[i - 1], order.field), keyOf(list.rows[i], order.field)];
        const [pid, nid] = [String(obj(list.rows[i - 1])?.id), String(obj(list.rows[i])?.id)];
        const at = `${list.at}/${i}`;
        if (p === undefined && n !== undefined)
          out.push({
            pointer: at,
            text: `a row with ${order.field} follows one without it (missing values sort last)`,
          });
        else if (p !== undefined && n !== undefined && p !== n && (p < n ? 1 : -1) !== order.dir)
          out.push({
            pointer: at,
            text: `${order.field} ${String(n)} after ${String(p)} is not in orderBy=${r.url.searchParams.get("orderBy")} order`,
          });
        else if (p === n && !(pid < nid))
          out.push({
            pointer: `${at}/id`,
            text: `a tie on ${order.field} (${String(n)}) must be broken by id ascending, received ${JSON.stringify(nid)} after ${JSON.stringify(pid)}`,
          });
      }
      return out;
    },
  }),
  invariant({
    id: "catalog.printings-anchor-first",
    rule: "/{game}/cards/{id}/printings: every printing sharing the card's code, the anchor's language first",
    source: "docs/reference/live-service.md “Card Data endpoints”",
    operations: ["cards.printings"],
    check: (a, r) => {
      const rows = Array.isArray(a.data) ? a.data : null;
      const id = decodeURIComponent(r.url.pathname.split("/").at(-2) ?? "");
      const anchor = rows?.map(obj).find((row) => row?.id === id);
      if (!rows || !anchor || typeof anchor.language_code !== "string") return [];
      const first = rows.findIndex((row) => obj(row)?.language_code !== anchor.language_code);
      const late =
        first === -1 ? -1 : rows.findIndex((row, i) => i > first && obj(row)?.language_code === anchor.language_code);
      return late === -1
        ? []
        : [
            {
              pointer: `/data/${late}/language_code`,
              text: `the anchor's language ${JSON.stringify(anchor.language_code)} comes first, received it after ${JSON.stringify(obj(rows[first])?.language_code)} at /data/${first}`,
            },
          ];
    },
  }),
  invariant({
    id: "vision.candidates-by-confidence",
    rule: "Vision identify lists its candidates best first: confidence never rises down the list",
    source: "docs/vision.md “The result”",
    operations: ["vision.identify"],
    check: (a) => {
      const c = obj(a.data)?.candidates;
      if (!Array.isArray(c)) return [];
      const out: Problem[] = [];
      for (let i = 1; i < c.length; i++) {
        const [p, n] = [obj(c[i - 1])?.confidence, obj(c[i])?.confidence];
        if (typeof p === "number" && typeof n === "number" && n > p)
          out.push({
            pointer: `/data/candidates/${i}/confidence`,
            text: `expected at most ${p} (the candidate before), received ${n}`,
          });
      }
      return out;
    },
  }),
  invariant({
    id: "list.newest-first",
    rule: "GET /mystery/purchases, /instant/purchases, /wallet/ledger and /webhooks/deliveries list newest first: created_at never rises down the list, and rows of one instant come newest (highest id) first",
    source: "docs/reference/live-service.md “Webhook registry”",
    operations: Object.keys(NEWEST_FIRST),
    check: (a, _r: AskedFor) => {
      const list = rowsOf(a.data);
      if (!list) return [];
      const out: Problem[] = [];
      for (let i = 1; i < list.rows.length; i++) {
        const [p, n] = [obj(list.rows[i - 1]), obj(list.rows[i])];
        const [pt, nt] = [Date.parse(String(p?.created_at)), Date.parse(String(n?.created_at))];
        if (Number.isNaN(pt) || Number.isNaN(nt)) continue;
        const at = `${list.at}/${i}`;
        if (nt > pt)
          out.push({
            pointer: `${at}/created_at`,
            text: `newest first: ${String(n!.created_at)} comes after the older ${String(p!.created_at)}`,
          });
        else if (nt === pt && typeof p!.id === "number" && typeof n!.id === "number" && n!.id > p!.id)
          out.push({
            pointer: `${at}/id`,
            text: `of two rows created at ${String(n!.created_at)}, the newer (id ${n!.id}) comes first, received it after id ${p!.id}`,
          });
      }
      return out;
    },
  }),
];
