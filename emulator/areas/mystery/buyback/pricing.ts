import { BUYBACK_DISCOUNT_PERMILLE, MARKETPLACE_FEE_BPS } from "../../../../chain/index.ts";
import { microsOfUsd } from "../../../../contract/money.ts";

// Buyback pricing (docs/reference/api-rules.md “Other limits”: default 85% of card value; marketplace fee
// from the BuybackMarketplace deployment, 250 bps).

/** Offers pay what a sell-back pays: the pool contract's default rate (chain/constants.ts). */
export const BUYBACK_PERMILLE = BigInt(BUYBACK_DISCOUNT_PERMILLE);
/** Only cards valued $10–$100 are eligible for a buyback offer (api-docs generation). */
export const ELIGIBLE_MIN = 10_000_000n;
export const ELIGIBLE_MAX = 100_000_000n;

export const buybackPrice = (valueMicros: bigint) => (valueMicros * BUYBACK_PERMILLE) / 1000n;
export const marketplaceFee = (price: bigint) => (price * BigInt(MARKETPLACE_FEE_BPS)) / 10_000n;
/** Card Data money is a number of USD; partner money is micros. */
export const usdToMicros = (usd: number): bigint => microsOfUsd(usd);
