import type { Chain, ChainStateExport, RpcGuard } from "../chain/index.ts";
import type { VirtualClock } from "./clock/clock.ts";

// Runs the local chain for one emulator: block time follows the virtual clock,
// VRF requests are fulfilled automatically after a delay on that clock (or by
// hand in manual mode), chain snapshots travel with store snapshots, and the
// chain is exported and imported with the state (its journal, chain/journal.ts).

export type VrfMode = "auto" | "manual";

/** The chain's fixed role accounts, as `info()` and the control plane's balances list them. */
export const CHAIN_ROLES = ["operator", "relayer", "poolSigner", "treasury", "vrfNode"] as const;

const POLL_MS = 1_000;

export interface ChainHostOptions {
  /** Serve JSON-RPC on 127.0.0.1:<port> (0 = any free port; false = in-process only). */
  rpcPort?: number | false;
  /** Attach to an existing node instead of starting one (contracts are deployed there). */
  rpcUrl?: string;
  /** `auto` (default): fulfil each VRF request `vrfDelayMs` later on the clock; `manual`: POST /_emulator/vrf/fulfill. */
  vrf?: VrfMode;
  /** Reveal delay in auto mode (default 5 s of virtual time). */
  vrfDelayMs?: number;
  /** Told each start-up step ("starting network", each deployment, "ready"): the CLI prints them. */
  onProgress?: (step: string) => void;
  /**
   * Who the served JSON-RPC answers: the emulator sets its listener policy (pipeline/rpc-guard.ts).
   * @internal
   */
  rpcGuard?: RpcGuard;
}

/** A chain snapshot: the network's own (fast to revert to) and the chain as data (rebuilt from when the former is gone). */
interface SavedSnapshot {
  id: string;
  state: ChainStateExport | null;
}

/** The words a VRF request is to be fulfilled with, or undefined for the seed's. */
export type WordSource = (requestId: bigint) => Promise<bigint[] | undefined>;

export class ChainHost {
  vrfMode: VrfMode;
  readonly vrfDelayMs: number;
  private unsubscribe: (() => void) | null = null;
  private offClock: (() => void) | null = null;
  private pollTimer: number | null = null;
  private closed = false;
  private scheduled = new Map<bigint, number>();
  private saved = new Map<string, SavedSnapshot>();
  private savedSeq = 0;
  /** Who may choose a request's words (steered reveals: the mystery and instant areas); the first answer wins. */
  private wordSources = new Set<WordSource>();

  private constructor(
    readonly gateway: Chain,
    private readonly clock: VirtualClock,
    opts: ChainHostOptions,
  ) {
    this.vrfMode = opts.vrf ?? "auto";
    this.vrfDelayMs = opts.vrfDelayMs ?? 5_000;
  }

  /** `restore`: rebuild the chain of a state export instead of deploying a fresh one. */
  static async start(
    clock: VirtualClock,
    seed: number,
    opts: ChainHostOptions,
    restore?: ChainStateExport,
  ): Promise<ChainHost> {
    const { startChain } = await import("../chain/index.ts");
    const chain = await startChain({
      seed,
      startTime: clock.now(),
      now: () => clock.now(),
      rpcPort: opts.rpcUrl ? undefined : (opts.rpcPort ?? 0),
      rpcUrl: opts.rpcUrl,
      onProgress: opts.onProgress,
      rpcGuard: opts.rpcGuard,
      restore,
    });
    const host = new ChainHost(chain, clock, opts);
    host.unsubscribe = chain.onVrfRequested((id) => host.onRequested(id));
    // Mined blocks already use the clock's time; an empty block marks each jump for readers of `latest`.
    host.offClock = clock.onChange((now) => chain.setTime(now));
    if (chain.attached) host.armPoll();
    if (restore) await host.resume();
    return host;
  }

  /** Blocks mined through the chain (or, attached, found by the poll): areas that watch the chain re-check then. */
  onBlocks(listener: () => void): () => void {
    return this.gateway.onBlocks(listener);
  }

  /** Attached node: a look for blocks mined by others each second of virtual time (stops with a manual clock). */
  private armPoll(): void {
    this.pollTimer = this.clock.after(
      POLL_MS,
      async () => {
        try {
          await this.gateway.poll();
        } finally {
          if (!this.closed) this.armPoll();
        }
      },
      "chain: poll the attached node",
    );
  }

  /** After the chain was rebuilt: block time catches up with the clock, pending VRF requests are scheduled again. */
  private async resume(): Promise<void> {
    for (const timer of this.scheduled.values()) this.clock.cancel(timer);
    this.scheduled.clear();
    await this.gateway.setTime(this.clock.now());
    if (this.vrfMode === "auto") for (const req of await this.gateway.pendingVrfRequests()) this.onRequested(req);
  }

  private onRequested(requestId: bigint): void {
    if (this.vrfMode !== "auto" || this.scheduled.has(requestId)) return;
    const timer = this.clock.after(
      this.vrfDelayMs,
      async () => {
        this.scheduled.delete(requestId);
        // One read of the request's record (not the whole pending list: 300 ids after a restart with reveals in
        // flight), which is also the fulfilment's; a request answered meanwhile is left alone.
        await this.gateway.fulfillPendingVrf(requestId, () => this.wordsFor(requestId));
      },
      `vrf fulfil ${requestId}`,
    );
    this.scheduled.set(requestId, timer);
  }

  /** Registers a source of steered words; returns its removal. */
  addWordSource(source: WordSource): () => void {
    this.wordSources.add(source);
    return () => this.wordSources.delete(source);
  }

  /** The steered words of a request, or undefined (the seed's words). */
  async wordsFor(requestId: bigint): Promise<bigint[] | undefined> {
    for (const source of this.wordSources) {
      const words = await source(requestId);
      if (words) return words;
    }
    return undefined;
  }

  /** Switching to auto schedules what is already pending. */
  async setVrfMode(mode: VrfMode): Promise<void> {
    this.vrfMode = mode;
    if (mode === "auto") for (const id of await this.gateway.pendingVrfRequests()) this.onRequested(id);
    else {
      for (const timer of this.scheduled.values()) this.clock.cancel(timer);
      this.scheduled.clear();
    }
  }

  async snapshot(): Promise<string> {
    const id = `chain_${++this.savedSeq}`;
    this.saved.set(id, { id: await this.gateway.snapshot(), state: this.gateway.exportState() });
    return id;
  }

  /**
   * Back to a snapshot of this host. The network's own snapshot is gone after an import or after
   * reverting to an earlier one; the chain is then rebuilt from the journal saved with it.
   */
  async revert(id: string): Promise<void> {
    const saved = this.saved.get(id);
    if (!saved) throw new Error(`chain: unknown snapshot ${id}`);
    try {
      await this.gateway.revert(saved.id);
    } catch (err) {
      if (!saved.state) throw err;
      await this.gateway.importState(saved.state);
      saved.id = await this.gateway.snapshot();
    }
    await this.resume();
  }

  async reset(): Promise<void> {
    await this.gateway.revert(this.gateway.deploySnapshot);
    await this.resume();
  }

  /** The chain as data for a state export (null when attached with --rpc-url: that node keeps it). */
  exportState(): ChainStateExport | null {
    return this.gateway.exportState();
  }

  /** Replaces the chain with an exported one; `null` (an export without a chain) goes back to the fresh deployment. */
  async importState(doc: ChainStateExport | null): Promise<void> {
    if (doc) await this.gateway.importState(doc);
    else if (this.gateway.exportState()) await this.gateway.revert(this.gateway.deploySnapshot);
    await this.resume();
  }

  info() {
    const c = this.gateway;
    return {
      rpcUrl: c.rpcUrl,
      chainId: c.chainId,
      vrf: { mode: this.vrfMode, delay_ms: this.vrfDelayMs },
      contracts: { ...c.addresses },
      roles: Object.fromEntries(CHAIN_ROLES.map((r) => [r, c[r].address])),
      accounts: c.endUsers.map((a) => ({ label: a.label, address: a.address, private_key: a.privateKey })),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.pollTimer !== null) this.clock.cancel(this.pollTimer);
    this.unsubscribe?.();
    this.offClock?.();
    await this.gateway.close();
  }
}
