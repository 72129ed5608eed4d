import { chaosSchema, type WebhookChaos } from "./areas/webhooks/chaos.ts";
import type { ServerType } from "@hono/node-server";
import type { HttpHandler } from "msw";
import { VirtualClock, type ClockMode } from "./clock/clock.ts";
import { Store, type StateExport } from "./state/store.ts";
import { readStateFile, StateFileError, writeThrough, type StateFileWriter } from "./state/state-file.ts";
import { claimStateFile, resolveStateTarget } from "./state/state-claim.ts";
import type { KeyKind, State } from "./state/schema.ts";
import { EventBus } from "./bus.ts";
import { RateLimiter } from "./pipeline/rate-limit.ts";
import { Gates, DEFAULT_GATES } from "./pipeline/concurrency.ts";
import { Faults } from "./pipeline/faults.ts";
import { newAccount } from "./pipeline/metering.ts";
import { createFetch } from "./app.ts";
import { AREAS } from "./areas/index.ts";
import { AREA_RUNTIMES } from "./areas/area.ts";
import { createHandlers } from "./msw.ts";
import { panelsOf, type Panel } from "./ui/panels.ts";
import type { ResolvedOptions, Services } from "./pipeline/services.ts";
import type { EmulatorPlugin } from "./control/route.ts";
import { controlHost } from "./control/host.ts";
import { listen, urlHost } from "./pipeline/listen.ts";
import { CatalogIndex } from "./catalog-data/catalog-index.ts";
import { buildCatalog } from "../fixtures/catalog/index.ts";
import { applyOverlay, loadOverlay } from "./catalog-data/overlay.ts";
import { FIXTURE_KEYS, fixtureKeyRecord, makeKey } from "../fixtures/keys.ts";
import { hostCheck } from "./pipeline/host-check.ts";
import { ChainHost, type ChainHostOptions } from "./chain-host.ts";
import { Replay } from "./pipeline/replay.ts";
import { Runtime } from "./pipeline/runtime.ts";
import type { Chain, ChainStateExport } from "../chain/index.ts";

export type { ClockMode } from "./clock/clock.ts";
export type { StateExport } from "./state/store.ts";
export { StateFileError } from "./state/state-file.ts";
export { VirtualClock } from "./clock/clock.ts";
export { isLoopback } from "./msw.ts";
export { OverlayError, type CatalogOverlay } from "./catalog-data/overlay.ts";
export type { EmulatorPlugin, PluginParts } from "./control/route.ts";
export type { Exchange, RuntimeHooks } from "./pipeline/hooks.ts";
export { Replay, ReplayError, replayKey, isRecording, type Recording } from "./pipeline/replay.ts";
export type { Panel } from "./ui/panels.ts";

/** Origin the msw handlers answer when the emulator is used in-process without a port. */
export const IN_PROCESS_ORIGIN = "http://emulator.local";

/** Manual clocks start here unless told otherwise, so runs are reproducible. */
export const DEFAULT_MANUAL_START = Date.parse("2026-01-15T12:00:00.000Z");

export interface EmulatorOptions {
  /** Fixture seed (default 1): same seed, same keys and data. */
  seed?: number;
  /** `realtime` (default) or `manual` (time moves only when advanced). */
  clock?: ClockMode;
  /** Initial virtual time (default: wall time for realtime, 2026-01-15T12:00Z for manual). */
  startTime?: number | string | Date;
  /** `large` builds a catalog the size of the live one (~40k cards). */
  catalog?: "default" | "large";
  /** Listen on 127.0.0.1:<port> (0 = any free port). Omit for in-process use (msw handlers, `fetch`). */
  port?: number;
  /**
   * The address to listen on instead of 127.0.0.1 (`--host`). It is also an allowed Host. A
   * non-loopback address makes the control plane reachable from the network.
   */
  host?: string;
  /**
   * Host names the listening server answers besides loopback names and IP addresses (DNS-rebinding
   * guard, as Vite's `server.allowedHosts`): exact names, or `.example.test` for a domain and its
   * subdomains. Other Hosts get 403 `host_not_allowed`. In-process calls are never checked.
   */
  allowedHosts?: string[];
  /** Per-IP budget per minute (default 3000). */
  ipRateLimitPerMin?: number;
  /** Concurrency gate sizes, merged over the defaults (warehouse_read 20, catalog 24, …). */
  gates?: Record<string, number>;
  /** Reject http, loopback and private webhook URLs, as the live service does. */
  strictWebhookUrls?: boolean;
  /** Delivery chaos for every webhook without its own (POST /_emulator/webhooks/:id/chaos); off by default, deterministic from the seed. */
  webhookChaos?: WebhookChaos;
  /** Check every answer against its route's schema (a mismatch is a 500 naming the field); the project's tests turn it on. */
  validateResponses?: boolean;
  /** Start from an exported state (the chain included) instead of the fixtures. */
  state?: StateExport;
  /**
   * Keep the state in this file: imported on start when it exists (unless `state` is given),
   * and every change written through to it, atomically, within a second (`--state FILE`).
   * The in-process chain is part of it; a chain attached with `rpcUrl` is not (that node keeps its own state).
   */
  stateFile?: string;
  /**
   * The local chain: `true` (JSON-RPC on an ephemeral loopback port), options, or false/omitted for none.
   * `npx emulator` starts it on 8545 by default.
   */
  chain?: boolean | ChainHostOptions;
  /**
   * Answer the reads recorded in this directory (`npx emulator shadow --record DIR`) byte for byte,
   * after auth, rate limits and credits; every other request as usual (`--replay DIR`).
   */
  replay?: string;
  /**
   * Lay this catalog overlay (`npx emulator fixtures import DIR` writes one from recorded answers) over the
   * seeded catalog: its cards, expansions and sealed products replace the seed's of the same id or are added.
   */
  catalogOverlay?: string;
  /**
   * Plugins attached to this emulator (none by default): each may rewrite finished answers, offset the
   * webhook signing time and add control routes (emulator/pipeline/hooks.ts). Test aids attach this way.
   */
  plugins?: readonly EmulatorPlugin[];
}

export interface EmulatorKey {
  name: string;
  key: string;
  kind: KeyKind;
  scopes: string[];
  label: string;
}

export interface Emulator {
  /** Base URL: the HTTP server when `port` was given, else the in-process origin the msw handlers match. */
  url: string;
  /** Calls the emulator in-process; relative paths resolve against `url`. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** msw handlers for `setupServer(...emu.handlers)`. */
  handlers: HttpHandler[];
  clock: VirtualClock;
  /** The local chain (null when started without one). */
  chain: Chain | null;
  /** JSON-RPC URL of the local chain (null without one, or when it is in-process only). */
  rpcUrl: string | null;
  /** The fixture keys (by name: demo, tier, catalog-only, tenant, tenant-readonly, legacy). */
  keys: EmulatorKey[];
  key(name: string): string;
  reset(): Promise<void>;
  snapshot(): Promise<string>;
  restore(id: string): Promise<void>;
  exportState(): StateExport;
  /** Shows a report on the dashboard's Reports tab, live (replaces the panel of the same id). */
  publishPanel(panel: Panel): void;
  close(): Promise<void>;
  /** Internals for tests and tools. */
  services: Services;
}

function parseChaosOption(value: WebhookChaos): WebhookChaos {
  const r = chaosSchema.safeParse(value);
  if (!r.success)
    throw new Error(
      `webhookChaos is invalid: ${r.error.issues.map((i) => `${i.path.join(".") || "(root)"} ${i.message}`).join("; ")}`,
    );
  return r.data;
}

function resolveOptions(o: EmulatorOptions): ResolvedOptions {
  return {
    seed: o.seed ?? 1,
    catalog: o.catalog ?? "default",
    ipRateLimitPerMin: o.ipRateLimitPerMin ?? 3000,
    gates: { ...DEFAULT_GATES, ...o.gates },
    strictWebhookUrls: o.strictWebhookUrls ?? false,
    ...(o.webhookChaos ? { webhookChaos: parseChaosOption(o.webhookChaos) } : {}),
    validateResponses: o.validateResponses ?? false,
  };
}

function startTimeOf(o: EmulatorOptions): number {
  if (o.startTime !== undefined) {
    const t =
      o.startTime instanceof Date
        ? o.startTime.getTime()
        : typeof o.startTime === "string"
          ? Date.parse(o.startTime)
          : o.startTime;
    if (!Number.isFinite(t)) throw new Error(`startTime is not a valid time: ${String(o.startTime)}`);
    return t;
  }
  // A state file resumes where it stopped; in realtime mode never behind wall time (the time in
  // between passed for everyone), in manual mode exactly there.
  if (o.state) return (o.clock ?? "realtime") === "manual" ? o.state.now : Math.max(Date.now(), o.state.now);
  return (o.clock ?? "realtime") === "manual" ? DEFAULT_MANUAL_START : Date.now();
}

export function initialState(seed: number, catalog: "default" | "large", now: number): State {
  const createdAt = new Date(now).toISOString();
  const state: State = { seed, catalog_size: catalog, keys: {}, credits: {}, counters: {}, areas: {} };
  for (const spec of FIXTURE_KEYS) {
    const rec = fixtureKeyRecord(seed, spec, createdAt);
    state.keys[rec.key] = rec;
    if (rec.kind !== "legacy") state.credits[rec.key] = newAccount(now);
  }
  return state;
}

/** The state to start from: the `state` option, else the state file's; checked against an explicit seed / catalog. */
function startingState(input: EmulatorOptions, target: string | null): StateExport | undefined {
  if (input.state) {
    try {
      Store.parseExport(input.state);
    } catch (err) {
      throw new Error(`state option: ${(err as Error).message}`);
    }
  }
  let doc = input.state;
  if (!doc && target) {
    try {
      doc = readStateFile(target);
    } catch (err) {
      throw new StateFileError(input.stateFile!, (err as Error).message, "Delete the file or point --state elsewhere.");
    }
  }
  if (!doc) return undefined;
  // The state's seed and catalog rule (its keys and records come from them): one asked for explicitly must agree.
  const clash =
    input.seed !== undefined && input.seed !== doc.state.seed
      ? `it holds seed ${doc.state.seed}, but seed ${input.seed} was asked for`
      : input.catalog !== undefined && input.catalog !== doc.state.catalog_size
        ? `it holds the ${doc.state.catalog_size} catalog, but the ${input.catalog} catalog was asked for`
        : null;
  if (clash && input.state)
    throw new Error(`state option: ${clash}; drop the seed / catalog option (the state's own is used)`);
  if (clash)
    throw new StateFileError(
      input.stateFile!,
      clash,
      "Drop --seed / --catalog (the file's own is used) or point --state at another file.",
    );
  return doc;
}

export async function createEmulator(input: EmulatorOptions = {}): Promise<Emulator> {
  // A state file is resolved (through symlinks) and claimed before anything starts, so a file that
  // cannot be used stops the start with one line and nothing to clean up.
  const target = input.stateFile ? resolveStateTarget(input.stateFile) : null;
  const state = startingState(input, target);
  const release = target ? claimStateFile(input.stateFile!, target) : null;
  try {
    return await start({ ...input, state }, target, release);
  } catch (err) {
    release?.();
    throw err;
  }
}

async function start(options: EmulatorOptions, target: string | null, release: (() => void) | null): Promise<Emulator> {
  const opts = resolveOptions(options);
  if (options.state) {
    opts.seed = options.state.state.seed;
    opts.catalog = options.state.state.catalog_size;
  }
  const clock = new VirtualClock({ mode: options.clock ?? "realtime", start: startTimeOf(options) });
  const createdAt = clock.now();
  const store = new Store(() => initialState(opts.seed, opts.catalog, createdAt));
  if (options.state) store.import(options.state);

  const services: Services = {
    options: opts,
    store,
    clock,
    bus: new EventBus(),
    limiter: new RateLimiter(),
    gates: new Gates(opts.gates),
    faults: new Faults(opts.seed),
    catalog: new CatalogIndex(seededCatalog(opts.seed, opts.catalog, options.catalogOverlay)),
    hooks: [],
    chain: null,
    runtime: new Runtime(),
    // Loaded before anything starts, so a bad directory stops the start with nothing to clean up.
    ...(options.replay !== undefined ? { replay: Replay.load(options.replay) } : {}),
  };
  // Without a running chain, a state's chain is kept as it was, for a later start with one.
  let carriedChain: ChainStateExport | null = options.state?.chain ?? null;
  if (options.chain) {
    const chainOpts = options.chain === true ? {} : options.chain;
    if (chainOpts.rpcUrl && options.stateFile)
      console.error(
        `[emulator] --state ${options.stateFile}: the chain attached with --rpc-url is not part of the state file (that node keeps its own state)`,
      );
    services.chain = await ChainHost.start(clock, opts.seed, chainOpts, options.state?.chain ?? undefined);
  }
  const chainHost = services.chain;
  store.exportChain = () => (chainHost ? chainHost.exportState() : carriedChain);
  const plugins = (options.plugins ?? []).map((p) => p(services));
  services.hooks = plugins;
  // Each area's runtime in this emulator, held by it (and stopped with it).
  const runtimes = services.runtime.of(AREA_RUNTIMES);
  for (const area of AREAS) if (area.start) runtimes.set(area.name, area.start(services));

  let persisted: StateFileWriter | null = null;
  const host = controlHost(services, {
    chainHost,
    carry: (chain) => (carriedChain = chain),
    stateFile: () => persisted?.status() ?? null,
  });

  const appFetch = createFetch(
    services,
    host,
    plugins.flatMap((p) => p.control ?? []),
  );
  let server: ServerType | null = null;
  let url = IN_PROCESS_ORIGIN;
  if (options.port !== undefined) {
    let listening;
    try {
      const bind = options.host ?? "127.0.0.1";
      listening = await listen(
        appFetch,
        options.port,
        bind,
        hostCheck([...(options.allowedHosts ?? []), ...(options.host ? [options.host] : [])]),
      );
    } catch (err) {
      await chainHost?.close();
      throw err;
    }
    const { server: s, port } = listening;
    server = s;
    url = `http://${urlHost(options.host)}:${port}`;
  }

  const handle = (req: Request) => appFetch(req);
  persisted = target ? writeThrough(target, () => store.export(clock.now())) : null;
  persisted?.flush();
  const origins = url === IN_PROCESS_ORIGIN ? [IN_PROCESS_ORIGIN] : [url, IN_PROCESS_ORIGIN];
  let handlers: HttpHandler[] | null = null;

  const keys = (): EmulatorKey[] =>
    FIXTURE_KEYS.map((spec) => {
      const key = makeKey(opts.seed, spec.name);
      return {
        name: spec.name,
        key,
        kind: spec.kind,
        scopes: store.state.keys[key]?.scopes ?? [...spec.scopes],
        label: spec.label,
      };
    });

  return {
    url,
    fetch(input, init) {
      const req = input instanceof Request ? input : new Request(new URL(String(input), url), init);
      return handle(req);
    },
    get handlers() {
      return (handlers ??= origins.flatMap((o) => createHandlers(o, handle)));
    },
    clock,
    chain: chainHost?.chain ?? null,
    rpcUrl: chainHost?.chain.rpcUrl ?? null,
    get keys() {
      return keys();
    },
    key(name) {
      const found = keys().find((k) => k.name === name);
      if (!found) throw new Error(`no fixture key "${name}" (have: ${FIXTURE_KEYS.map((k) => k.name).join(", ")})`);
      return found.key;
    },
    reset: () => host.reset(),
    snapshot: () => host.snapshot(),
    restore: (id) => host.restore(id),
    exportState: () => store.export(clock.now()),
    publishPanel: (panel) => panelsOf(services).publish(panel),
    async close() {
      // The last state reaches the file before anything stops.
      persisted?.flush();
      persisted?.stop();
      release?.();
      for (const runtime of runtimes.values()) runtime.stop();
      clock.dispose();
      if (server) {
        const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
        // Keep-alive clients (browsers, SDK agents) would otherwise hold the server open.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        await closed;
      }
      await chainHost?.close();
    },
    services,
  };
}

/** The seed's catalog, with the overlay file laid over it when one is given (read before anything starts). */
function seededCatalog(seed: number, size: "default" | "large", overlay: string | undefined) {
  const catalog = buildCatalog({ seed, size });
  return overlay === undefined ? catalog : applyOverlay(catalog, loadOverlay(overlay));
}
