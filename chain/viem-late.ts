/**
 * viem, loaded when it is needed rather than when the package is imported (issue 38 goal 1): a chain
 * loads it as it starts (`loadViem`, from `startChain`), and the areas' helpers that only a chain's
 * work calls (calldata, logs, typed data) take it from here at their call. A helper called in a process
 * that started no chain loads viem's CommonJS build synchronously instead (same functions, same
 * answers; only its error classes differ from the ESM build's, and those are only met with a chain).
 */
import { createRequire } from "node:module";
import type * as Viem from "viem";

type ViemModule = typeof Viem;

// The module namespaces, once loaded: immutable, the same for every emulator of the process.
const loaded: { esm?: ViemModule; cjs?: ViemModule } = {};

/** Loads viem (its ESM build, the one the chain's clients use); called as a chain starts. */
export async function loadViem(): Promise<ViemModule> {
  return (loaded.esm ??= await import("viem"));
}

/** viem, as loaded by a chain, else its CommonJS build loaded now (synchronously). */
export function viem(): ViemModule {
  return loaded.esm ?? (loaded.cjs ??= createRequire(import.meta.url)("viem") as ViemModule);
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
