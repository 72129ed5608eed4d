import {
  createEmulator,
  OverlayError,
  ReplayError,
  StateFileError,
  WorldError,
  type Emulator,
} from "../emulator/index.ts";
import { JournalError } from "../chain/journal.ts";
import { HardhatMissingError, hardhatInstalled } from "../chain/provider.ts";
import {
  envFlags,
  has,
  intFlag,
  last,
  UsageError,
  type CommandSpec,
  type OptionSpec,
  type ParsedArgs,
} from "../harness/cli-args.ts";
import { portTaken } from "./ports.ts";

// The options that start an emulator, shared by `npx emulator` and `npx emulator exec`: the one
// table the help, the EMULATOR_* variables and the README's synopsis are written from.

export const ENV_PREFIX = "EMULATOR_";

export const START_OPTIONS: readonly OptionSpec[] = [
  { name: "port", type: "string", value: "N", describe: "API port on 127.0.0.1 (default 4010; 0 = any free port)" },
  {
    name: "host",
    type: "string",
    value: "ADDRESS",
    describe:
      "listen on ADDRESS instead of 127.0.0.1; a non-loopback address makes the control plane\nreachable from the network",
  },
  {
    name: "allowed-host",
    type: "string",
    value: "NAME",
    multiple: true,
    describe:
      "also answer a Host header of NAME (.NAME: and its subdomains); loopback names and\nIP addresses always are, others get 403 host_not_allowed (DNS-rebinding guard)",
  },
  {
    name: "allowed-origin",
    type: "string",
    value: "ORIGIN",
    multiple: true,
    describe:
      "also accept requests from web pages of ORIGIN (http://host:port) on the API and the\nJSON-RPC; loopback origins always are, other pages get 403 cross_origin_request",
  },
  { name: "seed", type: "string", value: "N", describe: "fixture seed (default 1): same seed, same keys and data" },
  {
    name: "json",
    type: "boolean",
    describe:
      'print exactly one JSON line when ready: {"url","rpcUrl","keys":[{"name","key","kind","scopes","label"}]}',
  },
  { name: "quiet", type: "boolean", describe: "no line per API call in the terminal (printed while stdout is a TTY)" },
  {
    name: "state",
    type: "string",
    value: "FILE",
    describe:
      "keep the state in FILE, the local chain included: imported on start when it\nexists, every change written through to it (atomically) within a second",
  },
  {
    name: "clock",
    type: "string",
    value: "MODE",
    describe: "realtime (default) or manual (time moves only via /_emulator/clock/advance)",
  },
  { name: "catalog", type: "string", value: "SIZE", describe: "default, or large (~40k cards, for benchmarks)" },
  {
    name: "strict-webhook-urls",
    type: "boolean",
    describe: "accept only public https webhook URLs, as the live service does",
  },
  {
    name: "no-test-values",
    type: "boolean",
    describe: "turn off the emulator-only test values (docs/test-values.md)",
  },
  { name: "ip-rate-limit", type: "string", value: "N", describe: "per-IP budget, requests per minute (default 3000)" },
  {
    name: "no-chain",
    type: "boolean",
    describe: "run the API without the local chain (chain endpoints answer 503 chain_unavailable)",
  },
  {
    name: "rpc-port",
    type: "string",
    value: "N",
    describe: "JSON-RPC port of the local chain on 127.0.0.1 (default 8545; 0 = any free port)",
  },
  {
    name: "rpc-url",
    type: "string",
    value: "URL",
    describe: "attach to an existing node (e.g. npx hardhat node --hostname 127.0.0.1) and deploy there",
  },
  {
    name: "vrf",
    type: "string",
    value: "MODE",
    describe: "auto (default: reveal 5 s after a purchase, on the clock) or manual (POST /_emulator/vrf/fulfill)",
  },
  {
    name: "replay",
    type: "string",
    value: "DIR",
    describe:
      "answer the reads recorded in DIR (npx emulator shadow --record DIR) as recorded, after\nauth, rate limits and credits; everything else as usual",
  },
  {
    name: "catalog-overlay",
    type: "string",
    value: "FILE",
    describe: "lay the catalog overlay FILE (npx emulator fixtures import DIR) over the seeded catalog",
  },
  {
    name: "world",
    type: "string",
    value: "FILE",
    describe:
      "start from the test world declared in FILE (YAML or JSON; npx emulator init writes one);\nreset returns to it; a bad file exits 2 naming every problem",
  },
];

export const ENV_NOTE = `Every option can also be set as an ${ENV_PREFIX}* variable: --rpc-port 0 as ${ENV_PREFIX}RPC_PORT=0,
--no-chain as ${ENV_PREFIX}NO_CHAIN=1 (1/true or 0/false). A flag on the command line wins over its variable.`;

/** Reads the start options (flags, then EMULATOR_* variables); `freePorts` makes 0 the default ports (exec). */
export function startConfig(spec: CommandSpec, given: ParsedArgs, opts: { freePorts?: boolean } = {}) {
  const args = envFlags(spec, given, ENV_PREFIX, process.env);
  const defaultPort = opts.freePorts ? 0 : 4010;
  const clock = choice(last(args, "clock"), ["realtime", "manual"] as const, "clock");
  const catalog = choice(last(args, "catalog"), ["default", "large"] as const, "catalog");
  const vrf = choice(last(args, "vrf"), ["auto", "manual"] as const, "vrf");
  const noChain = has(args, "no-chain");
  const rpcUrl = last(args, "rpc-url");
  if (rpcUrl && noChain) throw new UsageError("--rpc-url and --no-chain contradict each other");
  const stateFile = last(args, "state");
  return {
    args,
    json: has(args, "json"),
    quiet: has(args, "quiet"),
    port: intFlag(args, "port", defaultPort) ?? defaultPort,
    seed: intFlag(args, "seed", 1) ?? 1,
    /** With --state, only an explicit --seed / --catalog is passed on: the file's own rules, and a different one is refused. */
    seedGiven: has(args, "seed"),
    catalogGiven: has(args, "catalog"),
    /** A world's own clock applies unless --clock is given. */
    clockGiven: has(args, "clock"),
    world: last(args, "world"),
    host: last(args, "host"),
    allowedHosts: args.flags.get("allowed-host") ?? [],
    allowedOrigins: args.flags.get("allowed-origin") ?? [],
    clock,
    catalog,
    stateFile,
    vrf,
    noChain,
    rpcUrl,
    rpcPort: intFlag(args, "rpc-port", opts.freePorts ? 0 : 8545) ?? 8545,
    strictWebhookUrls: has(args, "strict-webhook-urls"),
    noTestValues: has(args, "no-test-values"),
    ipRateLimitPerMin: intFlag(args, "ip-rate-limit"),
    replay: last(args, "replay"),
    catalogOverlay: last(args, "catalog-overlay"),
  };
}

/** One of the allowed values; the first is the default. */
function choice<T extends string>(given: string | undefined, allowed: readonly [T, ...T[]], flag: string): T {
  if (given === undefined) return allowed[0];
  const found = allowed.find((a) => a === given);
  if (!found) throw new UsageError(`--${flag} must be ${allowed.join(" or ")}`);
  return found;
}

export type StartConfig = ReturnType<typeof startConfig>;

/** Starts the emulator; a taken port, a bad state file or an unreachable node is a one-line usage error. */
export async function launch(c: StartConfig, progress: (step: string) => void): Promise<Emulator> {
  const inProcessChain = !c.noChain && !c.rpcUrl;
  // Hardhat is an optional peer (docs/decisions.md "Packaging"): say how to get it before anything starts.
  if (inProcessChain && !hardhatInstalled()) throw new UsageError(new HardhatMissingError("--no-chain").message);
  for (const [flag, port] of [
    ["--port", c.port],
    ...(inProcessChain ? [["--rpc-port", c.rpcPort] as const] : []),
  ] as const)
    if (await portTaken(port))
      throw new UsageError(
        `port ${port} (${flag}) is in use: stop the other process or pass another ${flag} (0 picks a free port)`,
      );
  if (c.catalog === "large" && !c.json)
    process.stderr.write("  catalog: building the large catalog (~45,000 cards)…\n");
  try {
    const emu = await createEmulator({
      port: c.port,
      host: c.host,
      allowedHosts: c.allowedHosts,
      allowedOrigins: c.allowedOrigins,
      seed: c.stateFile && !c.seedGiven ? undefined : c.seed,
      clock: c.world && !c.clockGiven ? undefined : c.clock,
      world: c.world,
      catalog: c.stateFile && !c.catalogGiven ? undefined : c.catalog,
      stateFile: c.stateFile,
      strictWebhookUrls: c.strictWebhookUrls,
      ...(c.noTestValues ? { testValues: false } : {}),
      ipRateLimitPerMin: c.ipRateLimitPerMin,
      replay: c.replay,
      catalogOverlay: c.catalogOverlay,
      chain: c.noChain
        ? false
        : { rpcPort: c.rpcUrl ? undefined : c.rpcPort, rpcUrl: c.rpcUrl, vrf: c.vrf, onProgress: progress },
    });
    // The catalog is built on its first read (emulator/index.ts): the large one before the ready line, as
    // said above; the default one right after it (the caller prints the line first), not in the first request.
    if (c.catalog === "large") void emu.services.catalog;
    else setImmediate(() => void emu.services.catalog);
    return emu;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (c.host && (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND" || e.code === "EAI_AGAIN"))
      throw new UsageError(`--host ${c.host}: not an address of this machine (${e.code}); try 127.0.0.1 or 0.0.0.0`);
    if (err instanceof ReplayError) throw new UsageError(`--replay: ${err.message}`);
    if (err instanceof OverlayError) throw new UsageError(`--catalog-overlay: ${err.message}`);
    if (err instanceof WorldError) throw new UsageError(err.message);
    if (err instanceof StateFileError)
      throw new UsageError(
        `--state ${err.file}: ${err.reason}. ${err.remedyIn({ state: "--state", seed: "--seed", catalog: "--catalog" })}`,
      );
    // Taken between the check and the start (a race with another process).
    if (e.code === "EADDRINUSE")
      throw new UsageError(
        `a port is in use (API ${c.port}, chain ${c.rpcPort}): stop the other process or pass --port / --rpc-port (0 picks a free port)`,
      );
    // A state file that cannot be loaded says why in one line (e.g. it holds an in-process chain and --rpc-url attaches).
    if (err instanceof JournalError) throw new UsageError(`--state ${c.stateFile}: ${e.message}`);
    if (c.rpcUrl)
      throw new UsageError(
        `could not attach to ${c.rpcUrl}: ${e.message}. Is the node running (npx hardhat node --hostname 127.0.0.1)?`,
      );
    throw err;
  }
}
