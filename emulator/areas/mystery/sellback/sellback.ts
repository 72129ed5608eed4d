import { encodeFunctionData, parseEventLogs } from "../../../../chain/viem-late.ts";
import { cardNftAbi, mysteryPoolAbi } from "../../../../chain/index.ts";
import type {
  SellbackPrepareResult,
  SellbackQuote as SellbackQuoteWire,
  SellbackQuoteItem,
  SellbackReason,
  SellbackRecord,
} from "../../../../contract/index.ts";
import { ApiError, badRequest, conflict } from "../../../pipeline/errors.ts";
import { stateFence } from "../../../pipeline/generation.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import type { Services } from "../../../pipeline/services.ts";
import { own } from "../../../state/own.ts";
import {
  approvedForAll,
  burnState,
  buybackTerms,
  chainOf,
  ownerOf,
  mysteryPoolLiquidity,
  receiptOf,
  tokenRecord,
} from "../chain-io.ts";
import { mystery, type SellbackRow } from "../state.ts";
import { txLockKey } from "../locks.ts";
import { usdc } from "../../../../contract/money.ts";
import { isoOf } from "../../../../contract/time.ts";
import { COUNTERS } from "../../../state/ids.ts";
import { publishBuilt } from "../../../events/publish.ts";
import { OFFER_SIDE_PAYLOADS } from "../payloads.ts";

// Native sell-back (TIER model, docs/reference/live-service.md “Sell-back”): the original recipient
// sells pool-minted cards back inside their buyback window with
// MysteryPool.acceptCardBuyback; the payout comes from CardSellExecuted.

const ZERO = "0x0000000000000000000000000000000000000000";

type Reason = SellbackReason;

export interface SellbackQuote {
  items: SellbackQuoteItem[];
  /** What the eligible tokens pay together. */
  total: bigint;
  approvalNeeded: boolean;
  liquidity: bigint;
}

/** Each token's eligibility and payout for `wallet`, read from the chain; the pool's liquidity and the wallet's approval. */
export async function quoteSellback(s: Services, wallet: `0x${string}`, ids: string[]): Promise<SellbackQuote> {
  const chain = chainOf(s);
  const now = BigInt(Math.floor(s.clock.now() / 1000));
  const items: SellbackQuote["items"] = [];
  // The window and the payout rate the contract enforces, read from it (the operator may change them).
  const terms = await buybackTerms(chain);
  for (const id of ids) {
    const rec = await tokenRecord(chain, BigInt(id));
    const owner = await ownerOf(chain, BigInt(id));
    const burn = await burnState(chain, BigInt(id));
    const expires = rec.originalRecipient === ZERO ? 0n : rec.mintedAt + terms.windowSeconds;
    let reason: Reason | null = null;
    // In the contract's order. A burned token, or one frozen by a pending burn (the pool's
    // transferFrom reverts TokenFrozen), has no window: the SDK's reasons have no other fit.
    if (rec.originalRecipient === ZERO || rec.soldBack || burn.burned) reason = "no_window";
    else if (
      !owner ||
      owner.toLowerCase() !== wallet.toLowerCase() ||
      rec.originalRecipient.toLowerCase() !== wallet.toLowerCase()
    )
      reason = "wrong_holder";
    else if (now > expires) reason = "window_expired";
    else if (rec.oracleValue === 0n) reason = "value_unknown";
    else if (burn.pending) reason = "no_window";
    // Unknown where the oracle has no price (value and payout null); an ineligible token pays 0.
    const priced = rec.oracleValue > 0n;
    const payout = reason === null ? (rec.oracleValue * terms.discountPermille) / 1000n : 0n;
    items.push({
      token_id: id,
      eligible: reason === null,
      reason,
      expires_at: expires === 0n ? null : isoOf(Number(expires) * 1000),
      // Group 0 is no group: the pool never minted the token.
      group_id: rec.groupId === 0 ? null : rec.groupId,
      oracle_value_usdc: priced ? usdc(rec.oracleValue) : null,
      payout_usdc: priced ? usdc(payout) : null,
      payout_micros: priced ? String(payout) : null,
      from_raw_card_pack: true,
    });
  }
  const approved = await approvedForAll(chain, wallet, chain.addresses.mysteryPool);
  const liquidity = await mysteryPoolLiquidity(chain);
  const total = items.reduce((n, i) => n + BigInt(i.payout_micros ?? 0), 0n);
  return { items, total, approvalNeeded: !approved, liquidity };
}

/** The quote as the wire has it (`seller` lowercased). */
export function quoteWire(wallet: `0x${string}`, q: SellbackQuote): SellbackQuoteWire {
  return {
    seller: wallet.toLowerCase(),
    items: q.items,
    eligible_token_ids: q.items.filter((i) => i.eligible).map((i) => i.token_id),
    total_payout_micros: q.total.toString(),
    total_payout_usdc: usdc(q.total),
    approval_needed: q.approvalNeeded,
    pool_liquidity_usdc: usdc(q.liquidity),
    sufficient_liquidity: q.liquidity >= q.total,
  };
}

const CODE_OF: Record<Reason, string> = {
  no_window: "not_eligible",
  wrong_holder: "wrong_holder",
  window_expired: "window_expired",
  value_unknown: "value_unknown",
};

/** The batch is all-or-nothing on chain: 409 naming the first blocking token and why, or when the pool cannot pay. */
export function checkSellable(q: SellbackQuote, ids: string[]): void {
  const blocking = q.items.filter((i) => !i.eligible);
  if (blocking.length) {
    const reasons = new Set(blocking.map((i) => i.reason!));
    const code = reasons.size === 1 && blocking.length === ids.length ? CODE_OF[blocking[0]!.reason!] : "not_eligible";
    throw conflict(
      code,
      `Token ${blocking[0]!.token_id} cannot be sold back (${blocking[0]!.reason}); the batch is all-or-nothing`,
      {
        details: {
          token_id: blocking[0]!.token_id,
          reason: blocking[0]!.reason,
          blocking: blocking.map((i) => ({ token_id: i.token_id, reason: i.reason })),
        },
      },
    );
  }
  if (q.liquidity < q.total)
    throw conflict(
      "insufficient_liquidity",
      `The pool holds ${usdc(q.liquidity)} USDC; this batch pays ${usdc(q.total)}`,
    );
}

/** The (approve +) acceptCardBuyback calls of a sellable batch. */
export function sellbackCalls(
  s: Services,
  wallet: `0x${string}`,
  ids: string[],
  q: SellbackQuote,
  minTotal: bigint,
): SellbackPrepareResult {
  const chain = chainOf(s);
  const calls: SellbackPrepareResult["calls"] = [];
  if (q.approvalNeeded)
    calls.push({
      kind: "set-approval-for-all",
      to: chain.addresses.cardNft,
      data: encodeFunctionData({
        abi: cardNftAbi,
        functionName: "setApprovalForAll",
        args: [chain.addresses.mysteryPool, true],
      }),
      description: "One-time: let the pool take the cards being sold back",
    });
  calls.push({
    kind: "sellback",
    to: chain.addresses.mysteryPool,
    data: encodeFunctionData({
      abi: mysteryPoolAbi,
      functionName: "acceptCardBuyback",
      args: [ids.map(BigInt), minTotal],
    }),
    description: `Sell ${ids.length} card(s) back for about ${usdc(q.total)} USDC`,
  });
  return {
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
  };
}

/** End users of a partner: wallets that bought through it, plus its custodial users (the seeded ones among them: seed.ts). */
function partnerWallets(s: Services, accountId: string): Set<string> {
  const slice = mystery(s);
  const out = new Set<string>();
  for (const p of Object.values(slice.purchases))
    if (p.account_id === accountId) out.add(p.purchaser_address.toLowerCase());
  for (const u of Object.values(own(slice.end_users, accountId) ?? {})) out.add(u.wallet_address.toLowerCase());
  return out;
}

const sellerMismatch = (seller: string) =>
  new ApiError(
    403,
    "seller_mismatch",
    `The on-chain seller ${seller} is not one of this partner's end users (or not the wallet_address sent)`,
    { details: { seller } },
  );

/**
 * Records a mined sell-back (sellback.confirmed) from its CardSellExecuted log; the seller must
 * be one of the partner's end users (and `claimed`, when sent). Idempotent on the hash:
 * parallel submits take turns; the first records, the rest answer that record.
 */
export function submitSellback(
  s: Services,
  accountId: string,
  hash: `0x${string}`,
  claimed: `0x${string}` | null,
): Promise<SellbackRow> {
  return withKeyLock(s, txLockKey(hash), async () => {
    const sameState = stateFence(s);
    const known = Object.values(mystery(s).sellbacks).find(
      (r) => r.transaction_hash.toLowerCase() === hash.toLowerCase(),
    );
    if (known) {
      if (known.account_id !== accountId)
        throw conflict("tx_already_recorded", "This sell-back is recorded for another partner");
      // A replay is checked like the first submit: the claimed seller must be the recorded one.
      if (claimed && claimed.toLowerCase() !== known.seller) throw sellerMismatch(known.seller);
      return known;
    }
    const chain = chainOf(s);
    const receipt = await receiptOf(chain, hash);
    if (!receipt) throw badRequest("tx_unverified", "The transaction is not on the chain");
    if (receipt.status !== "success") throw badRequest("tx_reverted", "The sell-back transaction reverted on chain");
    const pool = chain.addresses.mysteryPool.toLowerCase();
    const sold = parseEventLogs({
      abi: mysteryPoolAbi,
      eventName: "CardSellExecuted",
      logs: receipt.logs.filter((l) => l.address.toLowerCase() === pool),
    })[0];
    if (!sold) throw badRequest("tx_unverified", "The transaction has no MysteryPool CardSellExecuted log");
    const seller = sold.args.seller;
    if (
      (claimed && claimed.toLowerCase() !== seller.toLowerCase()) ||
      !partnerWallets(s, accountId).has(seller.toLowerCase())
    )
      throw sellerMismatch(seller);
    sameState();
    const row: SellbackRow = {
      sellback_id: s.store.nextId(COUNTERS.mysterySellback),
      account_id: accountId,
      seller: seller.toLowerCase(),
      token_ids: sold.args.tokenIds.map(String),
      total_micros: sold.args.total.toString(),
      transaction_hash: receipt.transactionHash,
      sold_at: s.clock.nowIso(),
    };
    mystery(s).sellbacks[row.sellback_id] = row;
    publishBuilt(s, accountId, OFFER_SIDE_PAYLOADS, "sellback.confirmed", row);
    return row;
  });
}

/** The account's sell-backs, newest first. */
export function sellbacksOf(s: Services, accountId: string): SellbackRow[] {
  return Object.values(mystery(s).sellbacks)
    .filter((r) => r.account_id === accountId)
    .sort((a, b) => b.sellback_id - a.sellback_id);
}

export function formatSellback(r: SellbackRow): SellbackRecord {
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
