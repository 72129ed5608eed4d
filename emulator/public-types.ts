import type { HttpHandler } from "msw";
import type { VirtualClock } from "./clock/clock.ts";
import type { ControlClient } from "./control-client.ts";
import type { ChainStateExport } from "../chain/state.ts";
import type { EmulatorChain } from "../chain/public-chain.ts";
import type { JournalEntry } from "./ui/journal-entry.ts";
import type { Stub, StubSpec } from "./pipeline/stub-spec.ts";

// The package's public types (`cardos-emulator`), declared with plain types only: a user's `tsc` loads
// this file, msw's and a few small data files, never the emulator's internals (its services, store
// records, zod schemas, viem, Hono). A type is written once: the options here (config.ts extends them),
// the chain view, journal entries and stubs in small plain files the internals use too (re-exported here);
// the rest mirror an internal type derived from a zod schema. test/public-types.test.ts checks that they
// agree, and test/package-types.test.ts that the declaration graph stays this small.

/** `realtime` (default): the virtual clock follows the wall clock; `manual`: it moves only when told. */
export type ClockMode = "realtime" | "manual";

/** What a key is: a partner's (the API), a warehouse tenant's, or a legacy (Card Data only) key. */
export type KeyKind = "partner" | "tenant" | "legacy";

export interface EmulatorKey {
  name: string;
  key: string;
  kind: KeyKind;
  scopes: string[];
  label: string;
}

/**
 * A state export (`emu.exportState()`, `--state FILE`): plain JSON that `createEmulator({ state })` starts
 * from. `state` holds the emulator's records (their shape is internal; an import is checked whole).
 */
export interface StateExport {
  format: "cardos-emulator-state";
  version: 2;
  /** Virtual time when exported (unix ms). */
  now: number;
  state: { seed: number; catalog_size: "default" | "large" };
  /** The local chain; null without one, or when attached with `rpcUrl` (that node keeps it). */
  chain: ChainStateExport | null;
}

export type { EmulatorChain } from "../chain/public-chain.ts";

/** The local chain's options (`chain: { … }`). */
export interface EmulatorChainOptions {
  /** Serve JSON-RPC on 127.0.0.1:<port> (0 = any free port; false = in-process only). */
  rpcPort?: number | false;
  /** Attach to an existing node instead of starting one (contracts are deployed there). */
  rpcUrl?: string;
  /** `auto` (default): fulfil each VRF request `vrfDelayMs` later on the clock; `manual`: POST /_emulator/vrf/fulfill. */
  vrf?: "auto" | "manual";
  /** Reveal delay in auto mode (default 5 s of virtual time). */
  vrfDelayMs?: number;
  /** Told each start-up step ("starting network", each deployment, "ready"): the CLI prints them. */
  onProgress?: (step: string) => void;
}

/** Webhook delivery chaos (docs/webhooks.md "Delivery chaos"). */
export interface WebhookChaos {
  duplicate?: { every: number } | { probability: number };
  reorder_window_ms?: number;
  delay_ms?: number;
  drop_first_attempt?: boolean;
  previous_secret_after_rotation?: boolean;
  stale_timestamp_ms?: number;
}

/**
 * A plugin attached with `plugins` (the project's test aids, `testing/deviations/`): it reads the emulator's
 * internals, whose types are not part of the package.
 */
export type EmulatorPlugin = (services: never) => object;

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
  /**
   * Web origins (`http://host:port`) whose pages may call the listeners besides loopback origins and the
   * emulator's own (`--allowed-origin`): the API and the chain's JSON-RPC (a browser dapp). Other pages get
   * 403 `cross_origin_request`; callers without an Origin (scripts, SDKs) are never affected.
   */
  allowedOrigins?: string[];
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
  /** The emulator-only test values (docs/test-values.md: KYC users, failing addresses, a rejected buyback price); on by default. */
  testValues?: boolean;
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
  chain?: boolean | EmulatorChainOptions;
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
  /**
   * A test world (docs/world.md): a YAML or JSON file's path (`--world FILE`), or the same document as data.
   * It is checked whole before anything starts (a WorldError lists every problem by its path), applied
   * through the control plane and the API, and `reset()` returns to it. Its clock and catalog overlay apply
   * unless `clock` / `startTime` / `catalogOverlay` are given. Not with `state` / `stateFile`.
   */
  world?: string | Record<string, unknown>;
}

/** A report on the dashboard's Reports tab: a title, a few figures and one table. */
export interface Panel {
  /** Lower-case letters, digits and dashes (at most 64). */
  id: string;
  title: string;
  /** Figures shown above the table. */
  summary: { label: string; value: string | number }[];
  columns: string[];
  /** `tone: "bad"` marks a row (a difference), `"ok"` one without. */
  rows: { cells: (string | number)[]; tone?: "bad" | "ok" | undefined }[];
  /** One line under the title. */
  note?: string | undefined;
}

export type { JournalBody, JournalEntry } from "./ui/journal-entry.ts";

/** What `emu.requests.find` and `count` take: every field optional, times as ms, ISO strings or Dates. */
export interface RequestFilter {
  /** A fixture key's name (demo), a whole key, a key's label or its masked form. */
  key?: string | null | undefined;
  method?: string | null | undefined;
  /** A contract operation id (gacha.purchase) or a path template (/webhooks/:id). */
  operation?: string | null | undefined;
  /** 404, or a class: 4xx. */
  status?: string | number | null | undefined;
  /** A substring of the path and query. */
  path?: string | null | undefined;
  /** Answered at or after (virtual-clock ms, ISO-8601 or a Date). */
  since?: number | string | Date;
  /** Answered at or before (virtual-clock ms, ISO-8601 or a Date). */
  until?: number | string | Date;
  /** Only calls a stub answered (true), or only the others (false). */
  stubbed?: boolean | "true" | "false" | null | undefined;
  /** At most this many, newest first (find only). */
  limit?: unknown;
}

export type { Stub, StubMatch, StubSpec } from "./pipeline/stub-spec.ts";

/** The request journal, typed: the filters of GET /_emulator/requests. */
export interface EmulatorRequests {
  /** Matching calls, newest first (`{ operation: "gacha.purchase", key: "demo" }`). */
  find(filter?: RequestFilter): JournalEntry[];
  /** How many calls match (`limit` does not apply). */
  count(filter?: RequestFilter): number;
  /** Forgets every call; answers how many there were. */
  clear(): number;
}

/** Stubs per operation, typed: what POST, GET and DELETE /_emulator/stubs do. */
export interface EmulatorStubs {
  add(spec: StubSpec): Stub;
  list(): Stub[];
  clear(): number;
}

export interface Emulator {
  /** Base URL: the HTTP server when `port` was given, else the in-process origin the msw handlers match. */
  url: string;
  /** Calls the emulator in-process; relative paths resolve against `url`. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /**
   * msw handlers for `setupServer(...emu.handlers)`: one per contract operation, then one for the rest of
   * the origin, each running the whole pipeline; `server.use(http.post(\`${emu.url}/api/v1/…\`, …))` overrides one.
   */
  handlers: HttpHandler[];
  clock: VirtualClock;
  /** The local chain (null when started without one); `emu.chain as Chain | null` (`cardos-emulator/chain`) for its viem clients. */
  chain: EmulatorChain | null;
  /**
   * The chain's JSON-RPC URL: the node attached with `chain.rpcUrl`, else the local chain's own loopback
   * server (`chain.rpcPort`, any free port by default); null without a chain or with `chain.rpcPort: false`.
   */
  rpcUrl: string | null;
  /** The fixture keys (by name: demo, revenue-share, kyc, catalog-only, tenant, tenant-readonly, legacy), then a world's named keys. */
  keys: EmulatorKey[];
  /** A key's value by its name (a fixture key's former name, e.g. `tier`, too); throws for an unknown name. */
  key(name: string): string;
  /** Every control route as a typed method (`control.clock.advance({ ms })`), in-process; errors throw ControlError. */
  control: ControlClient;
  /** The request journal (GET/DELETE /_emulator/requests), for verifying what your code sent. */
  requests: EmulatorRequests;
  /** Stubs per operation (POST /_emulator/stubs): `add` checks a 2xx body against the contract (throws otherwise). */
  stubs: EmulatorStubs;
  /** Back to the seed state; also clears the request journal, the faults and the stubs. */
  reset(): Promise<void>;
  snapshot(): Promise<string>;
  /** Rolls state and chain back to a snapshot; the request journal is kept (it is history, not state). */
  restore(id: string): Promise<void>;
  exportState(): StateExport;
  /** Shows a report on the dashboard's Reports tab, live (replaces the panel of the same id). */
  publishPanel(panel: Panel): void;
  close(): Promise<void>;
}

/** A catalog overlay (`npx emulator fixtures import DIR` writes one): records in the contract's wire shapes. */
export interface CatalogOverlay {
  catalog_overlay: 1;
  expansions: { game: string; expansion: Record<string, unknown> }[];
  cards: { game: string; card: Record<string, unknown>; pricing?: Record<string, unknown> | undefined }[];
  sealed: { game: string; product: Record<string, unknown>; pricing?: Record<string, unknown> | undefined }[];
}
