import { last, parseOrHelp, UsageError, type CommandSpec } from "../harness/cli-args.ts";
import { checkWritable, writeOutput } from "../harness/output-file.ts";
import { ImportError, importRecordings } from "./fixtures-import.ts";

// `npx emulator fixtures import DIR`: recorded catalog answers → a catalog overlay file.

export const FIXTURES_COMMAND: CommandSpec = {
  usage: "  npx emulator fixtures import DIR [--out FILE]",
  about: `Turns the catalog answers recorded by npx emulator shadow --record DIR (cards, expansions, sealed products
and their prices) into a catalog overlay, which npx emulator --catalog-overlay FILE lays over the seeded
catalog: the records you recorded answer by id and in searches (docs/shadow.md).`,
  options: [
    {
      name: "out",
      type: "string",
      value: "FILE",
      describe: "the overlay file to write (default catalog-overlay.json)",
    },
  ],
};

export function runFixturesCli(argv: readonly string[]): number {
  const args = parseOrHelp(FIXTURES_COMMAND, argv);
  if (!args) return 0;
  const [sub, dir, extra] = args.positionals;
  if (sub !== "import" || !dir || extra !== undefined)
    throw new UsageError("usage: npx emulator fixtures import DIR [--out FILE]");
  const out = last(args, "out") ?? "catalog-overlay.json";
  checkWritable("--out", out);
  let result;
  try {
    result = importRecordings(dir);
  } catch (err) {
    if (err instanceof ImportError) throw new UsageError(`fixtures import: ${err.message}`);
    throw err;
  }
  const o = result.overlay;
  writeOutput("--out", out, JSON.stringify(o, null, 2) + "\n");
  process.stdout.write(
    `${out}: ${o.cards.length} card(s), ${o.expansions.length} expansion(s), ${o.sealed.length} sealed product(s) from ${result.catalogFiles} catalog answer(s) of ${result.files} recording(s)` +
      `${result.skipped ? `; ${result.skipped} record(s) left out (narrowed by select, or not the contract's shape)` : ""}\n` +
      `start with: npx emulator --catalog-overlay ${out}\n`,
  );
  return 0;
}
