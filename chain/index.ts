/**
 * The emulator's chain: an in-process Hardhat network (or an attached node) with the emulator's
 * contracts deployed, served as JSON-RPC on 127.0.0.1. See docs/chain.md.
 *
 * Start-up never compiles: contracts come from chain/generated/contracts.ts (`npm run compile`).
 */
import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  createClient,
  createPublicClient,
  custom,
  defineChain,
  encodeAbiParameters,
  getAddress,
  http,
  keccak256,
  maxUint256,
  parseEventLogs,
  toHex,
  type Account,
  type Chain as ViemChain,
  type Hex,
  type Log,
  type PublicClient,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
  walletActions,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sendTransaction as viemSendTransaction } from "viem/actions";
import {
  buybackMarketplaceAbi,
  buybackMarketplaceBytecode,
  cardNftAbi,
  cardNftBytecode,
  instantPackAbi,
  instantPackBytecode,
  multicall3DeployedBytecode,
  mysteryPoolAbi,
  mysteryPoolBytecode,
  shippingPaymentProcessorAbi,
  shippingPaymentProcessorBytecode,
  usdStablecoinAbi,
  usdStablecoinBytecode,
  vrfCoordinatorMockAbi,
  vrfCoordinatorMockBytecode,
} from "./generated/contracts.ts";
import {
  END_USERS,
  FIXTURE_ACCOUNTS,
  OPERATOR,
  POOL_SIGNER,
  RELAYER,
  SPARE_ACCOUNTS,
  TREASURY,
  VRF_NODE,
  type FixtureAccount,
} from "./accounts.ts";
import { DEFAULT_GROUPS, DEFAULT_TIERS, ItemType, tierExpectedValue, type GroupConfig, type TierConfig } from "./tiers.ts";
import { DEFAULT_PACKET_TYPES, type PacketTypeConfig } from "./instant.ts";
import { ChainJournal, JournalError, replayJournal, type Eip1193Like } from "./journal.ts";
import { parseChainExport, type ChainAddresses, type ChainStateExport } from "./state.ts";

export * from "./generated/contracts.ts";
export * from "./accounts.ts";
export * from "./tiers.ts";
export * from "./instant.ts";
export { JournalError, type ChainHead, type JournalEntry } from "./journal.ts";
export { parseChainExport, type ChainStateExport } from "./state.ts";

// ------------------------------------------------------------------------------------------------
// Public API
// ------------------------------------------------------------------------------------------------

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
}

export type { FixtureAccount } from "./accounts.ts";

export type { ChainAddresses } from "./state.ts";

export interface Chain {
  /** http://127.0.0.1:<port> of the served JSON-RPC (or the attached rpcUrl); null when rpcPort is false. */
  rpcUrl: string | null;
  chainId: number;
  /** viem chain definition (id, name "Emulator", native ETH, rpcUrl). */
  viemChain: ViemChain;
  addresses: ChainAddresses;
  /** VRF subscription id of the pool and key hash it requests with. */
  vrf: { subscriptionId: bigint; keyHash: Hex };
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
  /** viem public client on the chain's own transport (in-process EIP-1193, not HTTP). */
  publicClient: PublicClient<Transport, ViemChain>;
  /** Wallet client signing locally with the account's key; nonces are managed per chain (reset on revert). */
  walletClientFor(account: FixtureAccount): WalletClient<Transport, ViemChain, Account>;
  /** Raw EIP-1193 request. */
  request(method: string, params?: unknown[]): Promise<unknown>;
  /**
   * Make the chain's block time follow the emulator clock: mines an empty block at floor(unixMs/1000)
   * (skipped when the latest block is already there). Never errors on backwards moves: the time is
   * clamped to the latest block's timestamp. Between calls block time advances with wall time unless
   * ChainOptions.now is given.
   */
  setTime(unixMs: number): Promise<void>;
  /** evm_snapshot. Ids stay valid after revert (re-snapshotted); reverting invalidates later snapshots. */
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  /** Mint USDC (operator) and/or send ETH (operator transfer). */
  faucet(address: `0x${string}`, amounts: { usdc?: bigint; eth?: bigint }): Promise<{ usdcTx?: `0x${string}`; ethTx?: string }>;
  /** VRF requests not fulfilled yet, ascending. */
  pendingVrfRequests(): Promise<bigint[]>;
  /** Whether one request is still waiting (one storage read; pendingVrfRequests returns every pending id). */
  isVrfPending(requestId: bigint): Promise<boolean>;
  /** Fulfil a request (default: oldest pending) with the given words or words derived from the seed. */
  fulfillVrf(requestId?: bigint, words?: bigint[]): Promise<{ requestId: bigint; success: boolean; txHash: `0x${string}` }>;
  /** The words fulfillVrf would use by default for a request. */
  vrfWordsFor(requestId: bigint, numWords: number): bigint[];
  /** Called once per RandomWordsRequested mined after subscribing. Returns an unsubscribe function. */
  onVrfRequested(listener: (requestId: bigint) => void): () => void;
  /** Called after blocks were mined through this chain (by the emulator or a wallet over its JSON-RPC), or found by poll(). */
  onBlocks(listener: () => void): () => void;
  /** Attached node only: looks for blocks mined by others (a no-op in-process, where every block passes through). */
  poll(): Promise<void>;
  /** True when attached to an external node (--rpc-url). */
  readonly attached: boolean;
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

/** EIP-712 types of the stablecoin's EIP-3009 `transferWithAuthorization` (domain "USD Coin", version "2"). */
export const transferWithAuthorizationTypes = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** EIP-712 types of the BuybackMarketplace's signed offer (docs/reference/sdk-shapes.md “Buyback shapes”: `OfferRequest`). */
export const offerRequestTypes = {
  OfferRequest: [
    { name: "tokenContractAddress", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "price", type: "uint256" },
    { name: "acceptedCurrency", type: "address" },
    { name: "deadline", type: "uint256" },
    { name: "requester", type: "address" },
    { name: "chainId", type: "uint256" },
    { name: "minSellerAmount", type: "uint256" },
  ],
} as const;

/** The BuybackMarketplace's EIP-712 domain on a chain. */
export const marketplaceDomain = (chain: { chainId: number; addresses: { marketplace: `0x${string}` } }) =>
  ({ name: "BuybackMarketplace", version: "1", chainId: chain.chainId, verifyingContract: chain.addresses.marketplace }) as const;

/** EIP-712 types of the ShippingPaymentProcessor's `ShippingQuote` (signed by the shipping signer). */
export const shippingQuoteTypes = {
  ShippingQuote: [
    { name: "orderId", type: "string" },
    { name: "payer", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "burnType", type: "uint8" },
    { name: "amount", type: "uint256" },
    { name: "expirationTime", type: "uint256" },
  ],
} as const;

/** The ShippingPaymentProcessor's EIP-712 domain on a chain. */
export const shippingProcessorDomain = (chain: { chainId: number; addresses: { shippingProcessor: `0x${string}` } }) =>
  ({ name: "ShippingPaymentProcessor", version: "1", chainId: chain.chainId, verifyingContract: chain.addresses.shippingProcessor }) as const;

export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;
export const VRF_KEY_HASH = keccak256(toHex("cardos-emulator/vrf/key-hash")) as Hex;
export const VRF_CALLBACK_GAS_LIMIT = 2_500_000;
export const MARKETPLACE_FEE_BPS = 250;
export const BUYBACK_WINDOW_SECONDS = 30 * 24 * 3600;
export const BUYBACK_DISCOUNT_PERMILLE = 850;
export const FUNDING = {
  endUserUsdc: 10_000n * 10n ** 6n,
  poolLiquidityUsdc: 1_000_000n * 10n ** 6n,
  relayerUsdc: 1_000_000n * 10n ** 6n,
  poolSignerUsdc: 1_000_000n * 10n ** 6n,
  vrfSubscriptionLink: 1_000_000n * 10n ** 18n,
} as const;

/**
 * Every custom error of the emulator's contracts (incl. OpenZeppelin errors bubbled through nested
 * calls, e.g. ERC20InsufficientAllowance inside MysteryPool.purchase). Use with viem's decodeErrorResult.
 */
export const chainErrorsAbi = (() => {
  const seen = new Map<string, unknown>();
  for (const abi of [usdStablecoinAbi, cardNftAbi, mysteryPoolAbi, vrfCoordinatorMockAbi, buybackMarketplaceAbi, instantPackAbi]) {
    for (const item of abi) {
      if (item.type !== "error") continue;
      const key = `${item.name}(${item.inputs.map((i) => i.type).join(",")})`;
      if (!seen.has(key)) seen.set(key, item);
    }
  }
  return [...seen.values()] as Array<Extract<(typeof usdStablecoinAbi | typeof cardNftAbi | typeof mysteryPoolAbi | typeof vrfCoordinatorMockAbi | typeof buybackMarketplaceAbi | typeof instantPackAbi)[number], { type: "error" }>>;
})();

/** Decode the VRF request id(s) of a purchase receipt (pool PurchaseRequested, else coordinator RandomWordsRequested). */
export function vrfRequestIdsFromLogs(logs: readonly Log[]): bigint[] {
  const fromPool = parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRequested", logs: logs as Log[] });
  if (fromPool.length > 0) return fromPool.map((l) => l.args.requestId);
  return parseEventLogs({ abi: vrfCoordinatorMockAbi, eventName: "RandomWordsRequested", logs: logs as Log[] }).map(
    (l) => l.args.requestId,
  );
}

// ------------------------------------------------------------------------------------------------
// Implementation
// ------------------------------------------------------------------------------------------------

type RawRequest = (method: string, params?: unknown[]) => Promise<unknown>;

const CHAIN_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(CHAIN_DIR, "..");
const MINING_METHODS = new Set([
  "eth_sendRawTransaction",
  "eth_sendTransaction",
  "evm_mine",
  "hardhat_mine",
  "evm_setAutomine",
  "evm_revert",
]);

let hardhatModules:
  | { resolveConfig: (p: string, c: unknown) => any; createProvider: (c: unknown, n: string) => Promise<Eip1193Like>; JsonRpcServer: any; network: any }
  | undefined;

function loadHardhat() {
  if (!hardhatModules) {
    process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT = "true";
    const require = createRequire(path.join(ROOT, "package.json"));
    hardhatModules = {
      resolveConfig: require("hardhat/internal/core/config/config-resolution.js").resolveConfig,
      createProvider: require("hardhat/internal/core/providers/construction.js").createProvider,
      JsonRpcServer: require("hardhat/internal/hardhat-network/jsonrpc/server.js").JsonRpcServer,
      network: require(path.join(CHAIN_DIR, "network.cjs")),
    };
  }
  return hardhatModules!;
}

async function createInProcessProvider(startTime: number): Promise<Eip1193Like> {
  const hh = loadHardhat();
  const config = hh.resolveConfig(path.join(CHAIN_DIR, "hardhat.config.cjs"), {
    solidity: hh.network.solidity,
    networks: {
      hardhat: {
        ...hh.network.hardhatNetwork,
        initialDate: new Date(Math.floor(startTime / 1000) * 1000).toISOString(),
        // Explicit keys (same as the default mnemonic) avoid HD derivation at start-up.
        accounts: FIXTURE_ACCOUNTS.map((a) => ({ privateKey: a.privateKey, balance: (10_000n * 10n ** 18n).toString() })),
      },
    },
  });
  return hh.createProvider(config, "hardhat");
}

/**
 * In-process Hardhat reverts are SolidityError objects with hex `data` but no JSON-RPC `code`; give them
 * the shape a real node returns ({ code: 3, message: "execution reverted", data }) so viem decodes custom errors.
 */
function normalizeRpcError(err: unknown): unknown {
  const e = err as { code?: unknown; data?: unknown; message?: string } | null;
  if (e && typeof e === "object" && e.code === undefined && typeof e.data === "string" && e.data.startsWith("0x")) {
    const out = new Error(e.message ?? "execution reverted") as Error & { code: number; data: string };
    out.code = 3;
    out.data = e.data;
    return out;
  }
  return err;
}

export class TxFailedError extends Error {
  constructor(
    message: string,
    readonly receipt?: TransactionReceipt,
  ) {
    super(message);
    this.name = "TxFailedError";
  }
}

class EmulatorChain implements Chain {
  rpcUrl: string | null = null;
  chainId = 0;
  viemChain!: ViemChain;
  addresses!: ChainAddresses;
  vrf!: { subscriptionId: bigint; keyHash: Hex };
  deployBlock = 0n;
  groups = DEFAULT_GROUPS;
  tiers = DEFAULT_TIERS;
  packetTypes = DEFAULT_PACKET_TYPES;
  operator = OPERATOR;
  relayer = RELAYER;
  poolSigner = POOL_SIGNER;
  treasury = TREASURY;
  vrfNode = VRF_NODE;
  endUsers = [...END_USERS];
  spareAccounts = [...SPARE_ACCOUNTS];
  publicClient!: PublicClient<Transport, ViemChain>;

  deploySnapshot = "";

  private readonly seed: bigint;
  private readonly raw: RawRequest; // bypasses the VRF scan hook
  /** The network (in-process: wrapped in its journal); replaced by importState. */
  private provider: Eip1193Like;
  private journal: ChainJournal | null;
  private genesisTime = 0;
  private deployJournalLength = 0;
  /** Subscriptions of the served JSON-RPC (WebSocket) listen here, so they outlive an import's new network. */
  private readonly notifications = new EventEmitter();
  private readonly forward = (message: unknown) => this.notifications.emit("notification", message);
  private readonly eip1193: Eip1193Like; // hooked provider used by the JSON-RPC server
  private readonly clientProvider: Eip1193Like; // hooked + errors normalised, used by viem clients and request()
  private readonly inProcess: boolean;

  get attached(): boolean {
    return !this.inProcess;
  }
  private server: { listen(): Promise<{ address: string; port: number }>; close(): Promise<void> } | null = null;
  private readonly sendLocks = new Map<string, Promise<unknown>>();
  private readonly accounts = new Map<string, Account>();
  private readonly wallets = new Map<string, WalletClient<Transport, ViemChain, Account>>();
  private readonly snapshots = new Map<string, string>();
  private snapshotOrder: string[] = [];
  private snapshotCounter = 0;
  private readonly vrfListeners = new Set<(requestId: bigint) => void>();
  private scanCursor: bigint | null = null;
  /** pendingVrfRequests at one chain state (head hash : journal length). */
  private pendingCache: { at: string; ids: bigint[] } | null = null;
  private scanChain: Promise<void> = Promise.resolve();
  private blockListeners = new Set<() => void>();
  private polledHead = -1n;
  private closed = false;

  constructor(options: ChainOptions, inner: Eip1193Like, inProcess: boolean) {
    this.seed = BigInt.asUintN(256, BigInt(Math.trunc(options.seed)));
    this.inProcess = inProcess;
    this.provider = inner;
    this.journal = inner instanceof ChainJournal ? inner : null;
    inner.addListener?.("notification", this.forward);
    this.raw = (method, params) => this.provider.request({ method, params: params ?? [] });
    const self = this;
    const now = options.now;
    this.eip1193 = {
      async request(args) {
        if (now && (args.method === "eth_sendRawTransaction" || args.method === "eth_sendTransaction")) {
          await self.pinNextBlockTime(Math.floor(now() / 1000));
        }
        const result = await self.provider.request(args);
        if (MINING_METHODS.has(args.method)) {
          await self.scanVrf();
          self.notifyBlocks();
        }
        return result;
      },
      addListener: (event, listener) => this.notifications.addListener(event, listener),
      removeListener: (event, listener) => this.notifications.removeListener(event, listener),
    };
    this.clientProvider = {
      async request(args) {
        try {
          return await self.eip1193.request(args);
        } catch (err) {
          throw normalizeRpcError(err);
        }
      },
    };
  }

  // ---------------------------------------------------------------- setup

  async init(options: ChainOptions): Promise<void> {
    this.chainId = Number(await this.raw("eth_chainId"));
    this.viemChain = defineChain({
      id: this.chainId,
      name: "Emulator",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [this.rpcUrl ?? "http://127.0.0.1:8545"] } },
      contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
    });
    this.publicClient = createPublicClient({
      chain: this.viemChain,
      transport: custom(this.clientProvider as any, { retryCount: 0 }),
      pollingInterval: 50,
      cacheTime: 0,
    }) as PublicClient<Transport, ViemChain>;
    if (!this.inProcess) await this.setTime(options.startTime);
  }

  async serve(port: number): Promise<void> {
    const hh = loadHardhat();
    this.server = new hh.JsonRpcServer({ hostname: "127.0.0.1", port, provider: this.eip1193 });
    // Hardhat's listen() never rejects: a busy port would surface as an uncaught 'error' event.
    const inner = this.server as { _httpServer?: import("node:events").EventEmitter; _wsServer?: import("node:events").EventEmitter };
    const failed = new Promise<never>((_, reject) => {
      inner._httpServer?.once("error", reject);
      inner._wsServer?.once("error", reject); // ws re-emits the http server's errors
    });
    const { port: actual } = await Promise.race([this.server!.listen(), failed]);
    this.rpcUrl = `http://127.0.0.1:${actual}`;
  }

  // ---------------------------------------------------------------- accounts / sending

  private accountFor(a: FixtureAccount): Account {
    let acct = this.accounts.get(a.address);
    if (!acct) {
      acct = privateKeyToAccount(a.privateKey);
      this.accounts.set(a.address, acct);
    }
    return acct;
  }

  /** Run `fn` after every earlier send from `address` finished (nonce fetch → sign → broadcast is atomic). */
  private withSendLock<T>(address: string, fn: () => Promise<T>): Promise<T> {
    const key = address.toLowerCase();
    const prev = this.sendLocks.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.sendLocks.set(key, tail);
    void tail.then(() => {
      if (this.sendLocks.get(key) === tail) this.sendLocks.delete(key);
    });
    return run;
  }

  walletClientFor(account: FixtureAccount): WalletClient<Transport, ViemChain, Account> {
    let w = this.wallets.get(account.address);
    if (!w) {
      const base = createClient({
        account: this.accountFor(account),
        chain: this.viemChain,
        transport: custom(this.clientProvider as any, { retryCount: 0 }),
        pollingInterval: 50,
        cacheTime: 0,
        key: "wallet",
        name: "Wallet Client",
        type: "walletClient",
      });
      // Automining Hardhat rejects nonce gaps, so concurrent sends from one account are serialised
      // (nonce fetch → sign → broadcast). The locked sendTransaction is installed below walletActions
      // (their writeContract/deployContract resolve it through viem's getAction) and above them.
      const locked = (client: any) => ({
        sendTransaction: (args: any) => this.withSendLock(account.address, () => viemSendTransaction(client, args)),
      });
      w = base.extend(locked).extend(walletActions).extend(locked) as unknown as WalletClient<Transport, ViemChain, Account>;
      this.wallets.set(account.address, w);
    }
    return w;
  }

  request(method: string, params?: unknown[]): Promise<unknown> {
    return this.clientProvider.request({ method, params: params ?? [] });
  }

  async receipt(hash: Hex, label: string): Promise<TransactionReceipt> {
    let receipt: TransactionReceipt | null = null;
    try {
      receipt = await this.publicClient.getTransactionReceipt({ hash });
    } catch {
      receipt = await this.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 60_000 });
    }
    if (receipt.status !== "success") throw new TxFailedError(`chain: transaction reverted: ${label} (${hash})`, receipt);
    return receipt;
  }

  async send(
    from: FixtureAccount,
    label: string,
    tx: { to: `0x${string}`; data?: Hex; value?: bigint; gas?: bigint },
  ): Promise<TransactionReceipt> {
    const hash = await this.walletClientFor(from).sendTransaction({ ...tx, account: this.accountFor(from), chain: this.viemChain });
    return this.receipt(hash, label);
  }

  async deploy(label: string, abi: readonly unknown[], bytecode: Hex, args: readonly unknown[]): Promise<`0x${string}`> {
    const hash = await this.walletClientFor(OPERATOR).deployContract({ abi: abi as any, bytecode, args: args as any });
    const receipt = await this.receipt(hash, `deploy ${label}`);
    if (!receipt.contractAddress) throw new Error(`chain: no contract address for ${label}`);
    return getAddress(receipt.contractAddress);
  }

  async write(from: FixtureAccount, label: string, to: `0x${string}`, abi: readonly unknown[], functionName: string, args: readonly unknown[]) {
    const hash = await this.walletClientFor(from).writeContract({ address: to, abi: abi as any, functionName, args: args as any });
    return this.receipt(hash, label);
  }

  // ---------------------------------------------------------------- deployment

  async deployAll(progress: (step: string) => void): Promise<void> {
    progress("deploying USDStablecoin");
    const stablecoin = await this.deploy("USDStablecoin", usdStablecoinAbi, usdStablecoinBytecode, [OPERATOR.address]);
    progress("deploying CardNFT");
    const cardNft = await this.deploy("CardNFT", cardNftAbi, cardNftBytecode, [OPERATOR.address]);
    progress("deploying VRFCoordinatorV2_5Mock");
    const vrfCoordinator = await this.deploy("VRFCoordinatorV2_5Mock", vrfCoordinatorMockAbi, vrfCoordinatorMockBytecode, [
      10n ** 17n, // base fee: 0.1 LINK
      10n ** 9n, // gas price: 1 gwei
      4n * 10n ** 15n, // wei per unit LINK
    ]);
    progress("creating VRF subscription");
    const subReceipt = await this.write(OPERATOR, "createSubscription", vrfCoordinator, vrfCoordinatorMockAbi, "createSubscription", []);
    const created = parseEventLogs({ abi: vrfCoordinatorMockAbi, eventName: "SubscriptionCreated", logs: subReceipt.logs });
    const subscriptionId = created[0]!.args.subId;
    await this.write(OPERATOR, "fundSubscription", vrfCoordinator, vrfCoordinatorMockAbi, "fundSubscription", [
      subscriptionId,
      FUNDING.vrfSubscriptionLink,
    ]);
    progress("deploying MysteryPool");
    const mysteryPool = await this.deploy("MysteryPool", mysteryPoolAbi, mysteryPoolBytecode, [
      OPERATOR.address,
      stablecoin,
      cardNft,
      vrfCoordinator,
      VRF_KEY_HASH,
      subscriptionId,
    ]);
    progress("configuring MysteryPool");
    await this.write(OPERATOR, "addConsumer", vrfCoordinator, vrfCoordinatorMockAbi, "addConsumer", [subscriptionId, mysteryPool]);
    const minterRole = keccak256(toHex("MINTER_ROLE"));
    await this.write(OPERATOR, "grant MINTER_ROLE", cardNft, cardNftAbi, "grantRole", [minterRole, mysteryPool]);
    await this.write(OPERATOR, "setRelayer", mysteryPool, mysteryPoolAbi, "setRelayer", [RELAYER.address, true]);
    await this.write(OPERATOR, "setGroups", mysteryPool, mysteryPoolAbi, "setGroups", [
      this.groups.map((g) => ({ groupId: g.groupId, name: g.name, itemType: ItemType[g.itemType], minValue: g.minValue, maxValue: g.maxValue })),
    ]);
    for (const t of this.tiers) {
      await this.write(OPERATOR, `configureTier ${t.tierId}`, mysteryPool, mysteryPoolAbi, "configureTier", [
        t.tierId,
        t.name,
        t.price,
        tierExpectedValue(t, this.groups),
        t.active,
        t.slots.map((s) => ({
          slotType: ItemType[s.slotType],
          groupIds: s.groups.map((g) => g.groupId),
          weights: s.groups.map((g) => g.weight),
        })),
      ]);
    }
    progress("deploying BuybackMarketplace");
    const marketplace = await this.deploy("BuybackMarketplace", buybackMarketplaceAbi, buybackMarketplaceBytecode, [
      OPERATOR.address,
      TREASURY.address,
      MARKETPLACE_FEE_BPS,
    ]);
    progress("deploying ShippingPaymentProcessor");
    // Shipping quotes are signed by the operator key (the service's shipping signer); payments go to the treasury.
    const shippingProcessor = await this.deploy("ShippingPaymentProcessor", shippingPaymentProcessorAbi, shippingPaymentProcessorBytecode, [
      OPERATOR.address,
      stablecoin,
      cardNft,
      OPERATOR.address,
      TREASURY.address,
    ]);
    progress("deploying Multicall3");
    const existing = await this.raw("eth_getCode", [MULTICALL3_ADDRESS, "latest"]);
    if (!existing || existing === "0x") {
      try {
        await this.raw("hardhat_setCode", [MULTICALL3_ADDRESS, multicall3DeployedBytecode]);
      } catch {
        await this.raw("anvil_setCode", [MULTICALL3_ADDRESS, multicall3DeployedBytecode]);
      }
    }
    progress("funding accounts");
    const recipients = [mysteryPool, RELAYER.address, POOL_SIGNER.address, ...END_USERS.map((u) => u.address)];
    const amounts = [FUNDING.poolLiquidityUsdc, FUNDING.relayerUsdc, FUNDING.poolSignerUsdc, ...END_USERS.map(() => FUNDING.endUserUsdc)];
    await this.write(OPERATOR, "mintBatch", stablecoin, usdStablecoinAbi, "mintBatch", [recipients, amounts]);
    await this.write(POOL_SIGNER, "approve marketplace", stablecoin, usdStablecoinAbi, "approve", [marketplace, maxUint256]);
    await this.write(RELAYER, "approve pool", stablecoin, usdStablecoinAbi, "approve", [mysteryPool, maxUint256]);

    // Last, so the addresses of everything deployed before it do not move.
    progress("deploying InstantPack");
    const instantPack = await this.deploy("InstantPack", instantPackAbi, instantPackBytecode, [
      OPERATOR.address,
      stablecoin,
      cardNft,
      vrfCoordinator,
      VRF_KEY_HASH,
      subscriptionId,
    ]);
    await this.write(OPERATOR, "addConsumer instant", vrfCoordinator, vrfCoordinatorMockAbi, "addConsumer", [subscriptionId, instantPack]);
    await this.write(OPERATOR, "grant MINTER_ROLE instant", cardNft, cardNftAbi, "grantRole", [minterRole, instantPack]);
    for (const t of this.packetTypes) {
      await this.write(OPERATOR, `configurePacketType ${t.packetTypeId}`, instantPack, instantPackAbi, "configurePacketType", [t.packetTypeId, t.price, t.stock, t.cardsPerPack]);
    }

    this.addresses = { stablecoin, cardNft, mysteryPool, vrfCoordinator, marketplace, multicall3: MULTICALL3_ADDRESS, shippingProcessor, instantPack };
    this.vrf = { subscriptionId, keyHash: VRF_KEY_HASH };
    this.deployBlock = BigInt((await this.raw("eth_blockNumber")) as string);
    this.deployJournalLength = this.journal?.length ?? 0;
    this.deploySnapshot = await this.snapshot();
  }

  // ---------------------------------------------------------------- state (journal)

  exportState(): ChainStateExport | null {
    if (!this.journal) return null;
    return {
      chain_id: this.chainId,
      genesis_time: this.genesisTime,
      deployment: {
        addresses: { ...this.addresses },
        vrf_subscription_id: this.vrf.subscriptionId.toString(),
        vrf_key_hash: this.vrf.keyHash,
        block: Number(this.deployBlock),
        journal_length: this.deployJournalLength,
      },
      head: { ...this.journal.head },
      journal: this.journal.snapshotEntries(),
    };
  }

  startedAt(startTime: number): void {
    this.genesisTime = Math.floor(startTime / 1000);
  }

  /** The network given to the constructor was rebuilt from `doc`. */
  restored(doc: ChainStateExport, built: RebuiltNetwork): void {
    this.adopt(doc, built);
  }

  /** Takes over a network rebuilt from an export (at start or by importState). */
  private adopt(doc: ChainStateExport, built: RebuiltNetwork): void {
    this.provider.removeListener?.("notification", this.forward);
    this.provider = built.journal;
    this.journal = built.journal;
    built.journal.addListener("notification", this.forward);
    this.genesisTime = doc.genesis_time;
    this.addresses = { ...doc.deployment.addresses };
    this.vrf = { subscriptionId: BigInt(doc.deployment.vrf_subscription_id), keyHash: doc.deployment.vrf_key_hash };
    this.deployBlock = BigInt(doc.deployment.block);
    this.deployJournalLength = doc.deployment.journal_length;
    // Snapshot ids of the old network mean nothing on the new one.
    this.snapshots.clear();
    this.snapshotOrder = [];
    const id = toHex(++this.snapshotCounter);
    this.snapshots.set(id, built.deploySnapshot);
    this.snapshotOrder.push(id);
    this.deploySnapshot = id;
  }

  async importState(input: ChainStateExport): Promise<void> {
    if (!this.inProcess) throw new JournalError("an attached chain (--rpc-url) cannot load a chain from a state export; start the emulator without --rpc-url");
    const doc = parseChainExport(input);
    if (doc.chain_id !== this.chainId) throw new JournalError(`the state's chain has chain id ${doc.chain_id}, this chain ${this.chainId}`);
    const built = await rebuildNetwork(doc);
    // Everything queued on the old network finishes first; the VRF cursor continues from the new head.
    await this.scanChain;
    this.adopt(doc, built);
    this.scanChain = this.scanChain.then(() => {
      if (this.scanCursor !== null) this.scanCursor = BigInt(doc.head.number);
    });
    await this.scanChain;
  }

  // ---------------------------------------------------------------- time

  private async latestTimestamp(): Promise<number> {
    const latest = (await this.raw("eth_getBlockByNumber", ["latest", false])) as { timestamp: string };
    return Number(BigInt(latest.timestamp));
  }

  /** Next block at max(ts, latest block time). */
  private async pinNextBlockTime(ts: number): Promise<void> {
    // In-process the journal knows the head (one read fewer per transaction); attached, ask the node.
    const latest = this.journal ? this.journal.head.timestamp : await this.latestTimestamp();
    await this.raw("evm_setNextBlockTimestamp", [Math.max(ts, latest)]);
  }

  async setTime(unixMs: number): Promise<void> {
    const target = Math.floor(unixMs / 1000);
    const latest = await this.latestTimestamp();
    // Already there, or behind the chain (clamped: block time never goes backwards).
    if (target <= latest) return;
    // An empty block at exactly `target`: block.timestamp reads (eth_call on latest) see the new time
    // at once, and later blocks continue from it at wall-clock pace.
    await this.request("evm_mine", [target]);
  }

  // ---------------------------------------------------------------- snapshots

  async snapshot(): Promise<string> {
    const internal = (await this.raw("evm_snapshot")) as string;
    const id = toHex(++this.snapshotCounter);
    this.snapshots.set(id, internal);
    this.snapshotOrder.push(id);
    return id;
  }

  async revert(id: string): Promise<void> {
    const internal = this.snapshots.get(id);
    if (internal === undefined) throw new Error(`chain: unknown or invalidated snapshot ${id}`);
    const ok = await this.raw("evm_revert", [internal]);
    if (ok !== true) throw new Error(`chain: evm_revert(${internal}) failed`);
    const idx = this.snapshotOrder.indexOf(id);
    for (const later of this.snapshotOrder.slice(idx + 1)) this.snapshots.delete(later);
    this.snapshotOrder = this.snapshotOrder.slice(0, idx + 1);
    this.snapshots.set(id, (await this.raw("evm_snapshot")) as string);
    // The VRF log cursor moves back with the state (nonces are always read fresh).
    const head = BigInt((await this.raw("eth_blockNumber")) as string);
    this.scanChain = this.scanChain.then(() => {
      if (this.scanCursor !== null && this.scanCursor > head) this.scanCursor = head;
    });
    await this.scanChain;
  }

  // ---------------------------------------------------------------- faucet

  async faucet(address: `0x${string}`, amounts: { usdc?: bigint; eth?: bigint }) {
    const out: { usdcTx?: `0x${string}`; ethTx?: string } = {};
    if (amounts.usdc && amounts.usdc > 0n) {
      const r = await this.write(OPERATOR, "faucet mint", this.addresses.stablecoin, usdStablecoinAbi, "mint", [address, amounts.usdc]);
      out.usdcTx = r.transactionHash;
    }
    if (amounts.eth && amounts.eth > 0n) {
      if (this.inProcess) {
        const bal = BigInt((await this.raw("eth_getBalance", [OPERATOR.address, "latest"])) as string);
        if (bal < amounts.eth + 10n ** 18n) {
          await this.raw("hardhat_setBalance", [OPERATOR.address, toHex(bal + amounts.eth + 10_000n * 10n ** 18n)]);
        }
      }
      const r = await this.send(OPERATOR, "faucet eth", { to: address, value: amounts.eth });
      out.ethTx = r.transactionHash;
    }
    return out;
  }

  // ---------------------------------------------------------------- VRF

  async pendingVrfRequests(): Promise<bigint[]> {
    // In-process, the list can only change with a journaled call (a new head or entry): it is read once per
    // chain state. Workers ask per submitted purchase; uncached, 300 in flight cost 300 reads of 300 ids each.
    const at = this.journal ? `${this.journal.head.hash}:${this.journal.length}` : null;
    if (at !== null && this.pendingCache?.at === at) return [...this.pendingCache.ids];
    const ids = await this.publicClient.readContract({
      address: this.addresses.vrfCoordinator,
      abi: vrfCoordinatorMockAbi,
      functionName: "pendingRequestIds",
    });
    const sorted = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (at !== null) this.pendingCache = { at, ids: sorted };
    return [...sorted];
  }

  async isVrfPending(requestId: bigint): Promise<boolean> {
    const [subId] = await this.publicClient.readContract({
      address: this.addresses.vrfCoordinator,
      abi: vrfCoordinatorMockAbi,
      functionName: "getRequest",
      args: [requestId],
    });
    return subId !== 0n;
  }

  vrfWordsFor(requestId: bigint, numWords: number): bigint[] {
    const words: bigint[] = [];
    for (let i = 0; i < numWords; i++) {
      words.push(
        BigInt(
          keccak256(
            encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }], [this.seed, requestId, BigInt(i)]),
          ),
        ),
      );
    }
    return words;
  }

  async fulfillVrf(requestId?: bigint, words?: bigint[]) {
    let id = requestId;
    if (id === undefined) {
      const pending = await this.pendingVrfRequests();
      if (pending.length === 0) throw new Error("chain: no pending VRF requests");
      id = pending[0]!;
    }
    const [subId, callbackGasLimit, numWords, , sender] = await this.publicClient.readContract({
      address: this.addresses.vrfCoordinator,
      abi: vrfCoordinatorMockAbi,
      functionName: "getRequest",
      args: [id],
    });
    if (subId === 0n) throw new Error(`chain: VRF request ${id} is unknown or already fulfilled`);
    // A fixed gas limit instead of eth_estimateGas (whose binary search was ~3/4 of a fulfilment's time):
    // the consumer gets exactly callbackGasLimit (the mock reverts if it could not), the rest is the mock's own work.
    const gas = BigInt(callbackGasLimit) + BigInt(callbackGasLimit) / 32n + 1_000_000n;
    const args = [id, sender, words ?? this.vrfWordsFor(id, numWords)] as const;
    const hash = await this.walletClientFor(VRF_NODE).writeContract({
      address: this.addresses.vrfCoordinator,
      abi: vrfCoordinatorMockAbi,
      functionName: "fulfillRandomWordsWithOverride",
      args,
      gas,
    });
    const receipt = await this.receipt(hash, `fulfillRandomWords ${id}`);
    const [fulfilled] = parseEventLogs({ abi: vrfCoordinatorMockAbi, eventName: "RandomWordsFulfilled", logs: receipt.logs });
    return { requestId: id, success: fulfilled?.args.success ?? false, txHash: receipt.transactionHash };
  }

  onVrfRequested(listener: (requestId: bigint) => void): () => void {
    if (this.vrfListeners.size === 0) {
      // Only requests mined from now on are reported.
      this.scanChain = this.scanChain.then(async () => {
        this.scanCursor = BigInt((await this.raw("eth_blockNumber")) as string);
      });
    }
    this.vrfListeners.add(listener);
    return () => {
      this.vrfListeners.delete(listener);
      if (this.vrfListeners.size === 0) this.scanCursor = null;
    };
  }

  onBlocks(listener: () => void): () => void {
    this.blockListeners.add(listener);
    return () => this.blockListeners.delete(listener);
  }

  /**
   * An attached node (--rpc-url) also mines transactions sent to it directly, which this process
   * never sees: the host calls this on the virtual clock to pick them up (no wall-time interval).
   */
  async poll(): Promise<void> {
    if (this.inProcess || this.closed) return;
    const head = BigInt((await this.raw("eth_blockNumber")) as string);
    if (head === this.polledHead) return;
    this.polledHead = head;
    await this.scanVrf();
    this.notifyBlocks();
  }

  private notifyBlocks(): void {
    for (const l of [...this.blockListeners]) {
      try {
        l();
      } catch (err) {
        console.error("chain: onBlocks listener threw", err);
      }
    }
  }

  private scanVrf(): Promise<void> {
    if (this.vrfListeners.size === 0 || !this.addresses || this.closed) return this.scanChain;
    this.scanChain = this.scanChain.then(async () => {
      if (this.scanCursor === null || this.vrfListeners.size === 0) return;
      try {
        const head = BigInt((await this.raw("eth_blockNumber")) as string);
        if (head <= this.scanCursor) return;
        const logs = (await this.raw("eth_getLogs", [
          { fromBlock: toHex(this.scanCursor + 1n), toBlock: toHex(head), address: this.addresses.vrfCoordinator },
        ])) as Log[];
        this.scanCursor = head;
        const requested = parseEventLogs({ abi: vrfCoordinatorMockAbi, eventName: "RandomWordsRequested", logs });
        for (const log of requested) {
          for (const l of [...this.vrfListeners]) {
            try {
              l(log.args.requestId);
            } catch (err) {
              console.error("chain: onVrfRequested listener threw", err);
            }
          }
        }
      } catch (err) {
        if (!this.closed) console.error("chain: VRF log scan failed", err);
      }
    });
    return this.scanChain;
  }

  // ---------------------------------------------------------------- shutdown

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.vrfListeners.clear();
    this.blockListeners.clear();
    await this.scanChain.catch(() => undefined);
    if (this.server) await this.server.close();
    this.server = null;
  }
}

interface RebuiltNetwork {
  journal: ChainJournal;
  /** evm_snapshot id (on the new network) at the end of deployment. */
  deploySnapshot: string;
}

/** A fresh in-process network at the export's genesis, with its journal replayed; checks it ends on the recorded block. */
async function rebuildNetwork(doc: ChainStateExport, progress?: (step: string) => void): Promise<RebuiltNetwork> {
  const network = await createInProcessProvider(doc.genesis_time * 1000);
  let deploySnapshot = "";
  const every = Math.max(1, Math.ceil(doc.journal.length / 10));
  await replayJournal(network, doc.journal, async (i) => {
    if (i === doc.deployment.journal_length) deploySnapshot = (await network.request({ method: "evm_snapshot", params: [] })) as string;
    if (progress && i > 0 && i < doc.journal.length && i % every === 0) progress(`replaying the chain journal (${i}/${doc.journal.length})`);
  });
  const journal = await ChainJournal.over(network, [...doc.journal]);
  const head = journal.head;
  if (head.number !== doc.head.number || head.hash !== doc.head.hash)
    throw new JournalError(
      `the chain replayed from the state ends on block ${head.number} (${head.hash}), the state recorded block ${doc.head.number} (${doc.head.hash}); was the file edited, or made by another emulator version?`,
    );
  journal.adoptSnapshot(deploySnapshot, doc.deployment.journal_length);
  return { journal, deploySnapshot };
}

export async function startChain(options: ChainOptions): Promise<Chain> {
  const progress = (step: string) => options.onProgress?.(step);
  progress("starting network");
  let chain: EmulatorChain;
  if (options.rpcUrl) {
    if (options.restore) throw new JournalError("an attached chain (--rpc-url) cannot load a chain from a state export; start the emulator without --rpc-url");
    const transport = http(options.rpcUrl, { retryCount: 0, timeout: 30_000 })({});
    const inner: Eip1193Like = { request: (args) => transport.request(args as any) };
    chain = new EmulatorChain(options, inner, false);
    chain.rpcUrl = options.rpcUrl;
  } else if (options.restore) {
    const doc = parseChainExport(options.restore);
    const built = await rebuildNetwork(doc, progress);
    chain = new EmulatorChain(options, built.journal, true);
    try {
      await chain.init(options);
      if (doc.chain_id !== chain.chainId) throw new JournalError(`the state's chain has chain id ${doc.chain_id}, this chain ${chain.chainId}`);
      chain.restored(doc, built);
      // Served only once rebuilt: a wallet never sees the chain half replayed.
      const port = options.rpcPort === undefined ? 0 : options.rpcPort;
      if (port !== false) await chain.serve(port);
    } catch (err) {
      await chain.close().catch(() => undefined);
      throw err;
    }
    progress("ready");
    return chain;
  } else {
    const journal = await ChainJournal.over(await createInProcessProvider(options.startTime));
    chain = new EmulatorChain(options, journal, true);
    chain.startedAt(options.startTime);
    const port = options.rpcPort === undefined ? 0 : options.rpcPort;
    if (port !== false) await chain.serve(port);
  }
  try {
    await chain.init(options);
    await chain.deployAll(progress);
  } catch (err) {
    await chain.close().catch(() => undefined);
    throw err;
  }
  progress("ready");
  return chain;
}
