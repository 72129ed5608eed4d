import { SELLBACK, SELLBACK_INPUT } from "../../../../contract/index.ts";
import { checkLater } from "../../../pipeline/schema.ts";
import { paginate } from "../../../pipeline/pagination.ts";
import { ok, serve, type RouteSpec } from "../../../pipeline/route.ts";
import {
  checkSellable,
  formatSellback,
  quoteSellback,
  quoteWire,
  sellbackCalls,
  sellbacksOf,
  submitSellback,
} from "./sellback.ts";

// Sell-back endpoints (contract/mystery/sellback.ts; TIER model).

/** min_total_usdc, else the quoted total less slippage_bps (default 100). */
function minTotalOf(b: { min_total_usdc?: unknown; slippage_bps?: unknown }, total: bigint): bigint {
  const m = checkLater(SELLBACK_INPUT.minTotal, b.min_total_usdc, "min_total_usdc");
  if (m !== null) return m;
  const bps = checkLater(SELLBACK_INPUT.slippage, b.slippage_bps, "slippage_bps");
  return (total * BigInt(10_000 - bps)) / 10_000n;
}

export const sellbackRoutes: RouteSpec[] = [
  serve(SELLBACK.quote, {
    gate: "partner_read",
    handle: async (c) => {
      const { token_ids: ids, wallet_address: wallet } = c.input.body;
      return ok(quoteWire(wallet, await quoteSellback(c.services, wallet, ids)));
    },
  }),

  serve(SELLBACK.prepare, {
    gate: "partner_write",
    handle: async (c) => {
      const b = c.input.body;
      const ids = b.token_ids;
      const q = await quoteSellback(c.services, b.wallet_address, ids);
      checkSellable(q, ids);
      return ok(sellbackCalls(c.services, b.wallet_address, ids, q, minTotalOf(b, q.total)));
    },
  }),

  serve(SELLBACK.submit, {
    gate: "partner_write",
    handle: async (c) => {
      const { hash, claimed } = c.input.body;
      return ok(formatSellback(await submitSellback(c.services, c.key!.account_id, hash, claimed)));
    },
  }),

  serve(SELLBACK.list, {
    gate: "partner_read",
    handle: (c) => {
      const { items, pagination } = paginate(sellbacksOf(c.services, c.key!.account_id), c.input.query);
      return ok({ sellbacks: items.map(formatSellback) }, { pagination });
    },
  }),
];
