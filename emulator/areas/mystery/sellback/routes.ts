import { badRequest } from "../../../pipeline/errors.ts";
import { intIn } from "../../../pipeline/identifiers.ts";
import { paginate, parseOffsetPage } from "../../../pipeline/pagination.ts";
import { ok, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, route } from "../access.ts";
import { isTxHash, optIdentifier, parseUsdc, tokenIdParam, usdc, walletParam, type Body } from "../util.ts";
import { checkSellable, formatSellback, quoteSellback, sellbackCalls, sellbacksOf, submitSellback } from "./sellback.ts";

// Sell-back endpoints (TIER model; a POOL key gets 403 not_tier_partner).

const TIER = ["TIER"] as const;
const MAX_BATCH = 50;

function tokenIds(b: Body): string[] {
  const v = b.token_ids;
  if (!Array.isArray(v) || v.length === 0) throw badRequest("invalid_token_ids", "token_ids must be a non-empty array of token ids");
  if (v.length > MAX_BATCH) throw badRequest("too_many_tokens", `At most ${MAX_BATCH} tokens per sell-back batch (got ${v.length})`);
  const ids = v.map((x) => tokenIdParam(x, "token_ids[]"));
  if (ids.some((x) => x === null))
    throw badRequest("invalid_token_ids", "Every token id must be a uint256 in plain decimal (string or number; no sign, fraction, exponent, hex or leading zeros)");
  return [...new Set(ids as string[])];
}

/** min_total_usdc, else the quoted total less slippage_bps (default 100). */
function minTotalOf(b: Body, total: bigint): bigint {
  if (b.min_total_usdc !== undefined && b.min_total_usdc !== null) {
    const m = parseUsdc(b.min_total_usdc);
    if (m === null) throw badRequest("invalid_amount", "min_total_usdc must be a non-negative decimal USDC amount with at most 6 places");
    return m;
  }
  const bps = b.slippage_bps === undefined || b.slippage_bps === null ? 100 : intIn(b.slippage_bps, 0, 10_000);
  if (bps === null) throw badRequest("invalid_amount", "slippage_bps must be an integer between 0 and 10000");
  return (total * BigInt(10_000 - bps)) / 10_000n;
}

export const sellbackRoutes: RouteSpec[] = [
  route("POST", "/mystery/sellback/quote", partner("packs:read", TIER), "partner_read", async (c) => {
    const b = await c.object();
    const ids = tokenIds(b);
    const wallet = walletParam(b.wallet_address);
    const q = await quoteSellback(c.services, wallet, ids);
    return ok({
      seller: wallet.toLowerCase(),
      items: q.items,
      eligible_token_ids: q.items.filter((i) => i.eligible).map((i) => i.token_id),
      total_payout_micros: q.total.toString(),
      total_payout_usdc: usdc(q.total),
      approval_needed: q.approvalNeeded,
      pool_liquidity_usdc: usdc(q.liquidity),
      sufficient_liquidity: q.liquidity >= q.total,
    });
  }),

  route("POST", "/mystery/sellback/prepare", partner("packs:buyback", TIER), "partner_write", async (c) => {
    const b = await c.object();
    const ids = tokenIds(b);
    const wallet = walletParam(b.wallet_address);
    const q = await quoteSellback(c.services, wallet, ids);
    checkSellable(q, ids);
    return ok(sellbackCalls(c.services, wallet, ids, q, minTotalOf(b, q.total)));
  }),

  route("POST", "/mystery/sellback/submit", partner("packs:buyback", TIER), "partner_write", async (c) => {
    const b = await c.object();
    const hash = b.transaction_hash ?? b.tx_hash;
    if (hash === undefined || hash === null || hash === "") throw badRequest("missing_tx_hash", "transaction_hash is required");
    if (!isTxHash(hash)) throw badRequest("tx_unverified", "transaction_hash must be 0x followed by 64 hex characters");
    optIdentifier(b, "external_user_id");
    const claimed = b.wallet_address === undefined || b.wallet_address === null ? null : walletParam(b.wallet_address);
    return ok(formatSellback(await submitSellback(c.services, c.key!.account_id, hash, claimed)));
  }),

  route("GET", "/mystery/sellbacks", partner("packs:read", TIER), "partner_read", (c) => {
    const page = parseOffsetPage(c.query);
    const { items, pagination } = paginate(sellbacksOf(c.services, c.key!.account_id), page);
    return ok({ sellbacks: items.map(formatSellback) }, { pagination });
  }),
];
