import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cliSynopsis, withSynopsis } from "../cli/synopsis.ts";
import { START_OPTIONS } from "../cli/launch.ts";
import { CONFORMANCE_COMMAND } from "../conformance/cli.ts";
import { EXEC } from "../cli/exec.ts";
import { TRIGGER } from "../cli/trigger.ts";

// The README's CLI synopsis is the option tables' (the ones --help prints): a flag added to the code
// and not to the README fails here. Fix with `npx tsx scripts/cli-synopsis.mts --write`.

const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");

describe("README CLI synopsis", () => {
  it("is exactly the one generated from the option tables", () => {
    expect(withSynopsis(readme, cliSynopsis())).toBe(readme);
  });

  it("names every flag of every command", () => {
    for (const o of [...START_OPTIONS, ...EXEC.options, ...TRIGGER.options, ...CONFORMANCE_COMMAND.options])
      expect(readme).toContain(`--${o.name}`);
    for (const flag of [
      "--report",
      "--wallet-key",
      "--rpc-url",
      "--max-spend-usdc",
      "--webhook-url",
      "--webhook-port",
      "--checks-digest",
      "--verify",
      "--request-log",
    ])
      expect(cliSynopsis()).toContain(`  ${flag} `);
  });
});
