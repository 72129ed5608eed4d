import type { TestProject } from "vitest/node";
import { createEmulator, type Emulator, type EmulatorOptions } from "../public.ts";
import { PROVIDED, type SharedEmulator } from "./shared.ts";

// The kit's globalSetup: one emulator, listening on a free loopback port, for the whole run; every test
// file reaches it through `useEmulator()` (./index.ts). `globalSetup: ["cardos-emulator/vitest/setup"]`
// takes its options from the environment; a setup file of your own exporting
// `emulatorSetup({ … })` takes any EmulatorOptions.

/** What the kit starts unless told otherwise: the manual clock (tests decide when time moves; see docs/test-runners.md). */
const DEFAULTS: EmulatorOptions = { clock: "manual" };

/**
 * Options from the environment, for the zero-config setup: `CARDOS_EMULATOR_CHAIN=1` (a local chain),
 * `CARDOS_EMULATOR_WORLD=FILE`, `CARDOS_EMULATOR_CLOCK=realtime|manual`, `CARDOS_EMULATOR_SEED=N`.
 */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): EmulatorOptions {
  const options: EmulatorOptions = {};
  const chain = env.CARDOS_EMULATOR_CHAIN;
  if (chain && !/^(0|false|no|)$/i.test(chain)) options.chain = true;
  if (env.CARDOS_EMULATOR_WORLD) options.world = env.CARDOS_EMULATOR_WORLD;
  const clock = env.CARDOS_EMULATOR_CLOCK;
  if (clock !== undefined) {
    if (clock !== "realtime" && clock !== "manual")
      throw new Error(`CARDOS_EMULATOR_CLOCK=${clock}: expected realtime or manual`);
    options.clock = clock;
  }
  const seed = env.CARDOS_EMULATOR_SEED;
  if (seed !== undefined) {
    if (!/^\d+$/.test(seed)) throw new Error(`CARDOS_EMULATOR_SEED=${seed}: expected a whole number`);
    options.seed = Number(seed);
  }
  return options;
}

/** The part of vitest's TestProject the setup uses (a fake one in the kit's own test). */
type Provider = Pick<TestProject, "provide">;

/** A globalSetup function starting an emulator with these options (over the kit's defaults); it returns the teardown. */
export function emulatorSetup(options: EmulatorOptions = {}): (project: Provider) => Promise<() => Promise<void>> {
  return async (project) => {
    // A port, always: the files run in other processes (vitest's workers).
    const emu: Emulator = await createEmulator({ ...DEFAULTS, ...options, port: options.port ?? 0 });
    const shared: SharedEmulator = { url: emu.url, rpcUrl: emu.rpcUrl, keys: emu.keys };
    project.provide(PROVIDED, shared);
    return () => emu.close();
  };
}

/** `globalSetup: ["cardos-emulator/vitest/setup"]`: options from the environment (optionsFromEnv). */
export default function setup(project: Provider): Promise<() => Promise<void>> {
  return emulatorSetup(optionsFromEnv())(project);
}
