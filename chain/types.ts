import type { Account, Chain as ViemChain, Hex, PublicClient, Transport, WalletClient } from "viem";
import type { FixtureAccount } from "./accounts.ts";
import type { EmulatorChain } from "./public-chain.ts";
import type { ChainStateExport } from "./state.ts";

// What the chain is to its users: the options it starts from and the gateway it hands back.

export interface ChainOptions {
  /** Determinism: VRF words are keccak256(abi.encode(seed, requestId, index)). */
  seed: number;
  /** Serve JSON-RPC on 127.0.0.1:<port> (0 = ephemeral, the default); false = no HTTP server. Ignored with rpcUrl. */
  rpcPort?: number | false;
  /** Attach to an existing node (e.g. `npx hardhat node --hostname 127.0.0.1`) and deploy there. */
  rpcUrl?: string;
  /** Unix ms: initial block time (the emulator's virtual clock). */
  startTime: number;
  /** Progress callback: "starting network", "deploying USDStablecoin", ..., "ready". */
  onProgress?: (step: string) => void;
  /**
   * Optional emulator clock (unix ms). When given, every transaction sent through this chain's provider
   * (in-process clients and the served JSON-RPC) is mined at exactly floor(now()/1000) (clamped to the
   * latest block), so block time never drifts from the clock. Without it, see setTime.
   */
  now?: () => number;
  /**
   * Rebuild this chain instead of deploying: a fresh network at the export's genesis replays its
   * journal (same contracts at the same addresses, same blocks). In-process networks only.
   */
  restore?: ChainStateExport;
  /**
   * Who the served JSON-RPC answers (required with rpcPort): the emulator passes its listener policy
   * (emulator/pipeline/rpc-guard.ts); the chain only applies it.
   */
  rpcGuard?: RpcGuard;
}

/** The headers of a request to the served JSON-RPC (HTTP or a WebSocket's upgrade), lower-case names. */
export type RpcHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** The policy the served JSON-RPC applies to every request and every call in it. */
export interface RpcGuard {
  /** Why the request is refused as a whole (its Host, its Origin), or null to serve it. */
  request(headers: RpcHeaders): { status: number; reason: string; message: string } | null;
  /** Why this caller may not make this call (a web page sending as a role account), or null to run it. */
  call(method: string, params: unknown, headers: RpcHeaders): { reason: string; message: string } | null;
  /** Headers added to every answer served (CORS for a web origin the policy accepts; never `*`). */
  responseHeaders(headers: RpcHeaders): Record<string, string>;
}

/**
 * The chain gateway: the plain view every emulator shows (`EmulatorChain`, chain/public-chain.ts, what the
 * package's types name) and what only this entry's users see, typed with viem or internal to the emulator.
 */
export interface Chain extends EmulatorChain {
  /** viem chain definition (id, name "Emulator", native ETH, rpcUrl). */
  viemChain: ViemChain;
  /** viem public client on the chain's own transport (in-process EIP-1193, not HTTP). */
  publicClient: PublicClient<Transport, ViemChain>;
  /** Wallet client signing locally with the account's key; nonces are managed per chain (reset on revert). */
  walletClientFor(account: FixtureAccount): WalletClient<Transport, ViemChain, Account>;
  /** The latest block's number and hash (in-process from the journal, no call; attached, asked of the node). */
  head(): Promise<{ number: bigint; hash: `0x${string}` }>;
  /**
   * A key of what the chain's contracts hold and have logged: equal keys, equal storage and logs (blocks mined
   * without a transaction, such as the clock's, keep it; any transaction, state edit or revert changes it).
   * In-process only (null when attached, where others change the node): a contract read or a log search made at
   * one key need not be made again at the same key.
   */
  contentKey(): string | null;
  /**
   * contentKey and the head's hash read in one step (in-process only, no call; null when attached): a caller that
   * finds the head to be its own transaction's block knows the contents at that key are those the transaction left.
   */
  contentAt(): { key: string; head: Hex } | null;
  /**
   * A key of the chain's past: while it stays, every block seen in the chain is still there with the same hash
   * (a revert, a reset or an import changes it; blocks mined on top do not). In-process only (null when attached).
   */
  historyKey(): string | null;
  /**
   * Fulfil `requestId` if it still waits (null when not: one read of its record, not two), with `words()` or, when
   * that gives none, the seed's words; `words` is asked only for a request that waits.
   */
  fulfillPendingVrf(
    requestId: bigint,
    words: () => Promise<bigint[] | undefined>,
  ): Promise<{ requestId: bigint; success: boolean; txHash: `0x${string}` } | null>;
  /**
   * The transaction that fulfilled `requestId` with success, as the VRF scan saw its `RandomWordsFulfilled` log,
   * while no block was taken back since (`historyKey`); null when unknown (attached, not scanned, or taken back).
   */
  fulfilmentOf(requestId: bigint): Hex | null;
  /** Snapshot id of the chain right after deployment (what a reset reverts to); changes when the chain is imported. */
  readonly deploySnapshot: string;
  /**
   * The chain as data (genesis, deployment, journal of state-changing calls): null for an attached
   * node (--rpc-url), whose state lives in that node.
   */
  exportState(): ChainStateExport | null;
  /** Replaces the chain with an exported one (replayed on a fresh network; snapshots taken before are gone). */
  importState(doc: ChainStateExport): Promise<void>;
  close(): Promise<void>;
}
