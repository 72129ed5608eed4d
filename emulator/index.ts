import type { ServerType } from "@hono/node-server";
import type { HttpHandler } from "msw";
import { VirtualClock } from "./clock/clock.ts";
import { Store, type StateExport } from "./state/store.ts";
import { writeThrough, type StateFileWriter } from "./state/state-file.ts";
import { claimStateFile } from "./state/state-claim.ts";
import { EventBus } from "./bus.ts";
import { RateLimiter } from "./pipeline/rate-limit.ts";
import { Gates } from "./pipeline/concurrency.ts";
import { Faults } from "./pipeline/faults.ts";
import { createFetch } from "./app.ts";
import { AREAS } from "./areas/index.ts";
import { AREA_RUNTIMES } from "./areas/area.ts";
import { createHandlers } from "./msw.ts";
import { panelsOf } from "./ui/panels.ts";
import { journalOf } from "./ui/journal.ts";
import { parseFilter } from "./ui/journal-filter.ts";
import { stubsOf } from "./pipeline/stubs.ts";
import { controlClient, type ControlClient } from "./control-client.ts";
import type { Services } from "./pipeline/services.ts";
import { controlHost } from "./control/host.ts";
import { listen, urlHost } from "./pipeline/listen.ts";
import { CatalogIndex } from "./catalog-data/catalog-index.ts";
import { sharedCatalogIndex } from "./catalog-data/catalog-cache.ts";
import { precomputedCatalog } from "./catalog-data/catalog-source.ts";
import type { Catalog } from "./catalog-data/model.ts";
import { applyOverlay, loadOverlay } from "./catalog-data/overlay.ts";
import { FIXTURE_KEYS, fixtureKeyNamed, fixtureKeyValue } from "../fixtures/keys.ts";
import { IN_PROCESS_ORIGIN, initialState } from "./entry-values.ts";
import { listenerPolicy } from "./pipeline/listener-policy.ts";
import { rpcGuard } from "./pipeline/rpc-guard.ts";
import { addOwnListener } from "./pipeline/own-listeners.ts";
import { ChainHost } from "./chain-host.ts";
import { Replay } from "./pipeline/replay.ts";
import { Runtime } from "./pipeline/runtime.ts";
import type { Chain, ChainStateExport } from "../chain/index.ts";
import { contextProblems } from "./world/checks.ts";
import { WorldError } from "./world/problems.ts";
import { worldRun } from "./world/run.ts";

export type { ClockMode } from "./clock/clock.ts";
export { type EmulatorOptions } from "./config.ts";
export { DEFAULT_MANUAL_START, IN_PROCESS_ORIGIN, initialState } from "./entry-values.ts";
import { resolveConfig, type EmulatorConfig, type EmulatorOptions } from "./config.ts";
export type { StateExport } from "./state/store.ts";
export { StateFileError } from "./state/state-file.ts";
export { VirtualClock } from "./clock/clock.ts";
export { isLoopback } from "./msw.ts";
export { OverlayError, type CatalogOverlay } from "./catalog-data/overlay.ts";
export type { EmulatorPlugin, PluginParts } from "./control/route.ts";
export type { Exchange, RuntimeHooks } from "./pipeline/hooks.ts";
export { Replay, ReplayError, replayKey, isRecording, type Recording } from "./pipeline/replay.ts";
export type { Panel } from "./ui/panels.ts";
// The one Host/Origin policy of every listener the project opens (shadow proxy, receivers).
export {
  listenerPolicy,
  refuseNodeRequest,
  type ListenerPolicy,
  type ListenerPolicyOptions,
} from "./pipeline/listener-policy.ts";
export { WorldError } from "./world/problems.ts";
export type { JournalEntry, JournalBody } from "./ui/journal.ts";
export type { RequestFilter } from "./ui/journal-filter.ts";
export type { Stub, StubSpec, StubMatch } from "./pipeline/stubs.ts";
export { ControlError, type ControlClient } from "./control-client.ts";
export type { EmulatorKey, EmulatorRequests, EmulatorStubs } from "./public-types.ts";
import type { Emulator as PublicEmulator, EmulatorKey } from "./public-types.ts";

/** A path that means the same joined to an origin as text as resolved against it (no `//host`, `\\`, tab or newline). */
const PLAIN_PATH = /^\/(?![/\\])[^\t\n\r]*$/;

/**
 * The Request class behind `globalThis.Request`. While msw listens, its interceptors put a proxy there that
 * records every new request's raw headers (for node's http clients), which doubles the cost of building one;
 * a request `emu.fetch` builds goes straight to the app, never through an interceptor, so nothing reads them.
 * Looked up per call: a proxy forwards `prototype`, and a class installed later (the node server's) is used.
 */
const platformRequest = (): typeof Request => Request.prototype.constructor as typeof Request;

/**
 * The emulator as the project's own code sees it: the public `Emulator` (public-types.ts, what the package's
 * users get from `cardos-emulator`, emulator/public.ts) with its internals typed: the services, the chain
 * gateway with its viem clients and the state export with its records.
 */
export interface Emulator extends PublicEmulator {
  /** The local chain (null when started without one). */
  chain: Chain | null;
  exportState(): StateExport;
  /** Internals for tests and tools. */
  services: Services;
}

export async function createEmulator(input: EmulatorOptions = {}): Promise<Emulator> {
  // A state file is resolved (through symlinks) and claimed before anything starts, so a file that
  // cannot be used stops the start with one line and nothing to clean up.
  const config = resolveConfig(input);
  const release = config.stateFile ? claimStateFile(config.stateFile.path, config.stateFile.target) : null;
  try {
    return await start(config, release);
  } catch (err) {
    release?.();
    throw err;
  }
}

async function start(config: EmulatorConfig, release: (() => void) | null): Promise<Emulator> {
  const opts = config.service;
  const clock = new VirtualClock(config.clock);
  const createdAt = clock.now();
  const store = new Store(() => initialState(opts.seed, opts.catalog, createdAt));
  if (config.state) store.import(config.state);

  // The seed's catalog is built on its first read (docs/benchmarks.md "Start-up"): a start serves no catalog
  // request, so faker runs after the banner (the CLI reads it then) or with the first catalog call. An overlay
  // is read and laid over it now, so a bad overlay file stops the start.
  // The seed's own catalog comes from the build's precomputed file, else the generator (catalog-source.ts).
  const build = precomputedCatalog(opts.seed, opts.catalog) ?? (await generatedCatalog(opts.seed, opts.catalog));
  let catalog =
    config.catalogOverlay === undefined ? null : seededCatalog(opts.seed, opts.catalog, build, config.catalogOverlay);
  const services: Services = {
    options: opts,
    store,
    clock,
    bus: new EventBus(),
    limiter: new RateLimiter(),
    gates: new Gates(opts.gates),
    faults: new Faults(opts.seed),
    get catalog() {
      return (catalog ??= seededCatalog(opts.seed, opts.catalog, build, undefined));
    },
    hooks: [],
    chainHost: null,
    runtime: new Runtime(),
    // Loaded before anything starts, so a bad directory stops the start with nothing to clean up.
    ...(config.replay !== undefined ? { replay: Replay.load(config.replay) } : {}),
  };
  if (config.world) {
    // What only the built emulator can tell (every named card in this catalog): still before anything starts.
    const problems = contextProblems(config.world.world, services.catalog, config.chain !== null);
    if (problems.length) throw new WorldError(config.world.file, problems);
  }
  // Without a running chain, a state's chain is kept as it was, for a later start with one.
  let carriedChain: ChainStateExport | null = config.state?.chain ?? null;
  // One policy for every listener of this emulator (docs/decisions.md "What a web page can do").
  const policy = listenerPolicy({
    allowedHosts: config.listen
      ? [...config.listen.allowedHosts, ...(config.listen.host ? [config.listen.host] : [])]
      : [],
    allowedOrigins: config.allowedOrigins,
    hint: {
      origin: (o) =>
        `To allow it, pass allowedOrigins: ["${o}"] to createEmulator (--allowed-origin ${o} on the command line).`,
    },
  });
  if (config.chain)
    services.chainHost = await ChainHost.start(
      clock,
      opts.seed,
      { ...config.chain, rpcGuard: config.chain.rpcGuard ?? rpcGuard(policy) },
      config.state?.chain ?? undefined,
    );
  const chainHost = services.chainHost;
  const rpc = chainHost?.gateway.rpcUrl ? new URL(chainHost.gateway.rpcUrl) : null;
  if (rpc)
    addOwnListener(services, {
      what: "its chain's JSON-RPC",
      host: rpc.hostname.replace(/^\[|\]$/g, ""),
      port: Number(rpc.port || (rpc.protocol === "https:" ? 443 : 80)),
    });
  store.exportChain = () => (chainHost ? chainHost.exportState() : carriedChain);
  const plugins = config.plugins.map((p) => p(services));
  services.hooks = plugins;
  // Each area's runtime in this emulator, held by it (and stopped with it).
  const runtimes = services.runtime.of(AREA_RUNTIMES);
  for (const area of AREAS) if (area.start) runtimes.set(area.name, area.start(services));

  let persisted: StateFileWriter | null = null;
  const bareHost = controlHost(services, {
    chainHost,
    carry: (chain) => (carriedChain = chain),
    stateFile: () => persisted?.status() ?? null,
  });
  const world = config.world ? worldRun(services, config.world, bareHost) : null;
  const host = world?.host ?? bareHost;

  const appFetch = createFetch(
    services,
    host,
    plugins.flatMap((p) => p.control ?? []),
  );
  if (world) {
    try {
      await world.apply(appFetch, IN_PROCESS_ORIGIN);
    } catch (err) {
      for (const runtime of runtimes.values()) runtime.stop();
      clock.dispose();
      await chainHost?.close();
      throw err;
    }
  }
  let server: ServerType | null = null;
  let url = IN_PROCESS_ORIGIN;
  if (config.listen) {
    const { port: asked, host } = config.listen;
    let listening;
    try {
      listening = await listen(appFetch, asked, host ?? "127.0.0.1", policy);
    } catch (err) {
      await chainHost?.close();
      throw err;
    }
    const { server: s, port } = listening;
    server = s;
    addOwnListener(services, { what: "its API and control plane", host: host ?? "127.0.0.1", port });
    url = `http://${urlHost(host)}:${port}`;
  }

  const handle = (req: Request) => appFetch(req);
  persisted = config.stateFile ? writeThrough(config.stateFile.target, () => store.export(clock.now())) : null;
  persisted?.flush();
  const origins = url === IN_PROCESS_ORIGIN ? [IN_PROCESS_ORIGIN] : [url, IN_PROCESS_ORIGIN];
  let handlers: HttpHandler[] | null = null;

  const keys = (): EmulatorKey[] => [
    ...FIXTURE_KEYS.map((spec) => {
      const key = fixtureKeyValue(opts.seed, spec);
      return {
        name: spec.name,
        key,
        kind: spec.kind,
        scopes: store.state.keys[key]?.scopes ?? [...spec.scopes],
        label: spec.label,
      };
    }),
    ...(world?.named() ?? []).map(({ name, key, kind }) => ({
      name,
      key,
      kind,
      scopes: store.state.keys[key]?.scopes ?? [],
      label: store.state.keys[key]?.label ?? name,
    })),
  ];

  // A path (`/api/v1/…`) is joined to the origin as text: the Request parses its URL once (a URL object
  // first would be parsed twice). Anything else resolves against the origin as a URL does (`//host/…` too).
  const requestOf = (input: string | URL | Request, init?: RequestInit): Request =>
    input instanceof Request
      ? input
      : new (platformRequest())(
          typeof input === "string" && PLAIN_PATH.test(input) ? url + input : new URL(String(input), url),
          init,
        );
  const fetchIn = (input: string | URL | Request, init?: RequestInit) => handle(requestOf(input, init));
  // Made when first read: most emulators never use it, and it is ~100 closures (issue 38 goal 2).
  let control: ControlClient | null = null;

  return {
    url,
    get control() {
      return (control ??= controlClient(url, fetchIn));
    },
    fetch(input, init) {
      return handle(requestOf(input, init));
    },
    get handlers() {
      return (handlers ??= origins.flatMap((o) => createHandlers(o, handle)));
    },
    clock,
    chain: chainHost?.gateway ?? null,
    rpcUrl: chainHost?.gateway.rpcUrl ?? null,
    get keys() {
      return keys();
    },
    key(name) {
      // A fixture key's former name (`tier`) names it too.
      const found = keys().find((k) => k.name === (fixtureKeyNamed(name)?.name ?? name));
      if (!found)
        throw new Error(
          `no key named "${name}" (have: ${keys()
            .map((k) => k.name)
            .join(", ")})`,
        );
      return found.key;
    },
    requests: {
      find: (filter = {}) => journalOf(services).list(parseFilter(filter)),
      count: (filter = {}) => {
        const { limit: _limit, ...matching } = parseFilter(filter);
        return journalOf(services).count(matching);
      },
      clear: () => journalOf(services).clear(),
    },
    stubs: {
      add: (spec) => stubsOf(services).add(spec),
      list: () => stubsOf(services).all(),
      clear: () => stubsOf(services).clear(),
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

/** Builds the (seed, size) catalog with the fixtures' generator (and faker), loaded now: a seed the build did not precompute. */
async function generatedCatalog(seed: number, size: "default" | "large"): Promise<() => Catalog> {
  const { buildCatalog } = await import("../fixtures/catalog/index.ts");
  return () => buildCatalog({ seed, size });
}

/**
 * The seed's catalog, with the overlay file laid over it when one is given (read before anything starts).
 * The seed's own catalog and index are shared by the emulators of a process (immutable: catalog-cache.ts).
 */
function seededCatalog(
  seed: number,
  size: "default" | "large",
  build: () => Catalog,
  overlay: string | undefined,
): CatalogIndex {
  const base = sharedCatalogIndex(seed, size, build);
  return overlay === undefined ? base : new CatalogIndex(applyOverlay(base.catalog, loadOverlay(overlay)));
}
