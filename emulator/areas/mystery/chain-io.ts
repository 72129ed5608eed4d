import type { ContractFunctionParameters, ContractFunctionReturnType, Hex, TransactionReceipt } from "viem";
import {
  buybackMarketplaceAbi,
  cardNftAbi,
  mysteryPoolAbi,
  receiptOf as nodeReceipt,
  sendAndWait,
  shippingPaymentProcessorAbi,
  usdStablecoinAbi,
} from "../../../chain/index.ts";
import type { Chain, FixtureAccount } from "../../../chain/index.ts";

// Thin typed wrappers over the chain reads and writes the mystery area needs.

export { chainOf } from "../../pipeline/chain.ts";

/** Sends a transaction from a fixture account and waits for it (a reverted tx is returned, not thrown). */
export function sendAs(chain: Chain, from: FixtureAccount, to: `0x${string}`, data: Hex): Promise<TransactionReceipt> {
  return sendAndWait(chain, from, { to, data });
}

/** The mined receipt, or null when the node does not know the hash. */
export function receiptOf(chain: Chain, hash: `0x${string}`): Promise<TransactionReceipt | null> {
  return nodeReceipt(chain.publicClient, hash);
}

export async function ownerOf(chain: Chain, tokenId: bigint): Promise<`0x${string}` | null> {
  try {
    return await chain.publicClient.readContract({
      address: chain.addresses.cardNft,
      abi: cardNftAbi,
      functionName: "ownerOf",
      args: [tokenId],
    });
  } catch {
    return null;
  }
}

export function tokenRecord(chain: Chain, tokenId: bigint) {
  return chain.publicClient.readContract({
    address: chain.addresses.mysteryPool,
    abi: mysteryPoolAbi,
    functionName: "getTokenRecord",
    args: [tokenId],
  });
}

export function mysteryPoolPurchase(chain: Chain, requestId: bigint) {
  return chain.publicClient.readContract({
    address: chain.addresses.mysteryPool,
    abi: mysteryPoolAbi,
    functionName: "getPurchase",
    args: [requestId],
  });
}

export async function burnState(
  chain: Chain,
  tokenId: bigint,
): Promise<{ burnType: number; pending: boolean; burned: boolean }> {
  const [burnType, pending, burned] = await chain.publicClient.readContract({
    address: chain.addresses.cardNft,
    abi: cardNftAbi,
    functionName: "burnState",
    args: [tokenId],
  });
  return { burnType: Number(burnType), pending, burned };
}

export function usdcBalance(chain: Chain, who: `0x${string}`): Promise<bigint> {
  return chain.publicClient.readContract({
    address: chain.addresses.stablecoin,
    abi: usdStablecoinAbi,
    functionName: "balanceOf",
    args: [who],
  });
}

/** On-chain MysteryPool.PurchaseStatus. */
export const MYSTERY_POOL_STATUS = { NONE: 0, REQUESTED: 1, REVEALED: 2, REFUNDED: 3 } as const;

/** A BuybackMarketplace OfferRequest (buyback/offers.ts offerMessage). */
interface OfferMessage {
  tokenContractAddress: `0x${string}`;
  tokenId: bigint;
  price: bigint;
  acceptedCurrency: `0x${string}`;
  deadline: bigint;
  requester: `0x${string}`;
  chainId: bigint;
  minSellerAmount: bigint;
}

type TypedData = Parameters<ReturnType<Chain["walletClientFor"]>["signTypedData"]>[0];

/** An EIP-712 signature by a fixture account (the pool signer's offers, the operator's shipping quotes). */
export function signAs(chain: Chain, from: FixtureAccount, typed: TypedData): Promise<Hex> {
  return chain.walletClientFor(from).signTypedData(typed);
}

/**
 * A revealed purchase's chain records in one call (Multicall3's aggregate3, one eth_call): each token's pool record
 * and NFT item, and the purchase's shortfall (what shortfallOnChain reads; none on a pool without shortfalls).
 */
export async function revealedRecords(chain: Chain, requestId: bigint, tokenIds: readonly bigint[]) {
  const pool = { address: chain.addresses.mysteryPool, abi: mysteryPoolAbi } as const;
  const nft = { address: chain.addresses.cardNft, abi: cardNftAbi } as const;
  const contracts: ContractFunctionParameters[] = [
    { ...pool, functionName: "shortfallOf", args: [requestId] },
    { ...pool, functionName: "shortfallRefundOf", args: [requestId] },
    ...tokenIds.flatMap((tokenId): ContractFunctionParameters[] => [
      { ...pool, functionName: "getTokenRecord", args: [tokenId] },
      { ...nft, functionName: "getItem", args: [tokenId] },
    ]),
  ];
  // batchSize 0: one aggregate3 whatever the calldata's size (viem would split it above 1 kB).
  const results = (await chain.publicClient.multicall({ contracts, allowFailure: true, batchSize: 0 })) as Array<
    { status: "success"; result: unknown } | { status: "failure"; error: Error }
  >;
  const value = <T>(i: number): T => {
    const r = results[i]!;
    if (r.status === "failure") throw r.error;
    return r.result as T;
  };
  type Rec = ContractFunctionReturnType<typeof mysteryPoolAbi, "view", "getTokenRecord">;
  type Item = ContractFunctionReturnType<typeof cardNftAbi, "view", "getItem">;
  const tokens = tokenIds.map((_, i) => ({ rec: value<Rec>(2 + 2 * i), item: value<Item>(3 + 2 * i) }));
  // A chain rebuilt from an older state export runs a pool without shortfalls: none applies.
  const [short, refund] =
    results[0]!.status === "success" && results[1]!.status === "success"
      ? [value<number>(0), value<bigint>(1)]
      : [0, 0n];
  return { tokens, short: Number(short), refund: BigInt(refund) };
}

/** The pool's PurchaseRevealed logs of a request from `fromBlock` (its purchase's block; none when the node cannot say). */
export function revealLogs(chain: Chain, requestId: bigint, fromBlock: bigint = chain.deployBlock) {
  return chain.publicClient
    .getContractEvents({
      address: chain.addresses.mysteryPool,
      abi: mysteryPoolAbi,
      eventName: "PurchaseRevealed",
      args: { requestId },
      fromBlock,
    })
    .catch(() => []);
}

/** How many slots a tier has on chain. */
export async function tierSlotCount(chain: Chain, tierId: number): Promise<number> {
  const tier = await chain.publicClient.readContract({
    address: chain.addresses.mysteryPool,
    abi: mysteryPoolAbi,
    functionName: "getTier",
    args: [BigInt(tierId)],
  });
  return tier.slots.length;
}

/** A tier's slots and their groups' value ranges as the pool has them (what a steered reveal solves against). */
export async function mysteryPoolTier(chain: Chain, tierId: number) {
  const read = { address: chain.addresses.mysteryPool, abi: mysteryPoolAbi } as const;
  const tier = await chain.publicClient.readContract({ ...read, functionName: "getTier", args: [BigInt(tierId)] });
  const slots = tier.slots.map((sl) => ({ groupIds: sl.groupIds.map(Number), weights: sl.weights.map(Number) }));
  const groups = new Map<number, { minValue: bigint; maxValue: bigint }>();
  for (const id of new Set(slots.flatMap((sl) => sl.groupIds))) {
    const g = await chain.publicClient.readContract({ ...read, functionName: "getGroup", args: [BigInt(id)] });
    groups.set(id, { minValue: g.minValue, maxValue: g.maxValue });
  }
  return { exists: tier.exists, slots, groups };
}

/** Whether `operator` may move the holder's token: for all their tokens, or for this one. */
export async function nftApproved(
  chain: Chain,
  holder: `0x${string}`,
  operator: `0x${string}`,
  tokenId: bigint,
): Promise<boolean> {
  const { cardNft } = chain.addresses;
  const all = await chain.publicClient.readContract({
    address: cardNft,
    abi: cardNftAbi,
    functionName: "isApprovedForAll",
    args: [holder, operator],
  });
  const one = await chain.publicClient.readContract({
    address: cardNft,
    abi: cardNftAbi,
    functionName: "getApproved",
    args: [tokenId],
  });
  return all || one.toLowerCase() === operator.toLowerCase();
}

export function approvedForAll(chain: Chain, holder: `0x${string}`, operator: `0x${string}`): Promise<boolean> {
  return chain.publicClient.readContract({
    address: chain.addresses.cardNft,
    abi: cardNftAbi,
    functionName: "isApprovedForAll",
    args: [holder, operator],
  });
}

/** The pool's sell-back terms as the contract holds them: the window after minting (s) and the payout (‰ of value). */
export async function buybackTerms(chain: Chain): Promise<{ windowSeconds: bigint; discountPermille: bigint }> {
  const read = (functionName: "buybackWindow" | "buybackDiscountPermille") =>
    chain.publicClient.readContract({ address: chain.addresses.mysteryPool, abi: mysteryPoolAbi, functionName });
  const [windowSeconds, discountPermille] = await Promise.all([read("buybackWindow"), read("buybackDiscountPermille")]);
  return { windowSeconds: BigInt(windowSeconds), discountPermille: BigInt(discountPermille) };
}

export function mysteryPoolLiquidity(chain: Chain): Promise<bigint> {
  return chain.publicClient.readContract({
    address: chain.addresses.mysteryPool,
    abi: mysteryPoolAbi,
    functionName: "liquidity",
  });
}

/** The BurnInitiated logs of a token from `fromBlock` (default: the deployment). */
export function burnInitiatedLogs(chain: Chain, tokenId: bigint, fromBlock: bigint = chain.deployBlock) {
  return chain.publicClient.getContractEvents({
    address: chain.addresses.cardNft,
    abi: cardNftAbi,
    eventName: "BurnInitiated",
    args: { tokenId },
    fromBlock,
  });
}

export function offerUsed(chain: Chain, offerHash: Hex): Promise<boolean> {
  return chain.publicClient.readContract({
    address: chain.addresses.marketplace,
    abi: buybackMarketplaceAbi,
    functionName: "offerUsed",
    args: [offerHash],
  });
}

export function offerAcceptedLogs(chain: Chain, offerHash: Hex) {
  const { marketplace } = chain.addresses;
  return chain.publicClient.getContractEvents({
    address: marketplace,
    abi: buybackMarketplaceAbi,
    eventName: "OfferAccepted",
    args: { offerHash },
    fromBlock: chain.deployBlock,
  });
}

/** Runs acceptOfferFor as the relayer without sending it (throws the revert). */
export async function simulateAcceptOffer(
  chain: Chain,
  args: readonly [OfferMessage, Hex, `0x${string}`, Hex],
): Promise<void> {
  const { marketplace } = chain.addresses;
  await chain.publicClient.simulateContract({
    address: marketplace,
    abi: buybackMarketplaceAbi,
    functionName: "acceptOfferFor",
    args,
    account: chain.relayer.address,
  });
}

export function shippingPaidLogs(chain: Chain, orderKey: Hex) {
  const { shippingProcessor } = chain.addresses;
  return chain.publicClient.getContractEvents({
    address: shippingProcessor,
    abi: shippingPaymentProcessorAbi,
    eventName: "ShippingPaid",
    args: { orderKey },
    fromBlock: chain.deployBlock,
  });
}

/** What the chain's contracts hold and have logged, as a key (`Chain.contentKey`; null when attached). */
export const contentKey = (chain: Chain): string | null => chain.contentKey();

/** The content key and the head's hash read in one step (`Chain.contentAt`; null when attached). */
export const contentAt = (chain: Chain): { key: string; head: Hex } | null => chain.contentAt();

/** A key of the chain's past: while it stays, no block seen was taken back (`Chain.historyKey`; null when attached). */
export const historyKey = (chain: Chain): string | null => chain.historyKey();

/** The chain's head: its number and hash (in-process the journal's, no call). */
export function headBlock(chain: Chain): Promise<{ number: bigint; hash: Hex }> {
  return chain.head();
}

/** USDC Transfer logs to any of `to` in blocks fromBlock..toBlock. */
export async function usdcTransfersTo(chain: Chain, to: `0x${string}`[], fromBlock: bigint, toBlock: bigint) {
  if (fromBlock > toBlock) return [];
  return chain.publicClient.getContractEvents({
    address: chain.addresses.stablecoin,
    abi: usdStablecoinAbi,
    eventName: "Transfer",
    args: { to },
    fromBlock,
    toBlock,
  });
}

/** The hash of block `n`, or null when the chain has no such block (it went back). */
export async function blockHashAt(chain: Chain, n: bigint): Promise<Hex | null> {
  try {
    return (await chain.publicClient.getBlock({ blockNumber: n })).hash;
  } catch {
    return null;
  }
}

/** The hash of the block that mined transaction `hash`, or null when the chain does not hold it (it went back). */
export async function transactionBlockHash(chain: Chain, hash: Hex): Promise<Hex | null> {
  const receipt = await nodeReceipt(chain.publicClient, hash);
  return receipt ? receipt.blockHash : null;
}
