import { encodeFunctionData, parseEventLogs } from "viem";
import { BUYBACK_DISCOUNT_PERMILLE, cardNftAbi, mysteryPoolAbi } from "../../../../chain/index.ts";
import { ApiError, badRequest, conflict } from "../../../pipeline/errors.ts";
import { paginate, parseOffsetPage } from "../../../pipeline/pagination.ts";
import { ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import { own } from "../../../state/own.ts";
import { partnerFixture } from "../../../../fixtures/mystery/index.ts";
import { partner, route } from "../access.ts";
import { chainOf, ownerOf, receiptOf, tokenRecord } from "../chain-io.ts";
import { mystery, type SellbackRow } from "../state.ts";
import { intIn } from "../../../pipeline/identifiers.ts";
import { emit, isoAt, isTxHash, optIdentifier, parseUsdc, tokenIdParam, txLockKey, usdc, walletParam, type Body } from "../util.ts";

// Native sell-back (TIER model, service-facts §4.5): the original recipient
// sells pool-minted cards back inside their buyback window with
// MysteryPool.acceptCardBuyback; the payout comes from CardSellExecuted.

const TIER = ["TIER"] as const;
export const MAX_BATCH = 50;
const ZERO = "0x0000000000000000000000000000000000000000";

type Reason = "no_window" | "wrong_holder" | "window_expired" | "value_unknown";

function tokenIds(b: Body): string[] {
  const v = b.token_ids;
  if (!Array.isArray(v) || v.length === 0) throw badRequest("invalid_token_ids", "token_ids must be a non-empty array of token ids");
  if (v.length > MAX_BATCH) throw badRequest("too_many_tokens", `At most ${MAX_BATCH} tokens per sell-back batch (got ${v.length})`);
  const ids = v.map((x) => tokenIdParam(x, "token_ids[]"));
  if (ids.some((x) => x === null))
    throw badRequest("invalid_token_ids", "Every token id must be a uint256 in plain decimal (string or number; no sign, fraction, exponent, hex or leading zeros)");
  return [...new Set(ids as string[])];
}

async function quoteItems(c: HandlerContext, wallet: `0x${string}`, ids: string[]) {
  const chain = chainOf(c.services);
  const now = BigInt(Math.floor(c.services.clock.now() / 1000));
  const items = [];
  for (const id of ids) {
    const rec = await tokenRecord(chain, BigInt(id));
    const owner = await ownerOf(chain, BigInt(id));
    const expires = rec.originalRecipient === ZERO ? 0n : rec.mintedAt + 30n * 24n * 3600n;
    let reason: Reason | null = null;
    if (rec.originalRecipient === ZERO || rec.soldBack) reason = "no_window";
    else if (!owner || owner.toLowerCase() !== wallet.toLowerCase() || rec.originalRecipient.toLowerCase() !== wallet.toLowerCase()) reason = "wrong_holder";
    else if (now > expires) reason = "window_expired";
    else if (rec.oracleValue === 0n) reason = "value_unknown";
    const payout = (rec.oracleValue * BigInt(BUYBACK_DISCOUNT_PERMILLE)) / 1000n;
    items.push({
      token_id: id,
      eligible: reason === null,
      reason,
      expires_at: expires === 0n ? null : isoAt(Number(expires) * 1000),
      group_id: rec.groupId,
      oracle_value_usdc: usdc(rec.oracleValue),
      payout_usdc: usdc(reason === null ? payout : 0n),
      payout_micros: String(reason === null ? payout : 0n),
      from_raw_card_pack: true,
    });
  }
  const approved = await chain.publicClient.readContract({ address: chain.addresses.cardNft, abi: cardNftAbi, functionName: "isApprovedForAll", args: [wallet, chain.addresses.mysteryPool] });
  const liquidity = await chain.publicClient.readContract({ address: chain.addresses.mysteryPool, abi: mysteryPoolAbi, functionName: "liquidity" });
  const total = items.reduce((n, i) => n + BigInt(i.payout_micros), 0n);
  return { items, total, approvalNeeded: !approved, liquidity };
}

const CODE_OF: Record<Reason, string> = { no_window: "not_eligible", wrong_holder: "wrong_holder", window_expired: "window_expired", value_unknown: "value_unknown" };

/** End users of a partner: wallets that bought through it, plus its custodial users. */
function partnerWallets(c: HandlerContext): Set<string> {
  const acct = c.key!.account_id;
  const slice = mystery(c.services);
  const out = new Set<string>();
  for (const p of Object.values(slice.purchases)) if (p.account_id === acct) out.add(p.purchaser_address.toLowerCase());
  for (const u of Object.values(own(slice.end_users, acct) ?? {})) out.add(u.wallet_address.toLowerCase());
  for (const u of partnerFixture(acct).end_users) out.add(u.wallet_address.toLowerCase());
  return out;
}

function formatSellback(r: SellbackRow) {
  return {
    sellback_id: r.sellback_id,
    seller: r.seller,
    item_type: "CARD",
    token_ids: r.token_ids,
    total_usdc: usdc(r.total_micros),
    total_micros: r.total_micros,
    raw_card_count: r.token_ids.length,
    transaction_hash: r.transaction_hash,
    sold_at: r.sold_at,
  };
}

export const sellbackRoutes: RouteSpec[] = [
  route("POST", "/mystery/sellback/quote", partner("packs:read", TIER), "partner_read", async (c) => {
    const b = await c.object();
    const ids = tokenIds(b);
    const wallet = walletParam(b.wallet_address);
    const q = await quoteItems(c, wallet, ids);
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
    const q = await quoteItems(c, wallet, ids);
    const blocking = q.items.filter((i) => !i.eligible);
    if (blocking.length) {
      // All-or-nothing on chain: name the first blocking token and why.
      const reasons = new Set(blocking.map((i) => i.reason!));
      const code = reasons.size === 1 && blocking.length === ids.length ? CODE_OF[blocking[0]!.reason!] : "not_eligible";
      throw conflict(code, `Token ${blocking[0]!.token_id} cannot be sold back (${blocking[0]!.reason}); the batch is all-or-nothing`, {
        details: { token_id: blocking[0]!.token_id, reason: blocking[0]!.reason, blocking: blocking.map((i) => ({ token_id: i.token_id, reason: i.reason })) },
      });
    }
    if (q.liquidity < q.total) throw conflict("insufficient_liquidity", `The pool holds ${usdc(q.liquidity)} USDC; this batch pays ${usdc(q.total)}`);
    let minTotal: bigint;
    if (b.min_total_usdc !== undefined && b.min_total_usdc !== null) {
      const m = parseUsdc(b.min_total_usdc);
      if (m === null) throw badRequest("invalid_amount", "min_total_usdc must be a non-negative decimal USDC amount with at most 6 places");
      minTotal = m;
    } else {
      const bps = b.slippage_bps === undefined || b.slippage_bps === null ? 100 : intIn(b.slippage_bps, 0, 10_000);
      if (bps === null) throw badRequest("invalid_amount", "slippage_bps must be an integer between 0 and 10000");
      minTotal = (q.total * BigInt(10_000 - bps)) / 10_000n;
    }
    const chain = chainOf(c.services);
    const calls = [];
    if (q.approvalNeeded)
      calls.push({
        kind: "set-approval-for-all",
        to: chain.addresses.cardNft,
        data: encodeFunctionData({ abi: cardNftAbi, functionName: "setApprovalForAll", args: [chain.addresses.mysteryPool, true] }),
        description: "One-time: let the pool take the cards being sold back",
      });
    calls.push({
      kind: "sellback",
      to: chain.addresses.mysteryPool,
      data: encodeFunctionData({ abi: mysteryPoolAbi, functionName: "acceptCardBuyback", args: [ids.map(BigInt), minTotal] }),
      description: `Sell ${ids.length} card(s) back for about ${usdc(q.total)} USDC`,
    });
    return ok({
      chain_id: chain.chainId,
      contract: chain.addresses.mysteryPool,
      card_contract: chain.addresses.cardNft,
      buyback_pool: chain.addresses.mysteryPool,
      seller: wallet.toLowerCase(),
      token_ids: ids,
      quoted_payout_usdc: usdc(q.total),
      min_total: minTotal.toString(),
      min_total_usdc: usdc(minTotal),
      approval_needed: q.approvalNeeded,
      calls,
    });
  }),

  route("POST", "/mystery/sellback/submit", partner("packs:buyback", TIER), "partner_write", async (c) => {
    const b = await c.object();
    const hash = b.transaction_hash ?? b.tx_hash;
    if (hash === undefined || hash === null || hash === "") throw badRequest("missing_tx_hash", "transaction_hash is required");
    if (!isTxHash(hash)) throw badRequest("tx_unverified", "transaction_hash must be 0x followed by 64 hex characters");
    optIdentifier(b, "external_user_id");
    const claimed = b.wallet_address === undefined || b.wallet_address === null ? null : walletParam(b.wallet_address);
    const acct = c.key!.account_id;
    // Idempotent on the hash: parallel submits take turns; the first records, the rest answer that record.
    return withKeyLock(c.services.store, txLockKey(hash), async () => {
      const known = Object.values(mystery(c.services).sellbacks).find((r) => r.transaction_hash.toLowerCase() === hash.toLowerCase());
      if (known) {
        if (known.account_id !== acct) throw conflict("tx_already_recorded", "This sell-back is recorded for another partner");
        return ok(formatSellback(known));
      }
      const chain = chainOf(c.services);
      const receipt = await receiptOf(chain, hash);
      if (!receipt) throw badRequest("tx_unverified", "The transaction is not on the chain");
      if (receipt.status !== "success") throw badRequest("tx_reverted", "The sell-back transaction reverted on chain");
      const pool = chain.addresses.mysteryPool.toLowerCase();
      const sold = parseEventLogs({ abi: mysteryPoolAbi, eventName: "CardSellExecuted", logs: receipt.logs.filter((l) => l.address.toLowerCase() === pool) })[0];
      if (!sold) throw badRequest("tx_unverified", "The transaction has no MysteryPool CardSellExecuted log");
      const seller = sold.args.seller;
      if ((claimed && claimed.toLowerCase() !== seller.toLowerCase()) || !partnerWallets(c).has(seller.toLowerCase()))
        throw new ApiError(403, "seller_mismatch", `The on-chain seller ${seller} is not one of this partner's end users`, { details: { seller } });
      const row: SellbackRow = {
        sellback_id: c.services.store.nextId("mystery-sellback", 3001),
        account_id: acct,
        seller: seller.toLowerCase(),
        token_ids: sold.args.tokenIds.map(String),
        total_micros: sold.args.total.toString(),
        transaction_hash: receipt.transactionHash,
        sold_at: c.services.clock.nowIso(),
      };
      mystery(c.services).sellbacks[row.sellback_id] = row;
      emit(c.services, acct, "sellback.confirmed", String(row.sellback_id), {
        sellback_id: row.sellback_id,
        seller: row.seller,
        token_ids: row.token_ids,
        total_usdc: usdc(row.total_micros),
        transaction_hash: row.transaction_hash,
      });
      return ok(formatSellback(row));
    });
  }),

  route("GET", "/mystery/sellbacks", partner("packs:read", TIER), "partner_read", (c) => {
    const page = parseOffsetPage(c.query);
    const rows = Object.values(mystery(c.services).sellbacks)
      .filter((r) => r.account_id === c.key!.account_id)
      .sort((a, b) => b.sellback_id - a.sellback_id);
    const { items, pagination } = paginate(rows, page);
    return ok({ sellbacks: items.map(formatSellback) }, { pagination });
  }),
];
