import { encodeFunctionData, type TransactionReceipt } from "viem";
import { mysteryPoolAbi, type TierConfig } from "../../../../chain/index.ts";
import { ApiError } from "../../../pipeline/errors.ts";
import type { Services } from "../../../pipeline/services.ts";
import { chainOf, sendAs } from "../chain-io.ts";
import type { Identity } from "../identity.ts";
import { mystery, type PurchaseRow } from "../state.ts";
import { emit, usdc } from "../util.ts";
import { endUser } from "../wallet/end-users.ts";
import { ledgerHold, ledgerRelease, ledgerSettle } from "../wallet/ledger.ts";
import { newPurchase, purchaseRequestedIn } from "./purchases.ts";

// Custodial purchases (POST /mystery/purchase): the price is held on the end
// user's custodial balance (RESERVED), the relayer buys on chain with
// purchaseFor, and the hold is settled (SUBMITTED) or released (FAILED).

/** Holds the tier's price on the end user's balance (402 insufficient_funds), then relays the purchase. Returns the row (re-read). */
export async function buyCustodial(s: Services, accountId: string, tier: TierConfig, who: Identity, maxPrice: bigint): Promise<PurchaseRow> {
  const user = endUser(s, accountId, who);
  const available = BigInt(user.balance_micros) - BigInt(user.reserved_micros);
  if (available < tier.price)
    throw new ApiError(402, "insufficient_funds", `The end user's available balance is ${usdc(available)} USDC; the tier costs ${usdc(tier.price)}`, {
      details: { available_usdc: usdc(available), price_usdc: usdc(tier.price) },
    });
  user.reserved_micros = String(BigInt(user.reserved_micros) + tier.price);
  const external_user_id = user.external_user_id.startsWith("wallet:") ? null : user.external_user_id;
  const row = newPurchase(s, { account_id: accountId, custody: "CUSTODIAL", tier_id: tier.tierId, price_micros: tier.price.toString(), purchaser_address: user.wallet_address, external_user_id });
  ledgerHold(s, accountId, user, row.id, tier.price);
  emit(s, accountId, "purchase.reserved", String(row.id), { purchase_id: row.id, status: "RESERVED" });
  return relayCustodial(s, row.id, maxPrice);
}

export const relayerOn = (s: Services) => mystery(s).relayer !== "off";

/** The relayer signs purchaseFor on chain; the hold is settled or released. Returns the row (re-read). */
export async function relayCustodial(s: Services, purchaseId: number, maxPrice: bigint): Promise<PurchaseRow> {
  const chain = chainOf(s);
  const first = mystery(s).purchases[purchaseId]!;
  const data = encodeFunctionData({
    abi: mysteryPoolAbi,
    functionName: "purchaseFor",
    args: [first.purchaser_address as `0x${string}`, first.tier_id, maxPrice],
  });
  let receipt: TransactionReceipt | null = null;
  let error: string | null = null;
  if (!relayerOn(s)) error = "relayer_disabled: the relayer is not broadcasting; nothing was sent on chain";
  else
    try {
      receipt = await sendAs(chain, chain.relayer, chain.addresses.mysteryPool, data);
      if (receipt.status !== "success") error = "relayer transaction reverted";
    } catch (err) {
      error = `relayer could not broadcast: ${(err as Error).message.split("\n")[0]}`;
    }
  const row = mystery(s).purchases[purchaseId]!;
  const user = endUser(s, row.account_id, { external_user_id: row.external_user_id, wallet_address: row.purchaser_address });
  const price = BigInt(row.price_micros);
  user.reserved_micros = String(BigInt(user.reserved_micros) - price);
  const requested = receipt && !error ? purchaseRequestedIn(s, receipt) : undefined;
  if (!requested) {
    row.status = "FAILED";
    row.failure_reason = error ?? "no PurchaseRequested log in the relayer transaction";
    ledgerRelease(s, row.account_id, user, row.id, price);
    emit(s, row.account_id, "purchase.failed", String(row.id), { purchase_id: row.id, status: "FAILED", reason: row.failure_reason });
    return row;
  }
  user.balance_micros = String(BigInt(user.balance_micros) - price);
  ledgerSettle(s, row.account_id, user, row.id, price);
  row.status = "SUBMITTED";
  row.submitted_at = s.clock.nowIso();
  row.transaction_hash = receipt!.transactionHash;
  row.onchain_request_id = requested.requestId.toString();
  emit(s, row.account_id, "purchase.submitted", String(row.id), { purchase_id: row.id, status: "SUBMITTED", transaction_hash: row.transaction_hash, onchain_request_id: row.onchain_request_id });
  return row;
}

