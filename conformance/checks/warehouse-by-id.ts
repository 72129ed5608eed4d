import type { Check, CheckContext } from "../types.ts";
import { NotApplicable, runs } from "../types.ts";
import { ensure, sameFields } from "../assert.ts";
import { sameAcrossReads } from "../progress.ts";
import type { AnyLifecycle } from "../../contract/lifecycle.ts";
import { WITHDRAWAL } from "../../contract/lifecycles/withdrawal.ts";
import { runUnique } from "../isolate.ts";
import { data, shippableCard } from "./warehouse.ts";

// One resource, many routes: each warehouse record read by id equals its row in its list, field by
// field. Read-only: a used tenant account has these records (sites always, invoices and reports once a month
// closed, exceptions, withdrawals and transfers once any happened); on a tenant with none the check is not
// applicable, saying so. Emulator mode makes one first when the list is empty (through the control plane or a
// write). Each names its own deviation.

type Row = Record<string, unknown>;

interface Resource {
  /** The record's name in messages and in the check id. */
  name: string;
  /** The list route under /api/v1, the rows' key in its data, and the id field (also the by-id path segment). */
  list: string;
  rows: string;
  id: string;
  guards: string;
  deviation: string;
  /** The record's lifecycle, when it moves on by itself: a read by id may find it further along than its list. */
  lifecycle?: AnyLifecycle;
  /** Emulator mode: make one when the tenant has none. */
  make?(ctx: CheckContext, account: string): Promise<void>;
}

const article = (name: string) => (/^[aeiou]/.test(name) ? "An" : "A");
const closeMonth = async (ctx: CheckContext, account: string) => {
  await ctx.control!.request("POST", "/warehouse/billing/close", { account_id: account });
};

const RESOURCES: Resource[] = [
  {
    name: "site",
    list: "/sites",
    rows: "sites",
    id: "site_id",
    deviation: "site_by_id_timezone_utc",
    guards: "docs/reference/api-rules.md “Warehouse endpoints” (sites)",
  },
  {
    name: "invoice",
    list: "/invoices",
    rows: "invoices",
    id: "invoice_id",
    deviation: "invoice_by_id_total_in_cents",
    guards: "docs/reference/api-rules.md “Warehouse endpoints” (invoices)",
    make: closeMonth,
  },
  {
    name: "report",
    list: "/reports",
    rows: "reports",
    id: "report_id",
    deviation: "report_by_id_card_count_off",
    guards: "docs/reference/api-rules.md “Warehouse endpoints” (reports)",
    make: closeMonth,
  },
  {
    name: "exception",
    list: "/exceptions",
    rows: "exceptions",
    id: "exception_id",
    deviation: "exception_by_id_status_flipped",
    guards: "docs/reference/api-rules.md “Warehouse endpoints” (exceptions)",
    async make(ctx, account) {
      // Raised and resolved at once: nothing stays open on the tenant's account.
      const body = { account_id: account, kind: "other", message: "conformance check" };
      const e = await ctx.control!.request<{ exception_id: number }>("POST", "/warehouse/exceptions", body);
      await ctx.control!.request("POST", `/warehouse/exceptions/${e.exception_id}/resolve`);
    },
  },
  {
    name: "withdrawal",
    list: "/withdrawals",
    rows: "withdrawals",
    id: "withdrawal_id",
    deviation: "withdrawal_by_id_completed",
    lifecycle: WITHDRAWAL as AnyLifecycle,
    guards: "docs/reference/api-rules.md “Warehouse endpoints” (withdrawals)",
    async make(ctx) {
      const body = {
        unique_ids: [await shippableCard(ctx)],
        method: "pickup",
        idempotency_key: runUnique("withdrawal"),
      };
      data(await ctx.http.post("/api/v1/withdrawals", { key: ctx.tenantKey, body }), "POST /withdrawals", 201);
    },
  },
  {
    name: "transfer",
    list: "/card-transfers",
    rows: "transfers",
    id: "transfer_id",
    deviation: "transfer_by_id_accounts_swapped",
    guards: "docs/reference/api-rules.md “Warehouse endpoints” (card transfers)",
    async make(ctx, account) {
      // There and back: the card ends in the tenant's custody again, with two transfers listed.
      const card = await shippableCard(ctx);
      const peer = `conformance-peer-${Math.random().toString(36).slice(2, 8)}`;
      const peerKey = await ctx.control!.newKey({ kind: "tenant", account_id: peer });
      const transfer = (key: string, to: string) => {
        const body = { to_account_id: to, idempotency_key: runUnique("transfer") };
        return ctx.http.post(`/api/v1/cards/${card}/transfer`, { key, body });
      };
      data(await transfer(ctx.tenantKey, peer), "transfer out", 201);
      data(await transfer(peerKey, account), "transfer back", 201);
    },
  },
];

async function rowsOf(ctx: CheckContext, r: Resource): Promise<Row[]> {
  const res = await ctx.http.get(`/api/v1${r.list}`, { key: ctx.tenantKey, query: { limit: 100 } });
  const d = data(res, `GET ${r.list}`);
  ensure(Array.isArray(d[r.rows]), `GET ${r.list}: data.${r.rows} must be an array`);
  return d[r.rows] as Row[];
}

export const warehouseByIdChecks: Check[] = RESOURCES.map((r) => ({
  id: `warehouse.${r.name}-by-id-equals-listed`,
  guards: r.guards,
  profile: "warehouse",
  title: `${article(r.name)} ${r.name} fetched by id equals the ${r.name} listed, field by field`,
  rule:
    `One resource, many routes: GET ${r.list}/{${r.id}} answers the same fields and values ` +
    `as the ${r.name}'s row in GET ${r.list}.`,
  ...runs("read-only", ["tenantKey"]),
  deviation: r.deviation,
  async run(ctx) {
    let rows = await rowsOf(ctx, r);
    if (rows.length === 0 && ctx.control && r.make) {
      const info = data(await ctx.http.get("/api/v1/info", { key: ctx.tenantKey }), "GET /info");
      await r.make(ctx, (info.tenant as { account_id: string }).account_id);
      rows = await rowsOf(ctx, r);
    }
    if (rows.length === 0)
      throw new NotApplicable(`the tenant has no ${r.name} to compare (GET ${r.list} is empty on this account)`);
    for (const row of rows.slice(0, 5)) {
      const id = encodeURIComponent(String(row[r.id]));
      const byId = async () =>
        data(await ctx.http.get(`/api/v1${r.list}/${id}`, { key: ctx.tenantKey }), `GET ${r.list}/${id}`);
      const what = `${r.name} ${String(row[r.id])}`;
      if (!r.lifecycle) sameFields(await byId(), row, what);
      else {
        const listed = async () => {
          const again = (await rowsOf(ctx, r)).find((x) => x[r.id] === row[r.id]);
          ensure(again, `${what} missing from GET ${r.list} on a second read`);
          return again;
        };
        await sameAcrossReads(r.lifecycle, { byId, listed, first: "listed", firstRead: row }, what);
      }
    }
  },
}));

/** Makes one of each record a fresh tenant lacks (the control plane and the tenant's key): a used account's history. */
export async function makeWarehouseHistory(ctx: CheckContext, account: string): Promise<void> {
  for (const r of RESOURCES) if (r.make && (await rowsOf(ctx, r)).length === 0) await r.make(ctx, account);
}
