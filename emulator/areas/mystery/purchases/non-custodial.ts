import { encodeFunctionData } from "../../../../chain/viem-late.ts";
import { mysteryPoolAbi, usdStablecoinAbi, type TierConfig } from "../../../../chain/index.ts";
import { badRequest, conflict } from "../../../pipeline/errors.ts";
import { stateFence } from "../../../pipeline/generation.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import type { Services } from "../../../pipeline/services.ts";
import { chainOf, receiptOf } from "../chain-io.ts";
import { mystery, type PurchaseRow } from "../state.ts";
import { txLockKey } from "../locks.ts";
import { usdc } from "../../../../contract/money.ts";
import { newPurchase, purchaseRequestedIn, settleFromChain } from "./purchases.ts";

// Non-custodial purchases: the end user's wallet buys on chain with the
// calldata of prepare (which creates no rows), then the partner submits the
// mined transaction, verified against its PurchaseRequested log.

/** The approve + purchase calls for one pack of `tier` (docs/reference/api-rules.md “Mystery commerce endpoints”: creates no rows). */
export function preparePurchase(s: Services, tier: TierConfig, wallet: `0x${string}`, maxPrice: bigint) {
  const chain = chainOf(s);
  const { mysteryPool, stablecoin } = chain.addresses;
  return {
    chain_id: chain.chainId,
    contract: mysteryPool,
    payment_token: stablecoin,
    wallet_address: wallet,
    tier_id: tier.tierId,
    max_price: String(maxPrice),
    max_price_usdc: usdc(maxPrice),
    calls: [
      {
        kind: "erc20-approve",
        to: stablecoin,
        data: encodeFunctionData({ abi: usdStablecoinAbi, functionName: "approve", args: [mysteryPool, maxPrice] }),
        value: "0",
        description: `Approve the mystery pool to take up to ${usdc(maxPrice)} USDC (skip when the allowance already covers it)`,
      },
      {
        kind: "purchase",
        to: mysteryPool,
        data: encodeFunctionData({ abi: mysteryPoolAbi, functionName: "purchase", args: [tier.tierId, maxPrice] }),
        value: "0",
        description: `Buy one ${tier.name} pack (tier ${tier.tierId}); the receipt carries the VRF request id`,
      },
    ],
  };
}

export interface SubmittedPurchase {
  tier: TierConfig;
  hash: `0x${string}`;
  /** The wallet the caller says bought, or null (then the receipt's buyer is taken as is). */
  wallet: `0x${string}` | null;
  external_user_id: string | null;
  /** The VRF request id the caller expects (as sent), or null. */
  request_id: string | null;
}

/** What the body claims (wallet, tier, request id) must be what the receipt says. */
function checkClaims(
  input: SubmittedPurchase,
  recorded: { buyer: string; tierId: number; requestId: string | null },
): void {
  const { wallet, tier } = input;
  if (wallet !== null && recorded.buyer.toLowerCase() !== wallet.toLowerCase())
    throw badRequest("purchaser_mismatch", `The purchase was made by ${recorded.buyer}, not wallet_address ${wallet}`);
  if (recorded.tierId !== tier.tierId)
    throw badRequest("invalid_tier", `The transaction bought tier ${recorded.tierId}, not tier ${tier.tierId}`);
  if (input.request_id !== null && input.request_id !== recorded.requestId)
    throw badRequest(
      "tx_unverified",
      `request_id ${input.request_id} does not match the VRF request ${recorded.requestId} in the receipt`,
      {
        details: { request_id: recorded.requestId },
      },
    );
}

/**
 * Records a mined purchase transaction (SUBMITTED), settled from the chain at
 * once. Idempotent on the hash: parallel submits of one hash take turns, so
 * the first records the purchase and the others answer that same record.
 */
export function submitPurchase(s: Services, accountId: string, input: SubmittedPurchase): Promise<PurchaseRow> {
  const { tier, hash } = input;
  return withKeyLock(s, txLockKey(hash), async () => {
    const sameState = stateFence(s);
    const existing = Object.values(mystery(s).purchases).find(
      (p) => p.transaction_hash?.toLowerCase() === hash.toLowerCase(),
    );
    if (existing) {
      if (existing.account_id !== accountId)
        throw conflict("tx_already_recorded", "This transaction is already recorded for another partner");
      // A replay is checked like the first submit, against what the receipt recorded.
      checkClaims(input, {
        buyer: existing.purchaser_address,
        tierId: existing.tier_id,
        requestId: existing.onchain_request_id,
      });
      await settleFromChain(s, existing.id);
      return mystery(s).purchases[existing.id] ?? existing;
    }
    const chain = chainOf(s);
    const receipt = await receiptOf(chain, hash);
    if (!receipt) throw badRequest("tx_unverified", "The transaction is not on the chain (submit after it is mined)");
    if (receipt.status !== "success") throw badRequest("tx_reverted", "The purchase transaction reverted on chain");
    const req = purchaseRequestedIn(s, receipt);
    if (!req) throw badRequest("tx_unverified", "The transaction has no MysteryPool PurchaseRequested log");
    checkClaims(input, { buyer: req.buyer, tierId: Number(req.tierId), requestId: req.requestId.toString() });
    sameState();
    const row = newPurchase(s, {
      account_id: accountId,
      custody: "NON_CUSTODIAL",
      tier_id: tier.tierId,
      price_micros: req.price.toString(),
      onchain_request_id: req.requestId.toString(),
      transaction_hash: receipt.transactionHash,
      block_number: Number(receipt.blockNumber),
      purchaser_address: req.buyer,
      external_user_id: input.external_user_id,
    });
    await settleFromChain(s, row.id);
    return mystery(s).purchases[row.id] ?? row;
  });
}
