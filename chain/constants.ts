import type { Hex, Log } from "viem";
import { keccak256, toHex } from "./evm.ts";
import { parseEventLogs } from "./viem-late.ts";
import {
  buybackMarketplaceAbi,
  cardNftAbi,
  instantPackAbi,
  mysteryPoolAbi,
  usdStablecoinAbi,
  vrfCoordinatorMockAbi,
} from "./generated/contracts.ts";

// The deployment's constants (what deploy.ts passes to the contracts' constructors) and the ABI
// tables derived from the generated bindings.

export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;
export const VRF_KEY_HASH = keccak256(toHex("cardos-emulator/vrf/key-hash")) as Hex;
export const VRF_CALLBACK_GAS_LIMIT = 2_500_000;
export const MARKETPLACE_FEE_BPS = 250;
/** MysteryPool's default sell-back payout (its `buybackDiscountPermille`); the marketplace offers pay the same. */
export const BUYBACK_DISCOUNT_PERMILLE = 850;
export const FUNDING = {
  endUserUsdc: 10_000n * 10n ** 6n,
  mysteryPoolLiquidityUsdc: 1_000_000n * 10n ** 6n,
  relayerUsdc: 1_000_000n * 10n ** 6n,
  poolSignerUsdc: 1_000_000n * 10n ** 6n,
  vrfSubscriptionLink: 1_000_000n * 10n ** 18n,
} as const;

const ERROR_SOURCES = [
  usdStablecoinAbi,
  cardNftAbi,
  mysteryPoolAbi,
  vrfCoordinatorMockAbi,
  buybackMarketplaceAbi,
  instantPackAbi,
];
type ContractError = Extract<(typeof ERROR_SOURCES)[number][number], { type: "error" }>;

/**
 * Every custom error of the emulator's contracts (incl. OpenZeppelin errors bubbled through nested
 * calls, e.g. ERC20InsufficientAllowance inside MysteryPool.purchase). Use with viem's decodeErrorResult.
 */
export const chainErrorsAbi: ContractError[] = (() => {
  const seen = new Map<string, ContractError>();
  for (const abi of ERROR_SOURCES) {
    for (const item of abi) {
      if (item.type !== "error") continue;
      const key = `${item.name}(${item.inputs.map((i) => i.type).join(",")})`;
      if (!seen.has(key)) seen.set(key, item);
    }
  }
  return [...seen.values()];
})();

/** Decode the VRF request id(s) of a purchase receipt (pool PurchaseRequested, else coordinator RandomWordsRequested). */
export function vrfRequestIdsFromLogs(logs: readonly Log[]): bigint[] {
  const fromPool = parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRequested", logs: logs as Log[] });
  if (fromPool.length > 0) return fromPool.map((l) => l.args.requestId);
  return parseEventLogs({ abi: vrfCoordinatorMockAbi, eventName: "RandomWordsRequested", logs: logs as Log[] }).map(
    (l) => l.args.requestId,
  );
}
