import { optionLines, type CommandSpec } from "../harness/cli-args.ts";
import { CONFORMANCE_COMMAND, MERGE_COMMAND } from "../conformance/cli.ts";
import { SCENARIO_COMMAND } from "../scenarios/cli.ts";
import { FIXTURES_COMMAND, SHADOW_COMMAND } from "../shadow/cli.ts";
import { OPENAPI, START } from "./commands.ts";
import { EXEC } from "./exec.ts";
import { TRIGGER } from "./trigger.ts";
import { INIT, WORLD } from "./world.ts";

// The README's CLI synopsis, written from the same option tables as every --help, so the two cannot
// drift: test/cli-synopsis.test.ts compares, `npx tsx scripts/cli-synopsis.mts --write` rewrites it.

const COMMANDS: readonly CommandSpec[] = [
  START,
  EXEC,
  TRIGGER,
  CONFORMANCE_COMMAND,
  MERGE_COMMAND,
  SCENARIO_COMMAND,
  SHADOW_COMMAND,
  FIXTURES_COMMAND,
  OPENAPI,
  INIT,
  WORLD,
];

/** Each command's first usage line, then its options (`--help` is left out: every command has it). */
export function cliSynopsis(): string {
  return (
    COMMANDS.map(
      (c) =>
        `${c.usage
          .split("\n")[0]!
          .trim()
          .replace(/ {2,}.*$/, "")}\n${optionLines(c.options.filter((o) => o.name !== "help"))}`,
    ).join("\n") + "\n"
  );
}

export const SYNOPSIS_START =
  "<!-- cli-synopsis: generated from the option tables (npx tsx scripts/cli-synopsis.mts --write) -->";
export const SYNOPSIS_END = "<!-- /cli-synopsis -->";

/** The README with its synopsis block (between the markers) replaced by `synopsis`. */
export function withSynopsis(readme: string, synopsis: string): string {
  const a = readme.indexOf(SYNOPSIS_START);
  const b = readme.indexOf(SYNOPSIS_END);
  if (a === -1 || b < a) throw new Error("README.md has no cli-synopsis markers");
  return `${readme.slice(0, a + SYNOPSIS_START.length)}\n\`\`\`\n${synopsis}\`\`\`\n${readme.slice(b)}`;
}
