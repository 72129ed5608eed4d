// The package.json that goes into the tarball has no "scripts": they name files a package does not
// ship (scripts/, chain/compile.ts, bench/), and npm 11 would list "prepare" as an install script
// for the consumer to approve. npm packs the package.json on disk after prepack, so:
//
//   node scripts/pack-manifest.mjs strip     prepack: keeps the checkout's file aside, writes it without scripts
//   node scripts/pack-manifest.mjs restore   postpack (and the next strip, after an interrupted pack): puts it back
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./dist-state.mjs";

const FILE = join(ROOT, "package.json");
export const KEPT = join(ROOT, "package.json.before-pack");

export function restore() {
  if (existsSync(KEPT)) renameSync(KEPT, FILE);
}

export function strip() {
  restore();
  const text = readFileSync(FILE, "utf8");
  const { scripts: _scripts, ...published } = JSON.parse(text);
  writeFileSync(KEPT, text);
  writeFileSync(FILE, JSON.stringify(published, null, 2) + "\n");
}

const mode = process.argv[2];
if (mode === "strip") strip();
else if (mode === "restore") restore();
else if (mode !== undefined) {
  console.error(`pack-manifest: unknown mode ${mode} (strip | restore)`);
  process.exit(2);
}
