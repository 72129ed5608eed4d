// Prints the table of every conformance check (id, what it proves, what it needs, cost) from the registry;
// --write puts it into docs/conformance.md:   npx tsx scripts/conformance-table.mts [--write]
import { readFileSync, writeFileSync } from "node:fs";
import { ALL_CHECKS } from "../conformance/registry.ts";
import { checkTable, withCheckTable } from "../conformance/check-table.ts";

const table = checkTable(ALL_CHECKS);
if (process.argv.includes("--write")) {
  const file = new URL("../docs/conformance.md", import.meta.url);
  writeFileSync(file, withCheckTable(readFileSync(file, "utf8"), table));
} else process.stdout.write(table);
