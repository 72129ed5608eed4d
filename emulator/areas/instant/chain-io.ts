import type { TransactionReceipt } from "viem";
import { encodeFunctionData, parseEventLogs } from "../../../chain/viem-late.ts";
import {
  instantPackAbi,
  instantPoolSlot,
  receiptOf as nodeReceipt,
  sendAndWait,
  usdStablecoinAbi,
  type Chain,
} from "../../../chain/index.ts";

// Typed reads and writes of the InstantPack contract (chain/contracts/InstantPack.sol).

export { chainOf } from "../../pipeline/chain.ts";
export { sendAndWait };

/** The mined receipt, or null when the node does not know the hash. */
export function receiptOf(chain: Chain, hash: `0x${string}`): Promise<TransactionReceipt | null> {
  return nodeReceipt(chain.publicClient, hash);
}

export interface PacketTypeOnChain {
  packetTypeId: number;
  price: bigint;
  stock: number;
  cardsPerPack: number;
}

/** Every packet type as the contract has it now (live price and stock). */
export async function packetTypes(chain: Chain): Promise<PacketTypeOnChain[]> {
  const address = chain.addresses.instantPack;
  const ids = await chain.publicClient.readContract({ address, abi: instantPackAbi, functionName: "packetTypeIds" });
  const all = await Promise.all(ids.map((id) => packetType(chain, Number(id))));
  return all.filter((t): t is PacketTypeOnChain => t !== null);
}

/** One packet type, or null when the contract has none with that id. */
export async function packetType(chain: Chain, id: number): Promise<PacketTypeOnChain | null> {
  const t = await chain.publicClient.readContract({
    address: chain.addresses.instantPack,
    abi: instantPackAbi,
    functionName: "getPacketType",
    args: [BigInt(id)],
  });
  if (!t.exists) return null;
  return { packetTypeId: id, price: t.price, stock: t.stock, cardsPerPack: t.cardsPerPack };
}

/** The approve + buy-and-open calls (no `kind`: position decides, docs/reference/sdk-shapes.md “Instant shapes” InstantUnsignedCall). */
export function openCalls(chain: Chain, packetTypeId: number, wallet: `0x${string}`, maxPrice: bigint) {
  const { instantPack, stablecoin } = chain.addresses;
  return [
    {
      to: stablecoin,
      data: encodeFunctionData({ abi: usdStablecoinAbi, functionName: "approve", args: [instantPack, maxPrice] }),
    },
    {
      to: instantPack,
      data: encodeFunctionData({
        abi: instantPackAbi,
        functionName: "purchaseInstantOpenFor",
        args: [packetTypeId, wallet, maxPrice],
      }),
    },
  ];
}

export interface Requested {
  requestId: bigint;
  purchaser: `0x${string}`;
  recipient: `0x${string}`;
  packetTypeId: number;
  price: bigint;
}

/** The store's InstantPurchaseRequested log of a receipt (only logs the store contract emitted count). */
export function requestedIn(chain: Chain, receipt: TransactionReceipt): Requested | null {
  const store = chain.addresses.instantPack.toLowerCase();
  const logs = parseEventLogs({
    abi: instantPackAbi,
    eventName: "InstantPurchaseRequested",
    logs: receipt.logs,
  }).filter((l) => l.address.toLowerCase() === store);
  const l = logs[0];
  if (!l) return null;
  return {
    requestId: l.args.requestId,
    purchaser: l.args.purchaser,
    recipient: l.args.recipient,
    packetTypeId: Number(l.args.packetTypeId),
    price: l.args.price,
  };
}

/** On-chain InstantPack.OpeningStatus. */
export const OPENING = { NONE: 0, REQUESTED: 1, OPENED: 2, REFUNDED: 3, FAILED: 4 } as const;

export function opening(chain: Chain, requestId: bigint) {
  return chain.publicClient.readContract({
    address: chain.addresses.instantPack,
    abi: instantPackAbi,
    functionName: "getOpening",
    args: [requestId],
  });
}

/** The owner pays an unopened purchase back (REFUNDED, or FAILED when `failed`). */
export async function refundOnChain(chain: Chain, requestId: bigint, failed: boolean): Promise<void> {
  const data = encodeFunctionData({ abi: instantPackAbi, functionName: "refund", args: [requestId, failed] });
  if ((await sendAndWait(chain, chain.operator, { to: chain.addresses.instantPack, data })).status !== "success")
    throw new Error(`instant: refund of request ${requestId} reverted`);
}

/** The owner adds `count` bundles to a packet type, or sets its price (operator actions). */
export async function ownerWrite(
  chain: Chain,
  call:
    | { functionName: "restock"; args: readonly [number, number] }
    | { functionName: "setPrice"; args: readonly [number, bigint] },
): Promise<void> {
  const data = encodeFunctionData({ abi: instantPackAbi, ...call } as Parameters<typeof encodeFunctionData>[0]);
  if ((await sendAndWait(chain, chain.operator, { to: chain.addresses.instantPack, data })).status !== "success")
    throw new Error(`instant: ${call.functionName} reverted`);
}

/** The undrawn bundles of a packet type, by position (InstantPack's `_pool`, read from storage). */
export async function undrawnBundles(chain: Chain, packetTypeId: number): Promise<number[] | null> {
  const address = chain.addresses.instantPack;
  const t = await chain.publicClient.readContract({
    address,
    abi: instantPackAbi,
    functionName: "getPacketType",
    args: [BigInt(packetTypeId)],
  });
  if (!t.exists) return null;
  const undrawn = t.bundles - t.opened;
  const out: number[] = [];
  for (let pos = 0; pos < undrawn; pos++) {
    const raw = await chain.publicClient.getStorageAt({ address, slot: instantPoolSlot(packetTypeId, pos) });
    const v = BigInt(raw ?? "0x0");
    out.push(v === 0n ? pos : Number(v - 1n));
  }
  return out;
}
