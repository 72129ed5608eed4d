#!/usr/bin/env node
// Starts the CLI from dist/ (compiled at `npm install`) when it is up to date
// with the sources, else runs the TypeScript sources through tsx. Both come
// from npm; nothing is downloaded at run time.
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = ["emulator", "chain", "fixtures", "conformance", "scenarios"];

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "artifacts" || entry.name === "cache" || entry.name === "contracts") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.(ts|cjs)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function distIsFresh() {
  const stamp = join(root, "dist", ".build-stamp");
  if (process.env.EMULATOR_FROM_SOURCE || !existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  return SOURCES.every((d) => newestSource(join(root, d)) <= built);
}

if (distIsFresh()) {
  await import("../dist/emulator/cli.js");
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../emulator/cli.ts");
}
