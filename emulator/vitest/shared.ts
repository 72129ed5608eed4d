import type { EmulatorKey } from "../public-types.ts";

// What the kit's globalSetup hands every test file (vitest's provide/inject): plain JSON, since the
// emulator lives in the main process and the files run in workers that reach it over HTTP.

/** The one emulator of a test run, as every file sees it. */
export interface SharedEmulator {
  /** The API and control plane's base URL (`http://127.0.0.1:<port>`). */
  url: string;
  /** The local chain's JSON-RPC URL, or null when started without a chain. */
  rpcUrl: string | null;
  /** The fixture keys (and a world's named keys): shared by every file, so read-only use is the safe one. */
  keys: EmulatorKey[];
}

/** The name the emulator is provided under: `inject(PROVIDED)`. */
export const PROVIDED = "cardosEmulator";

declare module "vitest" {
  interface ProvidedContext {
    cardosEmulator: SharedEmulator;
  }
}
