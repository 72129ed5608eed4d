import type { HttpClient, ControlClient, HttpResult } from "../harness/http.ts";
import type { Chain } from "../chain/index.ts";

/**
 * A scripted lifecycle. It drives an emulator through its public API and the
 * control plane, and reads like documentation: each `step` says what a partner
 * (or the operator) does and why.
 */
export interface Scenario {
  name: string;
  title: string;
  /** What the scenario shows, in a sentence or two. */
  description: string;
  /** Needs the local chain (signs transactions with fixture wallets). */
  chain: boolean;
  run(ctx: ScenarioContext): Promise<void>;
}

export interface ScenarioContext {
  http: HttpClient;
  control: ControlClient;
  /** Fixture keys by name (demo, tier, catalog-only, tenant, tenant-readonly, legacy). */
  keys: Record<string, string>;
  /** The in-process chain when the scenario runs in-process with a chain (null otherwise). */
  chain: Chain | null;
  rpcUrl: string | null;
  /** Prints a step ("1. prepare the purchase"). */
  step(text: string): void;
  /** Fails the scenario with a message when the condition does not hold. */
  expect(cond: unknown, message: string): asserts cond;
  /** Asserts a status and returns `data` of the envelope. */
  data<T = Record<string, unknown>>(res: HttpResult, status: number, what: string): T;
}

export class ScenarioFailure extends Error {}
