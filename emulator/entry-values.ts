import { isoOf } from "../contract/time.ts";
import { FIXTURE_KEYS, fixtureKeyRecord } from "../fixtures/keys.ts";
import { newAccount } from "./pipeline/metering.ts";
import type { State } from "./state/schema.ts";

// What the package's entry gives besides `createEmulator`, from a few small modules: `import("cardos-emulator")`
// loads these, and the emulator's own modules (the contract's schemas, the areas' routes) load with the first
// create (emulator/public.ts; docs/benchmarks.md "Start-up").

/** Origin the msw handlers answer when the emulator is used in-process without a port. */
export const IN_PROCESS_ORIGIN = "http://emulator.local";

/** Manual clocks start here unless told otherwise, so runs are reproducible. */
export const DEFAULT_MANUAL_START = Date.parse("2026-01-15T12:00:00.000Z");

/** The state a seed and catalog start from: the fixture keys and their credit accounts. */
export function initialState(seed: number, catalog: "default" | "large", now: number): State {
  const createdAt = isoOf(now);
  const state: State = { seed, catalog_size: catalog, keys: {}, credits: {}, counters: {}, areas: {} };
  for (const spec of FIXTURE_KEYS) {
    const rec = fixtureKeyRecord(seed, spec, createdAt);
    state.keys[rec.key] = rec;
    if (rec.kind !== "legacy") state.credits[rec.key] = newAccount(now);
  }
  return state;
}
