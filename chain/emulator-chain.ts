import { EventEmitter } from "node:events";
import type {
  Account,
  Chain as ViemChain,
  Hex,
  Log,
  PublicClient,
  TransactionReceipt,
  Transport,
  WalletClient,
} from "viem";
import { usdStablecoinAbi, vrfCoordinatorMockAbi } from "./generated/contracts.ts";
import {
  END_USERS,
  OPERATOR,
  POOL_SIGNER,
  RELAYER,
  SPARE_ACCOUNTS,
  TREASURY,
  VRF_NODE,
  type FixtureAccount,
} from "./accounts.ts";
import { MULTICALL3_ADDRESS } from "./constants.ts";
import { deployAll, type Deployer, type Deployment } from "./deploy.ts";
import { DeployCache, deployCacheKey, type CachedDeployment } from "./deploy-cache.ts";
import { DEFAULT_PACKET_TYPES } from "./instant.ts";
import { ChainJournal, JournalError, type Eip1193Like } from "./journal.ts";
import { normalizeRpcError, rebuildNetwork, serveJsonRpc, type RebuiltNetwork } from "./provider.ts";
import { requireSuccess, sendAndWait, waitForReceipt, type TxRequest } from "./send.ts";
import { parseChainExport, type ChainAddresses, type ChainStateExport } from "./state.ts";
import { DEFAULT_GROUPS, DEFAULT_TIERS } from "./tiers.ts";
import type { Chain, ChainOptions, RpcGuard } from "./types.ts";
import { viem } from "./viem-late.ts";
import { fulfillPendingVrf, fulfillVrf, isVrfPending, pendingVrfRequests, vrfWords } from "./vrf.ts";

// The chain gateway: one network (in-process, journaled; or an attached node), its viem clients with
// per-account nonce locks, block time pinned to the emulator clock, snapshots, the journal as state,
// and the VRF request watch. Deployment, VRF and send-and-wait live beside it (deploy.ts, vrf.ts, send.ts).

type RawRequest = (method: string, params?: unknown[]) => Promise<unknown>;

const MINING_METHODS = new Set([
  "eth_sendRawTransaction",
  "eth_sendTransaction",
  "evm_mine",
  "hardhat_mine",
  "evm_setAutomine",
  "evm_revert",
]);

/** A cached deployment did not replay (it was dropped from the cache): startChain starts again on a fresh network. */
export class CachedDeploymentFailed extends Error {
  constructor() {
    super("chain: the cached deployment did not replay; deploying afresh");
    this.name = "CachedDeploymentFailed";
  }
}

export class EmulatorChain implements Chain {
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
  /** Whether the deployment was the cached one replayed (chain/deploy-cache.ts) rather than deployed afresh. */
  deployedFromCache = false;

  private readonly seed: bigint;
  readonly raw: RawRequest; // bypasses the VRF scan hook
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
  private server: { url: string; close(): Promise<void> } | null = null;
  private readonly sendLocks = new Map<string, Promise<unknown>>();
  private readonly accounts = new Map<string, Account>();
  private readonly wallets = new Map<string, WalletClient<Transport, ViemChain, Account>>();
  private readonly snapshots = new Map<string, string>();
  private snapshotOrder: string[] = [];
  private snapshotCounter = 0;
  /** Times the chain was taken back (revert, import): a receipt wait that sees it change ends (chain/send.ts). */
  private rollbackCount = 0;
  private readonly vrfListeners = new Set<(requestId: bigint) => void>();
  private scanCursor: bigint | null = null;
  /** The content key (contentKey) at the last VRF log scan: unchanged, the blocks since hold no log. */
  private scanKey: string | null = null;
  /** Request id → the transaction that fulfilled it (success), as the VRF scan saw it, with the history key then. */
  private fulfilments = new Map<string, { tx: Hex; past: string }>();
  /** Journals adopted (a restore or an import brings a new one): part of contentKey. */
  private journals = 0;
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
    this.viemChain = viem().defineChain({
      id: this.chainId,
      name: "Emulator",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [this.rpcUrl ?? "http://127.0.0.1:8545"] } },
      contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
    });
    this.publicClient = viem().createPublicClient({
      chain: this.viemChain,
      transport: viem().custom(this.clientProvider as any, { retryCount: 0 }),
      pollingInterval: 50,
      cacheTime: 0,
    }) as PublicClient<Transport, ViemChain>;
    if (!this.inProcess) await this.setTime(options.startTime);
  }

  async serve(port: number, guard: RpcGuard | undefined): Promise<void> {
    // Never served without a policy: any web page could otherwise send as the role accounts.
    if (!guard) throw new Error("chain: serving JSON-RPC needs options.rpcGuard (the emulator's listener policy)");
    this.server = await serveJsonRpc(this.eip1193, port, guard);
    this.rpcUrl = this.server.url;
  }

  // ---------------------------------------------------------------- accounts / sending

  private accountFor(a: FixtureAccount): Account {
    let acct = this.accounts.get(a.address);
    if (!acct) {
      acct = viem().privateKeyToAccount(a.privateKey);
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
      const base = viem().createClient({
        account: this.accountFor(account),
        chain: this.viemChain,
        transport: viem().custom(this.clientProvider as any, { retryCount: 0 }),
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
        sendTransaction: (args: any) => this.withSendLock(account.address, () => viem().sendTransaction(client, args)),
      });
      w = base.extend(locked).extend(viem().walletActions).extend(locked) as unknown as WalletClient<
        Transport,
        ViemChain,
        Account
      >;
      this.wallets.set(account.address, w);
    }
    return w;
  }

  request(method: string, params?: unknown[]): Promise<unknown> {
    return this.clientProvider.request({ method, params: params ?? [] });
  }

  rollbacks(): number {
    return this.rollbackCount;
  }

  /** The receipt of a transaction this chain sent; `since` is `rollbacks()` when it was sent. */
  async receipt(hash: Hex, label: string, since = this.rollbackCount): Promise<TransactionReceipt> {
    return requireSuccess(await waitForReceipt(this.publicClient, hash, () => this.rollbackCount !== since), label);
  }

  async send(from: FixtureAccount, label: string, tx: TxRequest): Promise<TransactionReceipt> {
    return requireSuccess(await sendAndWait(this, from, tx), label);
  }

  async deploy(
    label: string,
    abi: readonly unknown[],
    bytecode: Hex,
    args: readonly unknown[],
  ): Promise<`0x${string}`> {
    const since = this.rollbackCount;
    const hash = await this.walletClientFor(OPERATOR).deployContract({ abi: abi as any, bytecode, args: args as any });
    const receipt = await this.receipt(hash, `deploy ${label}`, since);
    if (!receipt.contractAddress) throw new Error(`chain: no contract address for ${label}`);
    return viem().getAddress(receipt.contractAddress);
  }

  async write(
    from: FixtureAccount,
    label: string,
    to: `0x${string}`,
    abi: readonly unknown[],
    functionName: string,
    args: readonly unknown[],
    gas?: bigint,
  ) {
    const call = {
      address: to,
      abi: abi as any,
      functionName,
      args: args as any,
      ...(gas === undefined ? {} : { gas }),
    };
    const since = this.rollbackCount;
    const hash = await this.walletClientFor(from).writeContract(call);
    return this.receipt(hash, label, since);
  }

  // ---------------------------------------------------------------- deployment

  /**
   * Deploys, or (in-process, a deployment cached for the same code, contracts, network and config) sends the
   * cached deployment's entries to the fresh network: the same transactions, mined the same way.
   */
  async deployAll(progress: (step: string) => void, cache = new DeployCache()): Promise<void> {
    const config = { groups: this.groups, tiers: this.tiers, packetTypes: this.packetTypes };
    // Only a fresh in-process network (nothing journaled yet) can take the cached deployment.
    let key: string | null = null;
    try {
      if (this.journal && this.journal.length === 0) key = deployCacheKey(config);
    } catch {
      // A layout whose sources cannot be read for the key (a bundle): no cache, a deployment as before.
    }
    const cached = key ? cache.load(key) : null;
    let deployed = cached && (await this.replayDeployment(cached, progress));
    this.deployedFromCache = !!deployed;
    if (key && cached && !deployed) {
      // The network holds part of it: startChain starts again on a fresh one, which then deploys.
      cache.forget(key);
      throw new CachedDeploymentFailed();
    }
    if (!deployed) {
      const steps: string[] = [];
      // The deployment's own journaled calls: a journal holding any other (a wallet's transaction sent to the
      // served JSON-RPC meanwhile) is not cached, so no later chain replays it.
      let own = 0;
      const deployer: Deployer = {
        deploy: (...args) => (own++, this.deploy(...args)),
        write: (...args) => (own++, this.write(...args)),
        raw: (method, params) => (method.endsWith("_setCode") && own++, this.raw(method, params)),
      };
      deployed = await deployAll(deployer, config, (step) => {
        steps.push(step);
        progress(step);
      });
      const block = Number(await this.raw("eth_blockNumber"));
      if (key && this.journal && this.journal.length === own)
        cache.save(key, {
          entries: this.journal.snapshotEntries().map(([method, params]) => [method, params]),
          steps,
          addresses: deployed.addresses,
          vrf: { subscriptionId: deployed.vrf.subscriptionId.toString(), keyHash: deployed.vrf.keyHash },
          block,
        });
    }
    this.addresses = deployed.addresses;
    this.vrf = deployed.vrf;
    this.deployBlock = BigInt((await this.raw("eth_blockNumber")) as string);
    this.deployJournalLength = this.journal?.length ?? 0;
    this.deploySnapshot = await this.snapshot();
  }

  /**
   * The cached deployment's entries, each through the provider a deployment's own sends go through (block time
   * pinned to the clock alike, journaled alike). Null when one of them fails or reverts or the chain does not end
   * where the deployment did (a cache made by other code). No snapshot is taken to undo it: the network's
   * snapshot ids stay those of a fresh deployment.
   */
  private async replayDeployment(
    cached: CachedDeployment,
    progress: (step: string) => void,
  ): Promise<Deployment | null> {
    let ok = true;
    try {
      for (const [method, params] of cached.entries) {
        const result = await this.eip1193.request({ method, params });
        if (method === "eth_sendRawTransaction") {
          const receipt = (await this.raw("eth_getTransactionReceipt", [result])) as { status?: string } | null;
          if (receipt?.status !== "0x1") {
            ok = false;
            break;
          }
        }
      }
      if (ok) ok = Number(await this.raw("eth_blockNumber")) === cached.block;
    } catch {
      ok = false;
    }
    if (!ok) return null;
    // The deployment's steps, once it is known to stand (a replay that fails reports none: the deployment does).
    for (const step of cached.steps) progress(step);
    return {
      addresses: { ...cached.addresses },
      vrf: { subscriptionId: BigInt(cached.vrf.subscriptionId), keyHash: cached.vrf.keyHash },
    };
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
    this.journals++;
    built.journal.addListener("notification", this.forward);
    this.genesisTime = doc.genesis_time;
    this.addresses = { ...doc.deployment.addresses };
    this.vrf = { subscriptionId: BigInt(doc.deployment.vrf_subscription_id), keyHash: doc.deployment.vrf_key_hash };
    this.deployBlock = BigInt(doc.deployment.block);
    this.deployJournalLength = doc.deployment.journal_length;
    // Snapshot ids of the old network mean nothing on the new one.
    this.snapshots.clear();
    this.snapshotOrder = [];
    const id = viem().toHex(++this.snapshotCounter);
    this.snapshots.set(id, built.deploySnapshot);
    this.snapshotOrder.push(id);
    this.deploySnapshot = id;
  }

  async importState(input: ChainStateExport): Promise<void> {
    if (!this.inProcess)
      throw new JournalError(
        "an attached chain (one the emulator was given the RPC URL of) cannot load a chain from a state export; start the emulator with its own chain",
      );
    const doc = parseChainExport(input);
    if (doc.chain_id !== this.chainId)
      throw new JournalError(`the state's chain has chain id ${doc.chain_id}, this chain ${this.chainId}`);
    const built = await rebuildNetwork(doc);
    // Everything queued on the old network finishes first; the VRF cursor continues from the new head.
    await this.scanChain;
    this.rollbackCount++;
    this.adopt(doc, built);
    this.scanChain = this.scanChain.then(() => {
      if (this.scanCursor !== null) this.scanCursor = BigInt(doc.head.number);
    });
    await this.scanChain;
    this.notifyBlocks();
  }

  // ---------------------------------------------------------------- time

  private async latestTimestamp(): Promise<number> {
    const latest = (await this.raw("eth_getBlockByNumber", ["latest", false])) as { timestamp: string };
    return Number(latest.timestamp); // a 0x quantity, exact below 2^53
  }

  /** Next block at max(ts, latest block time). */
  private async pinNextBlockTime(ts: number): Promise<void> {
    // In-process the journal knows the head (one read fewer per transaction); attached, ask the node.
    const latest = this.journal ? this.journal.head.timestamp : await this.latestTimestamp();
    await this.raw("evm_setNextBlockTimestamp", [Math.max(ts, latest)]);
  }

  async setTime(unixMs: number): Promise<void> {
    const target = Math.floor(unixMs / 1000);
    // In-process with nothing in flight the journal's head is the latest block (one read fewer per clock move).
    const settled = this.journal?.settledHead;
    const latest = settled ? settled.timestamp : await this.latestTimestamp();
    // Already there, or behind the chain (clamped: block time never goes backwards).
    if (target <= latest) return;
    // An empty block at exactly `target`: block.timestamp reads (eth_call on latest) see the new time
    // at once, and later blocks continue from it at wall-clock pace.
    await this.request("evm_mine", [target]);
  }

  // ---------------------------------------------------------------- snapshots

  async snapshot(): Promise<string> {
    const internal = (await this.raw("evm_snapshot")) as string;
    const id = viem().toHex(++this.snapshotCounter);
    this.snapshots.set(id, internal);
    this.snapshotOrder.push(id);
    return id;
  }

  async revert(id: string): Promise<void> {
    const internal = this.snapshots.get(id);
    if (internal === undefined) throw new Error(`chain: unknown or invalidated snapshot ${id}`);
    this.rollbackCount++;
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
    // The head moved (back): watchers of blocks look again, as after a block mined.
    this.notifyBlocks();
  }

  // ---------------------------------------------------------------- faucet

  async faucet(address: `0x${string}`, amounts: { usdc?: bigint; eth?: bigint }) {
    const out: { usdcTx?: `0x${string}`; ethTx?: string } = {};
    if (amounts.usdc && amounts.usdc > 0n) {
      const r = await this.write(OPERATOR, "faucet mint", this.addresses.stablecoin, usdStablecoinAbi, "mint", [
        address,
        amounts.usdc,
      ]);
      out.usdcTx = r.transactionHash;
    }
    if (amounts.eth && amounts.eth > 0n) {
      if (this.inProcess) {
        const bal = BigInt((await this.raw("eth_getBalance", [OPERATOR.address, "latest"])) as string);
        if (bal < amounts.eth + 10n ** 18n) {
          await this.raw("hardhat_setBalance", [
            OPERATOR.address,
            viem().toHex(bal + amounts.eth + 10_000n * 10n ** 18n),
          ]);
        }
      }
      const r = await this.send(OPERATOR, "faucet eth", { to: address, value: amounts.eth });
      out.ethTx = r.transactionHash;
    }
    return out;
  }

  // ---------------------------------------------------------------- VRF

  async head(): Promise<{ number: bigint; hash: Hex }> {
    if (this.journal) return { number: BigInt(this.journal.head.number), hash: this.journal.head.hash };
    const block = await this.publicClient.getBlock({ blockTag: "latest" });
    return { number: block.number, hash: block.hash };
  }

  contentKey(): string | null {
    return this.journal ? `${this.journals}:${this.journal.changes}` : null;
  }

  contentAt(): { key: string; head: Hex } | null {
    return this.journal ? { key: `${this.journals}:${this.journal.changes}`, head: this.journal.head.hash } : null;
  }

  historyKey(): string | null {
    return this.journal ? `${this.journals}:${this.journal.rewinds}` : null;
  }

  async pendingVrfRequests(): Promise<bigint[]> {
    // In-process, the list can only change with a transaction or a state edit: it is read once per content key. Workers ask per submitted purchase; uncached, 300 in flight cost 300 reads of 300 ids each.
    const at = this.contentKey();
    if (at !== null && this.pendingCache?.at === at) return [...this.pendingCache.ids];
    const sorted = await pendingVrfRequests(this.publicClient, this.addresses.vrfCoordinator);
    if (at !== null) this.pendingCache = { at, ids: sorted };
    return [...sorted];
  }

  isVrfPending(requestId: bigint): Promise<boolean> {
    return isVrfPending(this.publicClient, this.addresses.vrfCoordinator, requestId);
  }

  vrfWordsFor(requestId: bigint, numWords: number): bigint[] {
    return vrfWords(this.seed, requestId, numWords);
  }

  fulfillVrf(requestId?: bigint, words?: bigint[]) {
    return fulfillVrf(this, this.addresses.vrfCoordinator, this.seed, requestId, words);
  }

  fulfillPendingVrf(requestId: bigint, words: () => Promise<bigint[] | undefined>) {
    return fulfillPendingVrf(this, this.addresses.vrfCoordinator, this.seed, requestId, words);
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

  fulfilmentOf(requestId: bigint): Hex | null {
    const seen = this.fulfilments.get(requestId.toString());
    return seen && seen.past === this.historyKey() ? seen.tx : null;
  }

  /** The successful fulfilments among a scan's logs (the coordinator's), kept for `fulfilmentOf`; the newest 4,096. */
  private noteFulfilments(logs: Log[], past: string): void {
    for (const log of viem().parseEventLogs({ abi: vrfCoordinatorMockAbi, eventName: "RandomWordsFulfilled", logs })) {
      if (!log.args.success) continue;
      const id = log.args.requestId.toString();
      this.fulfilments.delete(id);
      this.fulfilments.set(id, { tx: log.transactionHash, past });
      if (this.fulfilments.size > 4096) this.fulfilments.delete(this.fulfilments.keys().next().value!);
    }
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
        // In-process the journal knows the head: every mining call passed through it before this scan.
        const head = this.journal
          ? BigInt(this.journal.head.number)
          : BigInt((await this.raw("eth_blockNumber")) as string);
        if (head <= this.scanCursor) return;
        // Only blocks without transactions since the last scan (the clock's): no request was logged in them.
        const key = this.contentKey();
        // Read before the logs: a revert after it moves it, and what this scan saw is not trusted then.
        const past = this.historyKey();
        if (key !== null && key === this.scanKey) {
          this.scanCursor = head;
          return;
        }
        const logs = (await this.raw("eth_getLogs", [
          {
            fromBlock: viem().toHex(this.scanCursor + 1n),
            toBlock: viem().toHex(head),
            address: this.addresses.vrfCoordinator,
          },
        ])) as Log[];
        this.scanCursor = head;
        this.scanKey = key;
        if (past !== null) this.noteFulfilments(logs, past);
        const requested = viem().parseEventLogs({
          abi: vrfCoordinatorMockAbi,
          eventName: "RandomWordsRequested",
          logs,
        });
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
