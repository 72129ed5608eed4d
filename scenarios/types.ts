import type { HttpClient, ControlClient, HttpResult } from "../harness/http.ts";
import type { Chain } from "../chain/index.ts";
import type { Hex } from "viem";

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
  /**
   * Keys by fixture name (demo, tier, kyc, catalog-only, tenant, tenant-readonly, legacy). The partner
   * ones are fresh keys of fresh accounts made for this run, like their fixtures (billing model,
   * scopes, KYC), so a run never depends on what the target saw before (scenarios/fresh.ts).
   */
  keys: Record<string, string>;
  /** What makes this run independent of earlier ones: see `RunScope`. */
  run: RunScope;
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

/** Per-run names and accounts: a used target (earlier runs, a partner's own tests) never changes a run's outcome. */
export interface RunScope {
  /** `name` made unique to this run: idempotency keys, submission keys, end-user ids. */
  unique(name: string): string;
  /** The partner accounts of this run's fresh keys: event logs are read for these only. */
  accounts: ReadonlySet<string>;
  /** Account id of one of this run's keys. */
  accountOf(key: string): string;
  /** The private key of this run's end user `index`: a new wallet, funded (10,000 USDC, 10 ETH) on first use. */
  endUserKey(index: number): Promise<Hex>;
}

export class ScenarioFailure extends Error {}
