import { chaosSchema, type WebhookChaos } from "./areas/webhooks/chaos.ts";
import { hostNow, type ClockMode } from "./clock/clock.ts";
import { isClockTime, TIME_RANGE_TEXT } from "./clock/bounds.ts";
import type { StateExport } from "./state/store.ts";
import { Store } from "./state/store.ts";
import { readStateFile, StateFileError } from "./state/state-file.ts";
import { resolveStateTarget } from "./state/state-claim.ts";
import { DEFAULT_GATES } from "./pipeline/concurrency.ts";
import type { ResolvedOptions } from "./pipeline/services.ts";
import type { EmulatorPlugin } from "./control/route.ts";
import type { ChainHostOptions } from "./chain-host.ts";
import { checkWorld, loadWorld, type LoadedWorld } from "./world/load.ts";
import { WorldError } from "./world/problems.ts";
import { DEFAULT_MANUAL_START } from "./entry-values.ts";
import type { EmulatorOptions as PublicOptions } from "./public-types.ts";

// createEmulator's options, read once: every default applied, the state to start from loaded and checked
// against an explicit seed or catalog, the start time decided. The composition root (index.ts) then reads only
// the config, and each part gets its own piece of it.

export { DEFAULT_MANUAL_START };

/**
 * The options as the emulator reads them: the package's plain `EmulatorOptions` (public-types.ts, where each is
 * documented once), with the internal types of the four the public one writes loosely (test/public-types.test.ts).
 */
export interface EmulatorOptions extends Omit<PublicOptions, "webhookChaos" | "state" | "chain" | "plugins"> {
  webhookChaos?: WebhookChaos;
  state?: StateExport;
  chain?: boolean | ChainHostOptions;
  plugins?: readonly EmulatorPlugin[];
}

/** What createEmulator starts from, each option resolved once. */
export interface EmulatorConfig {
  /** What the services read (the state's seed and catalog when one is given). */
  service: ResolvedOptions;
  clock: { mode: ClockMode; start: number };
  /** The state to start from (the option, else the state file's), checked. */
  state: StateExport | undefined;
  /** The state file, resolved through symlinks. */
  stateFile: { path: string; target: string } | null;
  /** The local chain's options, or null for none. */
  chain: ChainHostOptions | null;
  replay: string | undefined;
  catalogOverlay: string | undefined;
  plugins: readonly EmulatorPlugin[];
  /** The world to apply on start (checked), or null. */
  world: LoadedWorld | null;
  /** Where to listen, or null for in-process use. */
  listen: { port: number; host: string | undefined; allowedHosts: string[] } | null;
  /** Origins accepted besides loopback ones, by every listener of the emulator (API, JSON-RPC). */
  allowedOrigins: string[];
}

/** Reads the options once (throws on a state that cannot be used, with one line saying why). */
export function resolveConfig(given: EmulatorOptions): EmulatorConfig {
  const world = worldOf(given);
  const input = withWorld(given, world);
  const target = input.stateFile ? resolveStateTarget(input.stateFile) : null;
  const state = startingState(input, target);
  const service = resolveOptions(input);
  if (state) {
    service.seed = state.state.seed;
    service.catalog = state.state.catalog_size;
  }
  const chain = input.chain ? (input.chain === true ? {} : input.chain) : null;
  if (chain?.rpcUrl && input.stateFile)
    console.error(
      `[emulator] state file ${input.stateFile}: an attached chain is not part of it (that node keeps its own state)`,
    );
  return {
    service,
    clock: { mode: input.clock ?? "realtime", start: startTimeOf({ ...input, state }) },
    state,
    stateFile: input.stateFile && target ? { path: input.stateFile, target } : null,
    chain,
    replay: input.replay,
    catalogOverlay: input.catalogOverlay,
    plugins: input.plugins ?? [],
    world,
    listen:
      input.port === undefined
        ? null
        : { port: input.port, host: input.host, allowedHosts: [...(input.allowedHosts ?? [])] },
    allowedOrigins: (input.allowedOrigins ?? []).map(checkOrigin),
  };
}

/** `http(s)://host[:port]`, as browsers send it in Origin; anything else is refused before anything starts. */
function checkOrigin(raw: string): string {
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    /* judged below */
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== raw.replace(/\/$/, ""))
    throw new Error(
      `allowedOrigins: "${raw}" is not a web origin; write it as a browser sends it, e.g. http://192.168.1.20:5173`,
    );
  return url.origin;
}

/** The world option, read and checked (throws a WorldError naming every problem). */
function worldOf(input: EmulatorOptions): LoadedWorld | null {
  if (input.world === undefined) return null;
  if (input.state || input.stateFile)
    throw new WorldError(typeof input.world === "string" ? input.world : "(world option)", [
      "(root): a world starts from the fixtures and a state resumes one; give world or state / stateFile, not both",
    ]);
  return typeof input.world === "string" ? loadWorld(input.world) : checkWorld("(world option)", input.world);
}

/** The options with the world's clock and catalog overlay where the options leave them unset. */
function withWorld(input: EmulatorOptions, world: LoadedWorld | null): EmulatorOptions {
  if (!world) return input;
  const { clock } = world.world;
  return {
    ...input,
    clock: input.clock ?? clock?.mode,
    startTime: input.startTime ?? clock?.start,
    catalogOverlay: input.catalogOverlay ?? world.catalogOverlay,
  };
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
    testValues: o.testValues ?? true,
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
    if (!isClockTime(t))
      throw new Error(`startTime is not a valid time ${TIME_RANGE_TEXT} (whole ms): ${String(o.startTime)}`);
    return t;
  }
  // A state file resumes where it stopped; in realtime mode never behind wall time (the time in
  // between passed for everyone), in manual mode exactly there.
  if (o.state) return (o.clock ?? "realtime") === "manual" ? o.state.now : Math.max(hostNow(), o.state.now);
  return (o.clock ?? "realtime") === "manual" ? DEFAULT_MANUAL_START : hostNow();
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
      throw new StateFileError(input.stateFile!, (err as Error).message, "Delete the file or point {state} elsewhere.");
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
      "Drop {seed} / {catalog} (the file's own is used) or point {state} at another file.",
    );
  return doc;
}
