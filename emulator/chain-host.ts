import type { Chain } from "../chain/index.ts";
import type { VirtualClock } from "./clock/clock.ts";

// Runs the local chain for one emulator: block time follows the virtual clock,
// VRF requests are fulfilled automatically after a delay on that clock (or by
// hand in manual mode), and chain snapshots travel with store snapshots.

export type VrfMode = "auto" | "manual";

export interface ChainHostOptions {
  /** Serve JSON-RPC on 127.0.0.1:<port> (0 = any free port; false = in-process only). */
  rpcPort?: number | false;
  /** Attach to an existing node instead of starting one (contracts are deployed there). */
  rpcUrl?: string;
  /** `auto` (default): fulfil each VRF request `vrfDelayMs` later on the clock; `manual`: POST /_emulator/vrf/fulfill. */
  vrf?: VrfMode;
  /** Reveal delay in auto mode (default 5 s of virtual time). */
  vrfDelayMs?: number;
  onProgress?: (step: string) => void;
}

export class ChainHost {
  vrfMode: VrfMode;
  readonly vrfDelayMs: number;
  /** Snapshot taken right after deploy: what `reset` returns to. */
  private baseline = "";
  private unsubscribe: (() => void) | null = null;
  private offClock: (() => void) | null = null;
  private scheduled = new Map<bigint, number>();

  private constructor(
    readonly chain: Chain,
    private readonly clock: VirtualClock,
    opts: ChainHostOptions,
  ) {
    this.vrfMode = opts.vrf ?? "auto";
    this.vrfDelayMs = opts.vrfDelayMs ?? 5_000;
  }

  static async start(clock: VirtualClock, seed: number, opts: ChainHostOptions): Promise<ChainHost> {
    const { startChain } = await import("../chain/index.ts");
    const chain = await startChain({
      seed,
      startTime: clock.now(),
      now: () => clock.now(),
      rpcPort: opts.rpcUrl ? undefined : (opts.rpcPort ?? 0),
      rpcUrl: opts.rpcUrl,
      onProgress: opts.onProgress,
    });
    const host = new ChainHost(chain, clock, opts);
    host.unsubscribe = chain.onVrfRequested((id) => host.onRequested(id));
    // Mined blocks already use the clock's time; an empty block marks each jump for readers of `latest`.
    host.offClock = clock.onChange((now) => chain.setTime(now));
    host.baseline = await chain.snapshot();
    return host;
  }

  private onRequested(requestId: bigint): void {
    if (this.vrfMode !== "auto" || this.scheduled.has(requestId)) return;
    const timer = this.clock.after(
      this.vrfDelayMs,
      async () => {
        this.scheduled.delete(requestId);
        const pending = await this.chain.pendingVrfRequests();
        if (pending.includes(requestId)) await this.chain.fulfillVrf(requestId);
      },
      `vrf fulfil ${requestId}`,
    );
    this.scheduled.set(requestId, timer);
  }

  /** Switching to auto schedules what is already pending. */
  async setVrfMode(mode: VrfMode): Promise<void> {
    this.vrfMode = mode;
    if (mode === "auto") for (const id of await this.chain.pendingVrfRequests()) this.onRequested(id);
    else {
      for (const timer of this.scheduled.values()) this.clock.cancel(timer);
      this.scheduled.clear();
    }
  }

  async snapshot(): Promise<string> {
    return this.chain.snapshot();
  }

  async revert(id: string): Promise<void> {
    for (const timer of this.scheduled.values()) this.clock.cancel(timer);
    this.scheduled.clear();
    await this.chain.revert(id);
    await this.chain.setTime(this.clock.now());
    if (this.vrfMode === "auto") for (const req of await this.chain.pendingVrfRequests()) this.onRequested(req);
  }

  async reset(): Promise<void> {
    await this.revert(this.baseline);
  }

  info() {
    const c = this.chain;
    return {
      rpcUrl: c.rpcUrl,
      chainId: c.chainId,
      vrf: { mode: this.vrfMode, delay_ms: this.vrfDelayMs },
      contracts: { ...c.addresses },
      roles: Object.fromEntries(
        (["operator", "relayer", "poolSigner", "treasury", "vrfNode"] as const).map((r) => [r, c[r].address]),
      ),
      accounts: c.endUsers.map((a) => ({ label: a.label, address: a.address, private_key: a.privateKey })),
    };
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    this.offClock?.();
    await this.chain.close();
  }
}
