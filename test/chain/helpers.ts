import {
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  type Hex,
  parseEventLogs,
  type TransactionReceipt,
} from "viem";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import {
  cardNftAbi,
  chainErrorsAbi,
  mysteryPoolAbi,
  startChain,
  usdStablecoinAbi,
  type Chain,
  type ChainOptions,
  type FixtureAccount,
} from "../../chain/index.ts";
import { listenerPolicy } from "../../emulator/pipeline/listener-policy.ts";
import { rpcGuard } from "../../emulator/pipeline/rpc-guard.ts";

/** 2025-01-01T00:00:00Z */
export const START = Date.UTC(2025, 0, 1);

/** The guard the emulator serves its chain's JSON-RPC with (a served chain needs one). */
export const RPC_GUARD = rpcGuard(listenerPolicy());

export function start(opts: Partial<ChainOptions> = {}): Promise<Chain> {
  return startChain({ seed: 42, startTime: START, rpcPort: false, rpcGuard: RPC_GUARD, ...opts });
}

/** Decoded custom error (name + args) of a viem contract error, using every contract's errors. */
export function decodeRevert(err: unknown): { errorName?: string; args?: readonly unknown[] } {
  if (!(err instanceof BaseError)) return {};
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError)) return {};
  if (reverted.data) return { errorName: reverted.data.errorName, args: reverted.data.args };
  if (reverted.raw) {
    try {
      const d = decodeErrorResult({ abi: chainErrorsAbi, data: reverted.raw });
      return { errorName: d.errorName, args: d.args as readonly unknown[] | undefined };
    } catch {
      /* fall through */
    }
  }
  return { errorName: reverted.reason };
}

export async function expectRevert(p: Promise<unknown>, errorName: string): Promise<readonly unknown[] | undefined> {
  try {
    await p;
  } catch (err) {
    const decoded = decodeRevert(err);
    expect(decoded.errorName, String(err)).toBe(errorName);
    return decoded.args;
  }
  throw new Error(`expected revert ${errorName}, but the call succeeded`);
}

/** Simulate then send a contract write from `from`; returns the mined receipt (asserts success). */
export async function write(
  chain: Chain,
  from: FixtureAccount,
  address: `0x${string}`,
  abi: readonly unknown[],
  functionName: string,
  args: readonly unknown[] = [],
): Promise<TransactionReceipt> {
  const wallet = chain.walletClientFor(from);
  const { request } = await chain.publicClient.simulateContract({
    account: wallet.account,
    address,
    abi: abi as any,
    functionName,
    args: args as any,
  });
  const hash = await wallet.writeContract(request as any);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

export async function usdcBalance(chain: Chain, who: `0x${string}`): Promise<bigint> {
  return chain.publicClient.readContract({
    address: chain.addresses.stablecoin,
    abi: usdStablecoinAbi,
    functionName: "balanceOf",
    args: [who],
  });
}

export async function blockTime(chain: Chain): Promise<bigint> {
  return (await chain.publicClient.getBlock()).timestamp;
}

/** approve + purchase + fulfil; returns request id and minted token ids. */
export async function buyAndReveal(chain: Chain, user: FixtureAccount, tierId: number, words?: bigint[]) {
  const price = await chain.publicClient.readContract({
    address: chain.addresses.mysteryPool,
    abi: mysteryPoolAbi,
    functionName: "tierPrice",
    args: [BigInt(tierId)],
  });
  await write(chain, user, chain.addresses.stablecoin, usdStablecoinAbi, "approve", [
    chain.addresses.mysteryPool,
    price,
  ]);
  const receipt = await write(chain, user, chain.addresses.mysteryPool, mysteryPoolAbi, "purchase", [tierId]);
  const [req] = parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRequested", logs: receipt.logs });
  const requestId = req!.args.requestId;
  const f = await chain.fulfillVrf(requestId, words);
  expect(f.success).toBe(true);
  const fr = await chain.publicClient.getTransactionReceipt({ hash: f.txHash });
  const [revealed] = parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRevealed", logs: fr.logs });
  return { requestId, tokenIds: [...revealed!.args.tokenIds], price, purchaseReceipt: receipt };
}

export async function ownerOf(chain: Chain, tokenId: bigint): Promise<`0x${string}`> {
  return chain.publicClient.readContract({
    address: chain.addresses.cardNft,
    abi: cardNftAbi,
    functionName: "ownerOf",
    args: [tokenId],
  });
}

export const hex32 = (n: number): Hex => `0x${n.toString(16).padStart(64, "0")}`;

/**
 * One chain for a test file: started (and set up by `set`) before its tests, back at the
 * snapshot taken after `set` before every test, closed after them.
 */
export function useChain(set: (chain: Chain) => void | Promise<void>, opts: Partial<ChainOptions> = {}): void {
  let chain: Chain | undefined;
  let base = "";
  beforeAll(async () => {
    chain = await start(opts);
    await set(chain);
    base = await chain.snapshot();
  });
  beforeEach(async () => {
    await chain!.revert(base);
  });
  afterAll(async () => {
    await chain?.close();
  });
}
