// Prints the README's CLI synopsis from the option tables; --write puts it into README.md:
//   npx tsx scripts/cli-synopsis.mts [--write]
import { readFileSync, writeFileSync } from "node:fs";
import { cliSynopsis, withSynopsis } from "../cli/synopsis.ts";

const synopsis = cliSynopsis();
if (process.argv.includes("--write")) {
  const file = new URL("../README.md", import.meta.url);
  writeFileSync(file, withSynopsis(readFileSync(file, "utf8"), synopsis));
} else process.stdout.write(synopsis);
