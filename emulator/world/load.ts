import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createRequire } from "node:module";
import { parseWorld } from "./checks.ts";
import { WorldError } from "./problems.ts";
import type { World } from "./schema.ts";

// Reads a world file (YAML, or JSON, which is YAML too) and checks it whole: a file that cannot be used
// throws a WorldError listing every problem, before anything starts.

export interface LoadedWorld {
  /** The path as given (named in problems). */
  file: string;
  world: World;
  /** A catalog overlay named by the file, resolved against the file's folder. */
  catalogOverlay: string | undefined;
}

export function loadWorld(file: string): LoadedWorld {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new WorldError(file, [`(file): cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`]);
  }
  return checkWorld(file, readDocument(file, text), dirname(resolve(file)));
}

/** A world given as data (createEmulator({ world: {...} })); `file` names it in problems. */
export function checkWorld(file: string, doc: unknown, base = process.cwd()): LoadedWorld {
  const { world, problems } = parseWorld(doc);
  if (!world) throw new WorldError(file, problems);
  return {
    file,
    world,
    catalogOverlay: world.catalog_overlay === undefined ? undefined : resolve(base, world.catalog_overlay),
  };
}

function readDocument(file: string, text: string): unknown {
  // Duplicate keys are an error (YAML's default), so a key declared twice is never silently the last one.
  // yaml loads with the first world read, not with the package (issue 38 goal 1); it is CommonJS, so
  // this is the module an import would give.
  const { parseDocument } = createRequire(import.meta.url)("yaml") as typeof import("yaml");
  const doc = parseDocument(text, { prettyErrors: false, intAsBigInt: false });
  if (doc.errors.length)
    throw new WorldError(
      file,
      doc.errors.map((e) => `(file) line ${e.linePos?.[0].line ?? "?"}: ${e.message.split("\n")[0]}`),
    );
  return doc.toJS({ maxAliasCount: 100 });
}
