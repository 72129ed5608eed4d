import type { FixtureAccount } from "./accounts.ts";
import type { PacketTypeConfig } from "./instant.ts";
import type { ChainAddresses } from "./state.ts";
import type { GroupConfig, TierConfig } from "./tiers.ts";

// The chain gateway as every emulator shows it (`emu.chain`), with plain types only: the package's types
// (emulator/public-types.ts) name it without loading viem, and `Chain` (types.ts) extends it with the viem
// clients and what the emulator itself uses. One declaration, so the two never drift apart.

/**
 * The local chain as `emu.chain` shows it with plain types. The object is the chain gateway of
 * `cardos-emulator/chain`; for its viem clients (`publicClient`, `walletClientFor`) read it as that
 * entry's `Chain`: `emu.chain as Chain | null`.
 */
export interface EmulatorChain {
  /** http://127.0.0.1:<port> of the served JSON-RPC (or the attached rpcUrl); null when rpcPort is false. */
  rpcUrl: string | null;
  chainId: number;
  addresses: ChainAddresses;
  /** VRF subscription id of the pool and key hash it requests with. */
  vrf: { subscriptionId: bigint; keyHash: `0x${string}` };
  /** Block number right after deployment finished. */
  deployBlock: bigint;
  /** Deployed pool configuration (on-chain groups/tiers). */
  groups: readonly GroupConfig[];
  tiers: readonly TierConfig[];
  /** Deployed instant-pack store configuration (InstantPack packet types). */
  packetTypes: readonly PacketTypeConfig[];
  /** Owner of every contract, stablecoin minter, CardNFT operator (finalize/cancel burn, setCardId). */
  operator: FixtureAccount;
  /** MysteryPool relayer (purchaseFor). Holds USDC with an unlimited allowance to the pool. */
  relayer: FixtureAccount;
  /** Buyback offer requester. Holds USDC with an unlimited allowance to the marketplace. */
  poolSigner: FixtureAccount;
  /** x402 payTo and marketplace fee recipient. */
  treasury: FixtureAccount;
  /** Sends VRF fulfilments. */
  vrfNode: FixtureAccount;
  /** >= 5 funded accounts (10,000 ETH + 10,000 USDC each). */
  endUsers: FixtureAccount[];
  /** Accounts with ETH but no USDC. */
  spareAccounts: FixtureAccount[];
  /** Raw EIP-1193 request. */
  request(method: string, params?: unknown[]): Promise<unknown>;
  /**
   * Make the chain's block time follow the emulator clock: mines an empty block at floor(unixMs/1000)
   * (skipped when the latest block is already there). Never errors on backwards moves: the time is
   * clamped to the latest block's timestamp. Between calls block time advances with wall time unless
   * the chain was started with a clock (`now`).
   */
  setTime(unixMs: number): Promise<void>;
  /** evm_snapshot. Ids stay valid after revert (re-snapshotted); reverting invalidates later snapshots. */
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  /** How many times the chain was taken back (revert, import): a receipt wait that sees it change ends at once. */
  rollbacks(): number;
  /** Mint USDC (operator) and/or send ETH (operator transfer). */
  faucet(
    address: `0x${string}`,
    amounts: { usdc?: bigint; eth?: bigint },
  ): Promise<{ usdcTx?: `0x${string}`; ethTx?: string }>;
  /** VRF requests not fulfilled yet, ascending. */
  pendingVrfRequests(): Promise<bigint[]>;
  /** Whether one request is still waiting (one storage read; pendingVrfRequests returns every pending id). */
  isVrfPending(requestId: bigint): Promise<boolean>;
  /** Fulfil a request (default: oldest pending) with the given words or words derived from the seed. */
  fulfillVrf(
    requestId?: bigint,
    words?: bigint[],
  ): Promise<{ requestId: bigint; success: boolean; txHash: `0x${string}` }>;
  /** The words fulfillVrf would use by default for a request. */
  vrfWordsFor(requestId: bigint, numWords: number): bigint[];
  /** Called once per RandomWordsRequested mined after subscribing. Returns an unsubscribe function. */
  onVrfRequested(listener: (requestId: bigint) => void): () => void;
  /** Called after blocks were mined through this chain (by the emulator or a wallet over its JSON-RPC), or found by poll(). */
  onBlocks(listener: () => void): () => void;
  /** Attached node only: looks for blocks mined by others (a no-op in-process, where every block passes through). */
  poll(): Promise<void>;
  /** True when attached to an external node (`rpcUrl`, --rpc-url). */
  readonly attached: boolean;
}
