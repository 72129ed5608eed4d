import type { PublicClient, TransactionReceipt } from "viem";
import { encodeAbiParameters, keccak256 } from "./evm.ts";
import { parseEventLogs } from "./viem-late.ts";
import { VRF_NODE, type FixtureAccount } from "./accounts.ts";
import { vrfCoordinatorMockAbi } from "./generated/contracts.ts";

// Chainlink VRF on the mock coordinator: which requests wait, the seed's words, and the fulfilment.

/** The words fulfilment uses by default: keccak256(abi.encode(seed, requestId, index)). */
export function vrfWords(seed: bigint, requestId: bigint, numWords: number): bigint[] {
  const words: bigint[] = [];
  for (let i = 0; i < numWords; i++) {
    const encoded = encodeAbiParameters(
      [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
      [seed, requestId, BigInt(i)],
    );
    words.push(BigInt(keccak256(encoded)));
  }
  return words;
}

/** VRF requests not fulfilled yet, ascending. */
export async function pendingVrfRequests(
  reader: Pick<PublicClient, "readContract">,
  coordinator: `0x${string}`,
): Promise<bigint[]> {
  const ids = await reader.readContract({
    address: coordinator,
    abi: vrfCoordinatorMockAbi,
    functionName: "pendingRequestIds",
  });
  return [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Whether one request is still waiting (one storage read). */
export async function isVrfPending(
  reader: Pick<PublicClient, "readContract">,
  coordinator: `0x${string}`,
  requestId: bigint,
): Promise<boolean> {
  const [subId] = await reader.readContract({
    address: coordinator,
    abi: vrfCoordinatorMockAbi,
    functionName: "getRequest",
    args: [requestId],
  });
  return subId !== 0n;
}

interface Fulfiller {
  publicClient: Pick<PublicClient, "readContract">;
  write(
    from: FixtureAccount,
    label: string,
    to: `0x${string}`,
    abi: typeof vrfCoordinatorMockAbi,
    functionName: "fulfillRandomWordsWithOverride",
    args: readonly unknown[],
    gas?: bigint,
  ): Promise<TransactionReceipt>;
}

type Fulfilment = { requestId: bigint; success: boolean; txHash: `0x${string}` };

/** A request's record as the coordinator holds it, or null when it does not wait (unknown or fulfilled). */
async function waiting(chain: Fulfiller, coordinator: `0x${string}`, id: bigint) {
  const [subId, callbackGasLimit, numWords, , sender] = await chain.publicClient.readContract({
    address: coordinator,
    abi: vrfCoordinatorMockAbi,
    functionName: "getRequest",
    args: [id],
  });
  return subId === 0n ? null : { callbackGasLimit: BigInt(callbackGasLimit), numWords, sender };
}

/** Fulfils a request (default: the oldest pending) with `words`, or the seed's words for it. */
export async function fulfillVrf(
  chain: Fulfiller,
  coordinator: `0x${string}`,
  seed: bigint,
  requestId?: bigint,
  words?: bigint[],
): Promise<Fulfilment> {
  let id = requestId;
  if (id === undefined) {
    const pending = await pendingVrfRequests(chain.publicClient, coordinator);
    if (pending.length === 0) throw new Error("chain: no pending VRF requests");
    id = pending[0]!;
  }
  const request = await waiting(chain, coordinator, id);
  if (!request) throw new Error(`chain: VRF request ${id} is unknown or already fulfilled`);
  return fulfil(chain, coordinator, id, request, words ?? vrfWords(seed, id, request.numWords));
}

/** Fulfils `id` when it still waits (else null), with `words()` or the seed's words: its record is read once. */
export async function fulfillPendingVrf(
  chain: Fulfiller,
  coordinator: `0x${string}`,
  seed: bigint,
  id: bigint,
  words: () => Promise<bigint[] | undefined>,
): Promise<Fulfilment | null> {
  const request = await waiting(chain, coordinator, id);
  if (!request) return null;
  return fulfil(chain, coordinator, id, request, (await words()) ?? vrfWords(seed, id, request.numWords));
}

async function fulfil(
  chain: Fulfiller,
  coordinator: `0x${string}`,
  id: bigint,
  request: { callbackGasLimit: bigint; sender: `0x${string}` },
  words: bigint[],
): Promise<Fulfilment> {
  // A fixed gas limit instead of eth_estimateGas (whose binary search was ~3/4 of a fulfilment's time):
  // the consumer gets exactly callbackGasLimit (the mock reverts if it could not), the rest is the mock's own work.
  const gas = request.callbackGasLimit + request.callbackGasLimit / 32n + 1_000_000n;
  const label = `fulfillRandomWords ${id}`;
  const args = [id, request.sender, words];
  const receipt = await chain.write(
    VRF_NODE,
    label,
    coordinator,
    vrfCoordinatorMockAbi,
    "fulfillRandomWordsWithOverride",
    args,
    gas,
  );
  const [fulfilled] = parseEventLogs({
    abi: vrfCoordinatorMockAbi,
    eventName: "RandomWordsFulfilled",
    logs: receipt.logs,
  });
  return { requestId: id, success: fulfilled?.args.success ?? false, txHash: receipt.transactionHash };
}
