/**
 * The emulator's chain: an in-process Hardhat network (or an attached node) with the emulator's
 * contracts deployed, served as JSON-RPC on 127.0.0.1. See docs/chain.md.
 *
 * This file only hands names on; each job has its file: types.ts (the gateway's shape), start.ts,
 * emulator-chain.ts (the gateway), provider.ts (Hardhat, loaded on the first chain asked for),
 * deploy.ts, vrf.ts, send.ts (send-and-wait), eip712.ts, constants.ts, journal.ts and state.ts.
 * Start-up never compiles: contracts come from chain/generated/contracts.ts (`npm run compile`).
 */
import type { Chain, ChainOptions } from "./types.ts";
import { loadViem } from "./viem-late.ts";
export * from "./generated/contracts.ts";
export * from "./accounts.ts";
export * from "./tiers.ts";
export * from "./instant.ts";
export * from "./eip712.ts";
export * from "./constants.ts";
export * from "./steer.ts";
export { vrfWords } from "./vrf.ts";
export type { Chain, ChainOptions, RpcGuard, RpcHeaders } from "./types.ts";
export type { ChainAddresses } from "./state.ts";
export { JournalError, type ChainHead, type JournalEntry } from "./journal.ts";
export { parseChainExport, type ChainStateExport } from "./state.ts";
export {
  TxFailedError,
  TxUndoneError,
  paddedGas,
  sendAndWait,
  waitForReceipt,
  receiptOf,
  requireSuccess,
  type TxRequest,
} from "./send.ts";
export { HardhatMissingError, HARDHAT_RANGE, hardhatInstalled } from "./provider.ts";

/**
 * Starts a chain (start.ts). The chain's modules and viem load here, on the first chain asked for, not
 * with the package (issue 38 goal 1: an emulator without a chain never loads them).
 */
export async function startChain(options: ChainOptions): Promise<Chain> {
  await loadViem();
  const { startChain: start } = await import("./start.ts");
  return start(options);
}
