// The package's entry, `cardos-emulator`: createEmulator and what goes with it, typed by the plain public
// types of public-types.ts. Its declarations reach msw's and a few small data files, never the emulator's
// internals (services, store records, zod schemas, viem, Hono): a user's strict `tsc` stays about as
// fast as with msw alone (test/package-types.test.ts keeps the graph so). The project's own code uses
// emulator/index.ts, the same emulator typed with its internals (`services`, the viem chain gateway).
//
// The import loads only what the values below need (a few small modules, no zod, Hono or msw): the emulator's
// own modules, whose contract schemas and route specs are built as they load, load with the first
// `createEmulator` (test/unit/lazy-imports.test.ts; docs/benchmarks.md "Start-up").
import {
  initialState as seedState,
  IN_PROCESS_ORIGIN as ORIGIN,
  DEFAULT_MANUAL_START as MANUAL_START,
} from "./entry-values.ts";
import type { EmulatorOptions as InternalOptions } from "./config.ts";
import type { Emulator, EmulatorOptions, StateExport } from "./public-types.ts";

export type * from "./public-types.ts";
export { VirtualClock } from "./clock/clock.ts";
export { StateFileError } from "./state/state-file-error.ts";
export { OverlayError } from "./catalog-data/overlay-error.ts";
export { WorldError } from "./world/world-error.ts";
export { isLoopback } from "./pipeline/address-policy.ts";
export { Replay, ReplayError, replayKey, isRecording, type Recording } from "./pipeline/replay.ts";
// The one Host/Origin policy of every listener the project opens (shadow proxy, receivers).
export {
  listenerPolicy,
  refuseNodeRequest,
  type ListenerPolicy,
  type ListenerPolicyOptions,
} from "./pipeline/listener-policy.ts";
export { ControlError, type ControlClient } from "./control-client.ts";

/** Origin the msw handlers answer when the emulator is used in-process without a port. */
export const IN_PROCESS_ORIGIN = ORIGIN;
/** Manual clocks start here unless told otherwise, so runs are reproducible. */
export const DEFAULT_MANUAL_START: number = MANUAL_START;

/** The state a seed and catalog start from (its records are internal: only the seed and catalog size are typed). */
export const initialState: (seed: number, catalog: "default" | "large", now: number) => StateExport["state"] =
  seedState;

/** Starts an emulator (in-process, or listening with `port`); `close()` it when done. */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const { createEmulator: start } = await import("./index.ts");
  // The public options are the internal ones with plain types (test/public-types.test.ts); a plugin is opaque here.
  return start(options as InternalOptions);
}
