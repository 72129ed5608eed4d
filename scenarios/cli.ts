import { has, last, UsageError, type ParsedArgs } from "../emulator/cli/args.ts";
import { SCENARIOS, findScenario } from "./registry.ts";
import { emulatorFor, runScenario } from "./run.ts";

export async function runScenarioCli(args: ParsedArgs): Promise<number> {
  const name = args.positionals[1];
  if (has(args, "list") || !name) {
    if (!name && !has(args, "list")) process.stderr.write("usage: npx emulator scenario NAME | --list\n\n");
    for (const s of SCENARIOS) process.stdout.write(`${s.name.padEnd(28)} ${s.title}${s.chain ? "  [chain]" : ""}\n`);
    if (SCENARIOS.length === 0) process.stdout.write("(no scenarios yet)\n");
    return has(args, "list") ? 0 : 2;
  }
  const scenario = findScenario(name);
  if (!scenario) throw new UsageError(`unknown scenario "${name}" (npx emulator scenario --list)`);
  const seed = Number(last(args, "seed") ?? 1);
  process.stdout.write(`${scenario.title}\n${scenario.description}\n\n`);
  const { emu, target } = await emulatorFor(scenario, seed);
  try {
    await runScenario(scenario, target, (line) => process.stdout.write(line + "\n"));
    process.stdout.write(`\n✓ ${scenario.name} passed\n`);
    return 0;
  } catch (err) {
    process.stdout.write(`\n✗ ${scenario.name} failed: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await emu.close();
  }
}
