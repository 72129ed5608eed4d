// Whether dist/ still matches the sources, in a checkout. Shared by scripts/build.mjs (skip a
// build that would change nothing) and bin/emulator.js (run dist/ only when it is fresh, so an
// edited source is never shadowed by an old build). An installed package has no sources and
// no scripts/: its bin runs dist/ directly.
//
// The build records in dist/.build-stamp every file it compiled or copied (what tsc reached from
// tsconfig.build.json's include, whatever folder it lives in); dist/ is fresh while none of them,
// nor the build's own configuration, changed or vanished since the build started.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const STAMP = join(ROOT, "dist", ".build-stamp");

/** What the build reads besides the sources. */
export const BUILD_CONFIG = ["tsconfig.json", "tsconfig.build.json", "scripts/build.mjs"];

/** @returns {{ built_at: string, inputs: string[] } | null} */
export function readStamp(file = STAMP) {
  try {
    const stamp = JSON.parse(readFileSync(file, "utf8"));
    return Array.isArray(stamp?.inputs) ? stamp : null;
  } catch {
    return null;
  }
}

export function distIsFresh() {
  const stamp = readStamp();
  if (!stamp || stamp.inputs.length === 0) return false;
  const built = statSync(STAMP).mtimeMs;
  return [...stamp.inputs, ...BUILD_CONFIG].every((rel) => {
    const path = join(ROOT, rel);
    return existsSync(path) && statSync(path).mtimeMs <= built;
  });
}
