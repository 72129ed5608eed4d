import type { HttpHandler } from "msw";
import type { VirtualClock } from "./clock/clock.ts";
import type { ControlClient } from "./control-client.ts";
import type { FixtureAccount } from "../chain/accounts.ts";
import type { ChainAddresses, ChainStateExport } from "../chain/state.ts";
import type { GroupConfig, TierConfig } from "../chain/tiers.ts";
import type { PacketTypeConfig } from "../chain/instant.ts";

// The package's public types (`cardos-emulator`), declared with plain types only: a user's `tsc` loads
// this file, msw's and a few small data files, never the emulator's internals (its services, store
// records, zod schemas, viem, Hono). Each mirrors an internal type; test/public-types.test.ts checks
// that they agree, and test/package-types.test.ts that the declaration graph stays this small.

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
  /** Owner of every contract, stablecoin minter, CardNFT operator. */
  operator: FixtureAccount;
  /** MysteryPool relayer (purchaseFor). */
  relayer: FixtureAccount;
  /** Buyback offer requester. */
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
  /** Make the chain's block time follow the emulator clock: mines an empty block at floor(unixMs/1000) (never backwards). */
  setTime(unixMs: number): Promise<void>;
  /** evm_snapshot. Ids stay valid after revert (re-snapshotted); reverting invalidates later snapshots. */
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  /** How many times the chain was taken back (revert, import). */
  rollbacks(): number;
  /** Mint USDC (operator) and/or send ETH (operator transfer). */
  faucet(
    address: `0x${string}`,
    amounts: { usdc?: bigint; eth?: bigint },
  ): Promise<{ usdcTx?: `0x${string}`; ethTx?: string }>;
  /** VRF requests not fulfilled yet, ascending. */
  pendingVrfRequests(): Promise<bigint[]>;
  /** Whether one request is still waiting (one storage read). */
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
  /** Called after blocks were mined through this chain, or found by poll(). Returns an unsubscribe function. */
  onBlocks(listener: () => void): () => void;
  /** Attached node only: looks for blocks mined by others (a no-op in-process). */
  poll(): Promise<void>;
  /** True when attached to an external node (`rpcUrl`). */
  readonly attached: boolean;
}

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
  /** Seed for fixtures, keys and faults (default 1). */
  seed?: number;
  /** `realtime` (default) or `manual` (time moves only via clock.advance / POST /_emulator/clock). */
  clock?: ClockMode;
  /** Start of the virtual clock (default: now, or 2026-01-15T12:00:00Z in manual mode). */
  startTime?: number | string | Date;
  /** Catalog size: `default` (~1,500 cards) or `large` (~10,000 cards). */
  catalog?: "default" | "large";
  /** Start an HTTP server on this port (0 = ephemeral). Omit for in-process only. */
  port?: number;
  /** Address the HTTP server binds (default 127.0.0.1, loopback only; `--host`). */
  host?: string;
  /** Host names the HTTP server answers besides loopback names and `host` (`--allowed-host`). */
  allowedHosts?: string[];
  /** Web origins whose pages may call the listeners besides loopback origins (`--allowed-origin`). */
  allowedOrigins?: string[];
  /** Per-IP budget per minute (default 3000). */
  ipRateLimitPerMin?: number;
  /** Concurrency gate sizes, merged over the defaults (warehouse_read 20, catalog 24, …). */
  gates?: Record<string, number>;
  /** Reject http, loopback and private webhook URLs, as the live service does. */
  strictWebhookUrls?: boolean;
  /** Delivery chaos for every webhook without its own; off by default, deterministic from the seed. */
  webhookChaos?: WebhookChaos;
  /** Check every answer against its route's schema (a mismatch is a 500 naming the field). */
  validateResponses?: boolean;
  /** The emulator-only test values (docs/test-values.md); on by default. */
  testValues?: boolean;
  /** Start from an exported state (the chain included) instead of the fixtures. */
  state?: StateExport;
  /** Keep the state in this file: imported on start when it exists, every change written through (`--state FILE`). */
  stateFile?: string;
  /** The local chain: `true` (JSON-RPC on an ephemeral loopback port), options, or false/omitted for none. */
  chain?: boolean | EmulatorChainOptions;
  /** Answer the reads recorded in this directory (`npx emulator shadow --record DIR`) byte for byte (`--replay DIR`). */
  replay?: string;
  /** Lay this catalog overlay (`npx emulator fixtures import DIR` writes one) over the seeded catalog. */
  catalogOverlay?: string;
  /** Plugins attached to this emulator (none by default). Test aids attach this way. */
  plugins?: readonly EmulatorPlugin[];
  /** A test world (docs/world.md): a YAML or JSON file's path (`--world FILE`), or the same document as data. */
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

/** One side of a call as kept: masked headers, the masked body (null when not kept) and whether it was cut. */
export interface JournalBody {
  headers: Record<string, string>;
  body: string | null;
  truncated: boolean;
}

/** A call in the request journal (GET /_emulator/requests). */
export interface JournalEntry {
  id: number;
  request_id: string;
  /** Virtual-clock time of the answer. */
  at: string;
  method: string;
  path: string;
  /** The contract operation that answered (`gacha.purchase`), null for an unknown path. */
  operation: string | null;
  /** Its path template under /api/v1 (`/webhooks/:id`). */
  route: string | null;
  key: string | null;
  /** The fixture key's name (demo, revenue-share, tenant …); null for other keys. */
  key_name: string | null;
  key_label: string | null;
  status: number;
  /** The stub (POST /_emulator/stubs) that answered instead of the handler, if one did. */
  stub: string | null;
  error: string | null;
  credits_cost: number | null;
  credits_remaining: number | null;
  rate_limit_remaining: number | null;
  latency_ms: number;
  request: JournalBody;
  response: JournalBody;
}

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

/** Which calls a stub answers: every given field must match. */
export interface StubMatch {
  /** A fixture key's name (demo), a whole key or a key's label. */
  key?: string;
  /** Path parameters by name, as in the path (`{ id: "7" }`). */
  params?: Record<string, string>;
  /** Query parameters that must be present with these values. */
  query?: Record<string, string>;
  /** Members the JSON body must hold with these values (deep; other members are free). */
  body?: Record<string, unknown>;
}

export interface StubSpec {
  /** A contract operation id (`gacha.purchase`). */
  operation: string;
  match?: StubMatch;
  status: number;
  /** The whole JSON body answered (`{ success: true, data: … }`). */
  body: unknown;
  headers?: Record<string, string>;
  /** Answers this many calls, then the operation answers as usual again. */
  times?: number;
  /** Skip the contract check of a 2xx body (a test of what the client does with a malformed answer). */
  unchecked?: boolean;
}

export interface Stub extends StubSpec {
  id: string;
  hits: number;
}

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
