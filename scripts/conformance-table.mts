// Prints the table of every conformance check (id, what it proves, what it needs, cost) from the registry and
// the rule inventory's coverage line; --write puts both into docs/conformance.md:
//   npx tsx scripts/conformance-table.mts [--write]
import { readFileSync, writeFileSync } from "node:fs";
import { ALL_CHECKS } from "../conformance/registry.ts";
import { checkTable, withCheckTable } from "../conformance/check-table.ts";
import { coverageLine, withCoverageLine } from "../conformance/rules.ts";

const table = checkTable(ALL_CHECKS);
if (process.argv.includes("--write")) {
  const file = new URL("../docs/conformance.md", import.meta.url);
  writeFileSync(file, withCoverageLine(withCheckTable(readFileSync(file, "utf8"), table)));
} else process.stdout.write(`${table}\nrule inventory: ${coverageLine()}\n`);
