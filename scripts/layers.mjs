// The dependency rule, checked over the import graph (npm test runs it via
// test/architecture.test.ts; `node scripts/layers.mjs` prints violations).
//
// Every source file belongs to one layer; a file may import its own layer or
// a lower one, never a higher one. Inside `emulator/areas/`, an area may use
// another area only through that area's `index.ts`. The order, top to bottom,
// is written out in docs/architecture.md.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Top to bottom. The first pattern a path matches decides its layer. */
export const LAYERS = [
  // Test aids (the deviation plugin): never compiled into dist, so nothing shipped may import them.
  { name: "testing", paths: ["testing/"] },
  { name: "entry", paths: ["bin/", "cli/"] },
  // Shadow mode judges an upstream by the contract and the emulator (public entry only); it masks as conformance does.
  { name: "shadow", paths: ["shadow/"] },
  { name: "conformance", paths: ["conformance/"] },
  { name: "scenarios", paths: ["scenarios/"] },
  { name: "harness", paths: ["harness/"] },
  {
    name: "public",
    paths: [
      "emulator/index.ts",
      // The package's entry and its plain types (what `cardos-emulator` users see: no internals).
      "emulator/public.ts",
      "emulator/public-types.ts",
      // The entry's values besides createEmulator (origin, manual start, initial state): loaded without the emulator.
      "emulator/entry-values.ts",
      "emulator/config.ts",
      "emulator/msw.ts",
      "emulator/control-client.ts",
      // The runner kit (`cardos-emulator/vitest`): the public entry and the typed control client, nothing deeper.
      "emulator/vitest/",
    ],
  },
  // A test world (emulator/world/): checked before the emulator starts, applied through its own requests.
  { name: "world", paths: ["emulator/world/"] },
  { name: "app", paths: ["emulator/app.ts"] },
  { name: "area-registry", paths: ["emulator/areas/index.ts"] },
  { name: "areas", paths: ["emulator/areas/"] },
  {
    name: "area-kit",
    paths: ["emulator/control/", "emulator/events/", "emulator/shipping/", "emulator/openapi/", "emulator/ui/"],
  },
  { name: "pipeline", paths: ["emulator/pipeline/"] },
  { name: "host", paths: ["emulator/chain-host.ts", "emulator/bus.ts"] },
  { name: "fixtures", paths: ["fixtures/"] },
  { name: "model", paths: ["emulator/catalog-data/", "emulator/state/", "emulator/clock/"] },
  { name: "chain", paths: ["chain/"] },
  // The wire every part answers to; imports nothing of the project.
  { name: "contract", paths: ["contract/"] },
];

/**
 * The top-level folders, top to bottom: drawn by folders, the house must show the layers too, so an
 * import from one folder into another points down this list. fixtures/ is seed data of the model and
 * sits between the emulator's host and model layers, so it counts as part of emulator/'s span here.
 */
export const FOLDERS = [
  "testing",
  "bin",
  "cli",
  "shadow",
  "conformance",
  "scenarios",
  "harness",
  ["emulator", "fixtures"],
  "chain",
  "contract",
];

/** The rank of a path's top-level folder in FOLDERS, or null outside them. */
export function folderOf(path) {
  const top = path.split("/")[0];
  const i = FOLDERS.findIndex((f) => (Array.isArray(f) ? f.includes(top) : f === top));
  return i === -1 ? null : i;
}

const SOURCE_ROOTS = [
  "testing",
  "bin",
  "cli",
  "emulator",
  "shadow",
  "conformance",
  "scenarios",
  "harness",
  "fixtures",
  "chain",
  "contract",
];

export function layerOf(path) {
  const i = LAYERS.findIndex((l) => l.paths.some((p) => (p.endsWith("/") ? path.startsWith(p) : path === p)));
  return i === -1 ? null : i;
}

function sources(root) {
  const out = [];
  const walk = (dir) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (f === "node_modules" || f === "generated" || f.startsWith(".")) continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|js|mjs)$/.test(f) && !f.endsWith(".d.ts") && !/\.test\.ts$/.test(f)) out.push(p);
    }
  };
  for (const r of SOURCE_ROOTS) {
    try {
      walk(join(root, r));
    } catch {
      /* a root may not exist */
    }
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

/** The area a path is inside (`emulator/areas/<name>/…`), if any. */
const areaOf = (p) => /^emulator\/areas\/([^/]+)\//.exec(p)?.[1] ?? null;

export function violations(root) {
  const found = [];
  const graph = new Map();
  for (const file of sources(root)) {
    const from = relative(root, file);
    const fromLayer = layerOf(from);
    const text = readFileSync(file, "utf8");
    const edges = [];
    graph.set(from, edges);
    for (const m of text.matchAll(IMPORT)) {
      const to = relative(root, resolve(dirname(file), m[1] ?? m[2]));
      edges.push(to);
      const toLayer = layerOf(to);
      if (fromLayer === null) found.push(`${from}: not in any layer (add it to LAYERS)`);
      else if (toLayer !== null && toLayer < fromLayer)
        found.push(`${from} (${LAYERS[fromLayer].name}) imports ${to} (${LAYERS[toLayer].name}), a higher layer`);
      const fromFolder = folderOf(from);
      const toFolder = folderOf(to);
      if (fromFolder !== null && toFolder !== null && toFolder < fromFolder)
        found.push(`${from} imports ${to}: folder ${to.split("/")[0]}/ stands above ${from.split("/")[0]}/`);
      if (
        LAYERS[fromLayer]?.name === "entry" &&
        /^(conformance|scenarios|shadow)\//.test(to) &&
        !/^(conformance|scenarios|shadow)\/(cli|index)\.ts$/.test(to)
      )
        found.push(
          `${from} reaches into ${to}; the CLI uses conformance/, scenarios/ and shadow/ only through their cli.ts or index.ts`,
        );
      // Shadow mode runs the emulator as any user does: through its public entry, never its internals.
      if (LAYERS[fromLayer]?.name === "shadow" && /^emulator\//.test(to) && to !== "emulator/index.ts")
        found.push(`${from} imports ${to}; shadow/ uses the emulator only through emulator/index.ts`);
      // The suite is the oracle: it judges answers by the contract, never by the code it judges.
      if (/^conformance\//.test(from) && /^emulator\//.test(to))
        found.push(`${from} imports ${to}: conformance/ judges by contract/ and must not import emulator/`);
      const a = areaOf(from);
      const b = areaOf(to);
      if (a && b && a !== b && to !== `emulator/areas/${b}/index.ts`)
        found.push(`${from} reaches into area "${b}" (${to}); use emulator/areas/${b}/index.ts`);
    }
  }
  for (const cycle of cycles(graph)) found.push(`import cycle: ${cycle.join(" → ")}`);
  return [...new Set(found)];
}

/** Every strongly connected group of files larger than one (Tarjan), each as a path through it. */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const out = [];
  const visit = (v) => {
    meta.set(v, { index, low: index, on: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!meta.has(w)) {
        visit(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).on) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
    }
    if (meta.get(v).low === meta.get(v).index) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).on = false;
        group.push(w);
      } while (w !== v);
      if (group.length > 1) out.push([...group.sort(), group.sort()[0]]);
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) visit(v);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const v = violations(root);
  for (const line of v) console.log(line);
  console.log(`${v.length} violation(s)`);
  process.exit(v.length ? 1 : 0);
}
