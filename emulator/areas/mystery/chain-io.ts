import type { Hex, TransactionReceipt } from "viem";
import { cardNftAbi, mysteryPoolAbi, usdStablecoinAbi, type Chain, type FixtureAccount } from "../../../chain/index.ts";
import { requireChain } from "../../pipeline/chain.ts";
import type { Services } from "../../pipeline/services.ts";

// Thin typed wrappers over the chain reads and writes the mystery area needs.

export const chainOf = (s: Services): Chain => requireChain(s).chain;

/** Sends a transaction from a fixture account and waits for it (a reverted tx is returned, not thrown). */
export async function sendAs(chain: Chain, from: FixtureAccount, to: `0x${string}`, data: Hex): Promise<TransactionReceipt> {
  const wallet = chain.walletClientFor(from);
  const hash = await wallet.sendTransaction({ to, data, account: wallet.account, chain: chain.viemChain });
  return chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

/** The mined receipt, or null when the node does not know the hash. */
export async function receiptOf(chain: Chain, hash: `0x${string}`): Promise<TransactionReceipt | null> {
  try {
    return await chain.publicClient.getTransactionReceipt({ hash });
  } catch {
    return null;
  }
}

export async function ownerOf(chain: Chain, tokenId: bigint): Promise<`0x${string}` | null> {
  try {
    return await chain.publicClient.readContract({ address: chain.addresses.cardNft, abi: cardNftAbi, functionName: "ownerOf", args: [tokenId] });
  } catch {
    return null;
  }
}

export function tokenRecord(chain: Chain, tokenId: bigint) {
  return chain.publicClient.readContract({ address: chain.addresses.mysteryPool, abi: mysteryPoolAbi, functionName: "getTokenRecord", args: [tokenId] });
}

export function poolPurchase(chain: Chain, requestId: bigint) {
  return chain.publicClient.readContract({ address: chain.addresses.mysteryPool, abi: mysteryPoolAbi, functionName: "getPurchase", args: [requestId] });
}

/** A purchase's shortfall on chain: items its reveal withholds, and what the reveal paid back for them (0 before it lands). */
export async function shortfallOnChain(chain: Chain, requestId: bigint): Promise<{ short: number; refund: bigint }> {
  const read = (functionName: "shortfallOf" | "shortfallRefundOf") => chain.publicClient.readContract({ address: chain.addresses.mysteryPool, abi: mysteryPoolAbi, functionName, args: [requestId] });
  // A chain rebuilt from an older state export runs a pool without shortfalls: none applies.
  const [short, refund] = await Promise.all([read("shortfallOf"), read("shortfallRefundOf")]).catch(() => [0, 0n] as const);
  return { short: Number(short), refund: BigInt(refund) };
}

export async function burnState(chain: Chain, tokenId: bigint): Promise<{ burnType: number; pending: boolean; burned: boolean }> {
  const [burnType, pending, burned] = await chain.publicClient.readContract({ address: chain.addresses.cardNft, abi: cardNftAbi, functionName: "burnState", args: [tokenId] });
  return { burnType: Number(burnType), pending, burned };
}

export function usdcBalance(chain: Chain, who: `0x${string}`): Promise<bigint> {
  return chain.publicClient.readContract({ address: chain.addresses.stablecoin, abi: usdStablecoinAbi, functionName: "balanceOf", args: [who] });
}


/** On-chain MysteryPool.PurchaseStatus. */
export const POOL_STATUS = { NONE: 0, REQUESTED: 1, REVEALED: 2, REFUNDED: 3 } as const;
