/**
 * viem, loaded when it is needed rather than when the package is imported (issue 38 goal 1), and from one
 * file when the package is built: `dist/chain/viem.cjs` is viem (with the two functions the chain takes from
 * its `accounts` and `actions` entries) bundled by scripts/build.mjs, which loads in ~30 ms where viem's
 * ~450 ESM modules take ~160 (docs/chain.md "The chain's viem"). Every use in the emulator goes through
 * `viem()` so that one copy serves it all (its error classes included). From the sources (no bundle beside
 * this file), a chain loads viem's ESM build as it starts (`loadViem`, from `startChain`), and a helper
 * called in a process that started no chain loads viem's CommonJS build synchronously instead (same
 * functions, same answers; only its error classes differ from the ESM build's, and those are only met
 * with a chain).
 */
import { createRequire } from "node:module";
import type * as Viem from "viem";
import type { privateKeyToAccount as PrivateKeyToAccount } from "viem/accounts";
import type { sendTransaction as SendTransaction } from "viem/actions";

/** viem's main entry, plus what the chain takes from `viem/accounts` and `viem/actions`. */
export type ViemModule = typeof Viem & {
  privateKeyToAccount: typeof PrivateKeyToAccount;
  sendTransaction: typeof SendTransaction;
};

const require = createRequire(import.meta.url);

// The module namespaces, once loaded: immutable, the same for every emulator of the process.
const loaded: { bundle?: ViemModule | null; esm?: ViemModule; cjs?: ViemModule } = {};

/** The build's one-file viem beside this module (dist/chain/viem.cjs), or null from the sources. */
function bundled(): ViemModule | null {
  if (loaded.bundle === undefined) {
    try {
      loaded.bundle = require("./viem.cjs") as ViemModule;
    } catch (err) {
      // Only its absence falls back to viem itself; a bundle that fails to load is a broken build.
      if ((err as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw err;
      loaded.bundle = null;
    }
  }
  return loaded.bundle;
}

let esmLoading: Promise<ViemModule> | undefined;

/** viem's main entry with the two functions the chain takes from its `accounts` and `actions` entries. */
const kit = (
  main: typeof Viem,
  accounts: { privateKeyToAccount: typeof PrivateKeyToAccount },
  actions: { sendTransaction: typeof SendTransaction },
): ViemModule => ({
  ...main,
  privateKeyToAccount: accounts.privateKeyToAccount,
  sendTransaction: actions.sendTransaction,
});

/** Loads viem (the build's bundle, else viem's ESM build, the one the chain's clients use); called as a chain starts. */
export async function loadViem(): Promise<ViemModule> {
  const found = bundled();
  if (found) return found;
  // One load for callers that start together: they all get the same object.
  esmLoading ??= Promise.all([import("viem"), import("viem/accounts"), import("viem/actions")]).then((m) => kit(...m));
  return (loaded.esm ??= await esmLoading);
}

/** viem: the bundle, else as loaded by a chain, else its CommonJS build loaded now (synchronously). */
export function viem(): ViemModule {
  return (
    bundled() ??
    loaded.esm ??
    (loaded.cjs ??= kit(require("viem") as typeof Viem, require("viem/accounts"), require("viem/actions")))
  );
}

/** The version of the viem `viem()` gives (the bundle records the one it was built from). */
export function viemVersion(): string {
  const found = bundled() as (ViemModule & { VIEM_VERSION?: string }) | null;
  return found?.VIEM_VERSION ?? (require("viem/package.json") as { version: string }).version;
}

/** A function of viem's, looked up at each call. */
const late = <K extends keyof ViemModule>(name: K): ViemModule[K] =>
  ((...args: unknown[]) => (viem()[name] as (...a: unknown[]) => unknown)(...args)) as ViemModule[K];

export const encodeFunctionData = late("encodeFunctionData");
export const parseEventLogs = late("parseEventLogs");
export const hashTypedData = late("hashTypedData");
export const recoverTypedDataAddress = late("recoverTypedDataAddress");
export const decodeErrorResult = late("decodeErrorResult");
export const publicActions = late("publicActions");
export const formatUnits = late("formatUnits");
export const parseUnits = late("parseUnits");
