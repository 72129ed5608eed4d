// Compiles the TypeScript sources to dist/: ESM JavaScript plus .d.ts types, what the published
// package ships (package.json `exports`/`files`) and what `npx emulator` runs in a checkout.
//
//   node scripts/build.mjs            npm install (prepare): builds when dist/ is stale; never fails an
//                                     install (without a fresh dist/ the CLI runs the sources through tsx)
//   node scripts/build.mjs --force    npm run build: always builds
//   node scripts/build.mjs --release  npm pack / publish (prepack): fails on any error; reuses dist/ only
//                                     when it is fresh and its build type-checked cleanly
//
// Plain tsc for the project's code: the output mirrors the sources file for file. TypeScript rewrites the
// sources' `.ts` import specifiers to `.js` in the JavaScript (rewriteRelativeImportExtensions) but
// keeps them in the declarations, so a last step rewrites those too (see fixDeclarations). Two outputs
// besides, for start-up speed: viem bundled into one file for the chain (bundleViem) and the default
// seed's catalog precomputed (precomputeCatalogs).
import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { ROOT, distIsFresh, readStamp } from "./dist-state.mjs";

const release = process.argv.includes("--release");
const force = process.argv.includes("--force");
const require = createRequire(import.meta.url);

function fail(message) {
  if (!release) {
    console.warn(`build: ${message}; the CLI will run the sources through tsx`);
    process.exit(0);
  }
  console.error(`build: ${message}`);
  process.exit(1);
}

let tsc;
try {
  tsc = require.resolve("typescript/bin/tsc");
} catch {
  fail("typescript is not installed");
}
// npm pack and publish run prepack (the release build) and then prepare: one build, the strict one.
if (!release && !force && (process.env.npm_command === "pack" || process.env.npm_command === "publish")) {
  console.log("build: built by prepack");
  process.exit(0);
}
if (!force && distIsFresh()) {
  // A release needs a build from these sources that type-checked; a fresh, clean one is that build.
  if (!release || readStamp()?.typechecked === true) {
    console.log(`build: dist/ is up to date${release ? " and type-checks" : ""}`);
    process.exit(0);
  }
}

// Build beside dist/ and swap it in at the end, so a CLI or test using dist/ meanwhile never sees
// half a build. Inputs are dated from the start: a source edited during the build makes it stale.
const started = new Date();
const out = join(ROOT, `dist.tmp-${process.pid}`);
// What a killed build left behind (a running one's folder is its own).
for (const leftover of readdirSync(ROOT)) {
  const pid = /^dist\.(?:tmp|old)-(\d+)$/.exec(leftover)?.[1];
  if (pid && !isRunning(Number(pid))) rmSync(join(ROOT, leftover), { recursive: true, force: true });
}
// --listFiles: every file of the program, i.e. whatever the include reaches through imports.
// tsc takes ~20–100 s on 2 cores: say so, and show it is alive (npm install shows prepare's output).
console.log("build: compiling the TypeScript sources to dist/ (tsc; up to a minute or two)");
const heartbeat = setInterval(
  () => console.log(`build: still compiling (${Math.round((Date.now() - started.getTime()) / 1000)} s)`),
  5000,
);
const res = await run(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json"), "--outDir", out, "--listFiles"]);
clearInterval(heartbeat);
const listed = res.stdout.split("\n").filter((l) => isAbsolute(l.trim()));
const inputs = listed
  .map((l) => relative(ROOT, l.trim()))
  .filter((rel) => !rel.startsWith("..") && !rel.split(sep).includes("node_modules"));
const tscOutput = [...res.stdout.split("\n").filter((l) => !isAbsolute(l.trim())), res.stderr].join("\n").trim();
if (!existsSync(join(out, "cli", "main.js"))) {
  rmSync(out, { recursive: true, force: true });
  fail(`tsc emitted nothing (${tscOutput.split("\n")[0] ?? ""})`);
}
if (res.status !== 0) {
  if (release) {
    rmSync(out, { recursive: true, force: true });
    console.error(tscOutput);
    fail("tsc reported type errors; a package is never built from code that does not type-check");
  }
  console.warn("build: tsc reported type errors (run npm run typecheck); JavaScript was emitted anyway");
}

fixDeclarations(out);
const copied = copyRuntimeFiles(out, inputs);
copied.push(...(await bundleViem(out)));
await precomputeCatalogs(out);
writeFileSync(
  join(out, ".build-stamp"),
  JSON.stringify(
    {
      built_at: started.toISOString(),
      typechecked: res.status === 0,
      inputs: [...inputs, ...copied].map((f) => f.split(sep).join("/")).sort(),
    },
    null,
    1,
  ) + "\n",
);
utimesSync(join(out, ".build-stamp"), started, started);

const old = join(ROOT, `dist.old-${process.pid}`);
if (existsSync(join(ROOT, "dist"))) renameSync(join(ROOT, "dist"), old);
renameSync(out, join(ROOT, "dist"));
rmSync(old, { recursive: true, force: true });
console.log(`build: dist/ is ready (${((Date.now() - started.getTime()) / 1000).toFixed(1)} s)`);

/**
 * dist/chain/viem.cjs: viem (its main entry, `privateKeyToAccount` and `sendTransaction`) in one CommonJS
 * file, which the emulator's chain loads in ~30 ms instead of viem's ~450 ESM modules' ~160
 * (chain/viem-late.ts, docs/chain.md "The chain's viem"). Returns the inputs that make it stale (viem's
 * package.json: a new viem rebuilds it). Without esbuild (never in a release) the chain uses viem itself.
 */
async function bundleViem(dir) {
  let esbuild;
  try {
    esbuild = require("esbuild");
  } catch {
    if (release) fail("esbuild is not installed (it bundles dist/chain/viem.cjs)");
    console.warn("build: esbuild is not installed; the chain will load viem's own modules (slower start)");
    return [];
  }
  const viemPackage = require.resolve("viem/package.json");
  const { version } = JSON.parse(readFileSync(viemPackage, "utf8"));
  const outfile = join(dir, "chain", "viem.cjs");
  const result = await esbuild.build({
    stdin: {
      contents: [
        'export * from "viem";',
        'export { privateKeyToAccount } from "viem/accounts";',
        'export { sendTransaction } from "viem/actions";',
        `export const VIEM_VERSION = ${JSON.stringify(version)};`,
      ].join("\n"),
      resolveDir: ROOT,
      sourcefile: "viem-bundle.mjs",
      loader: "js",
    },
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    outfile,
    metafile: true,
    legalComments: "eof",
    logLevel: "warning",
  });
  // What the file holds, with each package's license (all MIT today), at its top.
  const packages = new Map();
  for (const input of Object.keys(result.metafile.inputs)) {
    // The last node_modules/<name>/ of the path is the package the file belongs to.
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.split(sep).join("/"));
    if (!m || packages.has(m[1])) continue;
    const pkg = JSON.parse(readFileSync(join(ROOT, m[1], "package.json"), "utf8"));
    packages.set(m[1], `${pkg.name}@${pkg.version} (${pkg.license})`);
  }
  const header = `// viem ${version} bundled by scripts/build.mjs for the emulator's chain; it holds:\n${[
    ...new Set(packages.values()),
  ]
    .sort()
    .map((p) => `//   ${p}\n`)
    .join("")}`;
  writeFileSync(outfile, header + readFileSync(outfile, "utf8"));
  return [relative(ROOT, viemPackage)];
}

/**
 * dist/fixtures/precomputed/: the default seed's catalog as gzipped JSON, made by the generator just compiled, so an
 * emulator of that seed reads it (~25 ms) instead of loading faker and generating it (~165 ms in all;
 * emulator/catalog-data/catalog-source.ts). Without it (a build whose generator does not load) the catalog is
 * generated at run time, as from the sources.
 */
async function precomputeCatalogs(dir) {
  try {
    const source = await import(pathToFileURL(join(dir, "emulator", "catalog-data", "catalog-source.js")).href);
    const { buildCatalog } = await import(pathToFileURL(join(dir, "fixtures", "catalog", "index.js")).href);
    mkdirSync(join(dir, "fixtures", "precomputed"), { recursive: true });
    for (const { seed, size } of source.PRECOMPUTED)
      writeFileSync(
        join(dir, "fixtures", "precomputed", source.precomputedName(seed, size)),
        gzipSync(JSON.stringify(buildCatalog({ seed, size })), { level: 9 }),
      );
  } catch (err) {
    if (release) fail(`the catalog could not be precomputed: ${err.message}`);
    console.warn(`build: the catalog was not precomputed (${err.message}); it is generated at run time`);
  }
}

/** Runs a command to its end without blocking the event loop (the heartbeat keeps ticking). */
function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("error", (err) => resolve({ status: null, stdout, stderr: `${stderr}${err.message}` }));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Relative `.ts` specifiers in the emitted .d.ts files become `.js`, as in the JavaScript beside them.
 * TypeScript 5 accepts `.ts` in declaration files, but older TypeScript, API extractors and type
 * bundlers do not, and `.js` is what every consumer's resolver expects next to a .d.ts.
 */
function fixDeclarations(dir) {
  // import … from "./x.ts", export … from "../y.ts", import("./z.ts"), declare module "./w.ts"
  const specifier = /((?:from|import|module)\s*\(?\s*["'])(\.{1,2}\/[^"'\n]*?)\.([cm]?)ts(["'])/g;
  for (const file of walkAll(dir, (f) => f.endsWith(".d.ts"))) {
    const text = readFileSync(file, "utf8");
    const fixed = text.replace(specifier, (m, head, path, cm, quote) =>
      path.endsWith(".d") ? m : `${head}${path}.${cm}js${quote}`,
    );
    if (fixed !== text) writeFileSync(file, fixed);
  }
}

/**
 * Files the compiled code loads at run time that tsc does not emit: the .cjs/.mjs/.js/.json files
 * beside the compiled sources (e.g. chain/network.cjs, required by path) and their `static/` folders.
 * Returns them, relative.
 */
function copyRuntimeFiles(dir, compiled) {
  const copied = [];
  for (const folder of new Set(compiled.map((f) => dirname(f)))) {
    for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
      // A `static/` folder beside compiled sources is served as is (the dashboard's page, script and styles).
      if (entry.isDirectory() && entry.name === "static") {
        for (const file of readdirSync(join(ROOT, folder, "static"))) {
          const rel = join(folder, "static", file);
          mkdirSync(join(dir, folder, "static"), { recursive: true });
          cpSync(join(ROOT, rel), join(dir, rel));
          copied.push(rel);
        }
        continue;
      }
      if (!entry.isFile() || !/\.(cjs|mjs|js|json)$/.test(entry.name)) continue;
      const rel = join(folder, entry.name);
      mkdirSync(join(dir, folder), { recursive: true });
      cpSync(join(ROOT, rel), join(dir, rel));
      copied.push(rel);
    }
  }
  return copied;
}

function* walkAll(dir, wanted) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walkAll(path, wanted);
    else if (wanted(path)) yield path;
  }
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}
