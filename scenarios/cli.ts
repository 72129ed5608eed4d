import {
  closest,
  has,
  helpText,
  intFlag,
  last,
  parseOrHelp,
  UsageError,
  type CommandSpec,
} from "../harness/cli-args.ts";
import { HttpClient, ControlClient } from "../harness/http.ts";
import { SCENARIOS, findScenario } from "./registry.ts";
import { emulatorFor, remoteTarget, runScenario, type ScenarioTarget } from "./run.ts";
import type { Scenario } from "./types.ts";

export const SCENARIO_COMMAND: CommandSpec = {
  usage: "  npx emulator scenario NAME [--seed N] [--base-url URL]\n  npx emulator scenario --list",
  about:
    "Runs a scripted lifecycle: without --base-url against a fresh in-process emulator (manual clock;\nthe chain when needed).",
  options: [
    { name: "list", type: "boolean", describe: "list the scenarios" },
    { name: "seed", type: "string", value: "N", describe: "fixture seed of the fresh emulator (default 1)" },
    {
      name: "base-url",
      type: "string",
      value: "URL",
      describe:
        "run against an emulator you started (npx emulator); it changes that emulator's\nstate, and its clock is switched to manual while the scenario runs",
    },
  ],
};

export async function runScenarioCli(argv: readonly string[]): Promise<number> {
  const args = parseOrHelp(SCENARIO_COMMAND, argv);
  if (!args) return 0;
  const name = args.positionals[0];
  if (has(args, "list") || !name) {
    if (!name && !has(args, "list")) process.stderr.write(helpText(SCENARIO_COMMAND) + "\n");
    for (const s of SCENARIOS) process.stdout.write(`${s.name.padEnd(32)} ${s.title}${s.chain ? "  [chain]" : ""}\n`);
    return has(args, "list") ? 0 : 2;
  }
  const scenario = findScenario(name);
  if (!scenario) {
    const guess = closest(
      name,
      SCENARIOS.map((x) => x.name),
    );
    throw new UsageError(
      `unknown scenario "${name}"${guess ? `; did you mean "${guess}"?` : ""} (npx emulator scenario --list)`,
    );
  }
  process.stdout.write(`${scenario.title}\n${scenario.description}\n\n`);
  const baseUrl = last(args, "base-url");
  return baseUrl ? runAgainst(scenario, baseUrl) : runFresh(scenario, intFlag(args, "seed", 1) ?? 1);
}

async function runFresh(scenario: Scenario, seed: number): Promise<number> {
  const { emu, target } = await emulatorFor(scenario, seed);
  try {
    return await report(scenario, target);
  } finally {
    await emu.close();
  }
}

async function runAgainst(scenario: Scenario, baseUrl: string): Promise<number> {
  const http = new HttpClient(baseUrl);
  if (!(await ControlClient.detect(http)))
    throw new UsageError(`${baseUrl} does not answer /_emulator/health: scenarios need an emulator's control plane`);
  const control = new ControlClient(http);
  if (scenario.chain && (await http.get("/_emulator/chain")).status !== 200)
    throw new UsageError(`${scenario.name} needs the local chain; ${baseUrl} runs without one (--no-chain)`);
  // Scenarios time their steps on a manual clock (exact retry times).
  const { mode } = await control.request<{ mode: string }>("GET", "/clock");
  if (mode !== "manual") await control.request("POST", "/clock", { mode: "manual" });
  try {
    return await report(scenario, await remoteTarget(http, scenario.chain));
  } finally {
    if (mode !== "manual") await control.request("POST", "/clock", { mode });
  }
}

async function report(scenario: Scenario, target: ScenarioTarget): Promise<number> {
  try {
    await runScenario(scenario, target, (line) => process.stdout.write(line + "\n"));
    process.stdout.write(`\n✓ ${scenario.name} passed\n`);
    return 0;
  } catch (err) {
    process.stdout.write(`\n✗ ${scenario.name} failed: ${(err as Error).message}\n`);
    return 1;
  }
}
