import { existsSync } from "node:fs";
import { has, last, parseOrHelp, UsageError, type CommandSpec } from "../harness/cli-args.ts";
import { checkWritable, writeOutput } from "../harness/output-file.ts";
import { STARTER_WORLD } from "../emulator/world/starter.ts";
import { worldJsonSchema } from "../emulator/world/schema.ts";
import { loadWorld } from "../emulator/world/load.ts";
import { WorldError } from "../emulator/world/problems.ts";

// `npx emulator init` (a starter world file) and `npx emulator world` (its schema; a check of a file).

export const INIT: CommandSpec = {
  usage: "  npx emulator init [--out FILE] [--force]",
  about:
    "Writes a commented starter world (YAML) that runs as written: npx emulator --world FILE.\nWithout --out it goes to world.yaml.",
  options: [
    { name: "out", type: "string", value: "FILE", describe: "where to write it (default world.yaml)" },
    { name: "force", type: "boolean", describe: "overwrite FILE if it exists" },
  ],
};

export const WORLD: CommandSpec = {
  usage: "  npx emulator world --schema [--out FILE] | --check FILE",
  about:
    "The world file's JSON Schema (docs/world.schema.json), or a check of a world file (exit 2 with its problems).",
  options: [
    { name: "schema", type: "boolean", describe: "print the JSON Schema of a world file" },
    { name: "out", type: "string", value: "FILE", describe: "write the schema to FILE instead of stdout" },
    { name: "check", type: "string", value: "FILE", describe: "check FILE as --world would, without starting" },
  ],
};

export function runInit(argv: readonly string[]): number {
  const args = parseOrHelp(INIT, argv);
  if (!args) return 0;
  const out = last(args, "out") ?? "world.yaml";
  if (existsSync(out) && !has(args, "force"))
    throw new UsageError(`${out} exists; pass --force to overwrite it or --out another file`);
  checkWritable("--out", out);
  writeOutput("--out", out, STARTER_WORLD);
  process.stderr.write(`wrote ${out}; start with: npx emulator --world ${out}\n`);
  return 0;
}

export function runWorld(argv: readonly string[]): number {
  const args = parseOrHelp(WORLD, argv);
  if (!args) return 0;
  const check = last(args, "check");
  if (check !== undefined) {
    try {
      loadWorld(check);
    } catch (err) {
      if (err instanceof WorldError) throw new UsageError(err.message);
      throw err;
    }
    process.stderr.write(`world ${check}: ok\n`);
    return 0;
  }
  if (!has(args, "schema")) throw new UsageError("pass --schema (the world file's JSON Schema) or --check FILE");
  const text = JSON.stringify(worldJsonSchema(), null, 2) + "\n";
  const out = last(args, "out");
  if (out) {
    checkWritable("--out", out);
    writeOutput("--out", out, text);
    process.stderr.write(`wrote ${out}\n`);
  } else process.stdout.write(text);
  return 0;
}
