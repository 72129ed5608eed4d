import type { TierConfig } from "../../../../chain/index.ts";
import { ApiError } from "../../../pipeline/errors.ts";
import type { Services } from "../../../pipeline/services.ts";
import type { EndUser } from "../../../../contract/index.ts";
import type { PurchaseRow } from "../state.ts";
import { usdc } from "../../../../contract/money.ts";
import { endUser } from "../wallet/end-users.ts";
import { armWorker } from "../worker.ts";
import { newPurchase } from "./purchases.ts";
import { relayerDisabled, relayerOn } from "./relay.ts";

// Custodial purchases (POST /mystery/purchase), as the live service answers
// them (docs/reference/live-service.md “Purchases”, SDK gacha.purchase): 202 RESERVED with the price
// held on the end user's custodial balance and every on-chain field null; the
// relayer then buys on chain on the virtual clock (relay.ts), and the SDK
// polls GET /mystery/purchase/{id} until FULFILLED.

/**
 * Holds the price cap (max_price_usdc, default the tier's price) on the end user's balance (402
 * insufficient_funds) and answers RESERVED; the worker relays it, and the end user is debited what the
 * pool actually charged, the rest of the hold returning to available (docs/reference/live-service.md “Purchases”).
 */
export function buyCustodial(
  s: Services,
  accountId: string,
  tier: TierConfig,
  who: EndUser,
  maxPrice: bigint,
): PurchaseRow {
  if (!relayerOn(s)) throw relayerDisabled("custodial purchases are paused; retry with the same Idempotency-Key");
  const user = endUser(s, accountId, who);
  const available = BigInt(user.balance_micros) - BigInt(user.reserved_micros);
  if (available < maxPrice)
    throw new ApiError(
      402,
      "insufficient_funds",
      `The end user's available balance is ${usdc(available)} USDC; the purchase holds ${usdc(maxPrice)} (the tier costs ${usdc(tier.price)})`,
      {
        details: { available_usdc: usdc(available), price_usdc: usdc(tier.price), hold_usdc: usdc(maxPrice) },
      },
    );
  const external_user_id = user.external_user_id.startsWith("wallet:") ? null : user.external_user_id;
  // The table's "reserve": the hold, purchase.reserved and the relayer's pick-up time.
  const row = newPurchase(s, {
    account_id: accountId,
    custody: "CUSTODIAL",
    tier_id: tier.tierId,
    price_micros: tier.price.toString(),
    purchaser_address: user.wallet_address,
    external_user_id,
    max_price_micros: maxPrice.toString(),
  });
  armWorker(s);
  return row;
}
