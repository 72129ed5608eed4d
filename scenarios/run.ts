import { HttpClient, ControlClient, type HttpResult } from "../harness/http.ts";
import { createEmulator, type Emulator } from "../emulator/index.ts";
import type { Scenario, ScenarioContext } from "./types.ts";
import { lookupEmulator } from "../harness/target.ts";
import { ScenarioFailure } from "./types.ts";
import { freshRun } from "./fresh.ts";

export interface ScenarioTarget {
  baseUrl: string;
  keys: Record<string, string>;
  chain: Emulator["chain"];
  rpcUrl: string | null;
  fetch?: typeof fetch;
  /** An existing client for the target (e.g. a conformance check's), used instead of baseUrl/fetch. */
  http?: HttpClient;
}

/** Runs one scenario against a target emulator; resolves, or rejects with ScenarioFailure. */
export async function runScenario(
  s: Scenario,
  target: ScenarioTarget,
  log: (line: string) => void = () => {},
): Promise<void> {
  const http = target.http ?? new HttpClient(target.baseUrl, target.fetch);
  const control = new ControlClient(http);
  const { keys, run } = await freshRun(control, target.keys);
  const ctx: ScenarioContext = {
    http,
    control,
    keys,
    run,
    chain: target.chain,
    rpcUrl: target.rpcUrl,
    step: (text) => log(`  ${text}`),
    expect(cond, message): asserts cond {
      if (!cond) throw new ScenarioFailure(message);
    },
    data<T>(res: HttpResult, status: number, what: string): T {
      if (res.status !== status)
        throw new ScenarioFailure(`${what}: expected HTTP ${status}, got ${res.status} ${res.text.slice(0, 300)}`);
      return (res.body as { data: T }).data;
    },
  };
  await s.run(ctx);
}

/** Starts an in-process emulator suited to the scenario (manual clock; chain when needed). */
export async function emulatorFor(s: Scenario, seed = 1): Promise<{ emu: Emulator; target: ScenarioTarget }> {
  const emu = await createEmulator({
    seed,
    clock: "manual",
    port: 0,
    chain: s.chain ? { rpcPort: 0, vrf: "auto" } : false,
  });
  const keys = Object.fromEntries(emu.keys.map((k) => [k.name, k.key]));
  return { emu, target: { baseUrl: emu.url, keys, chain: emu.chain, rpcUrl: emu.rpcUrl } };
}

/** A running emulator as a target: fixture keys by name and the chain's rpcUrl, from its control plane. */
export async function remoteTarget(http: HttpClient, needsChain: boolean): Promise<ScenarioTarget> {
  const { keys, rpcUrl } = await lookupEmulator(http, needsChain);
  return { baseUrl: http.baseUrl, http, keys, chain: null, rpcUrl };
}
