// Compiles the TypeScript sources to dist/ (plain ESM JavaScript) so `npx emulator`
// starts without a TypeScript loader. Run by `npm install` (prepare) and `npm run build`.
// It never fails an install: without dist/ (or with a stale one) the CLI runs the
// sources through tsx instead. Type errors are reported by `npm run typecheck`.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, writeFileSync, rmSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
let tsc;
try {
  tsc = require.resolve("typescript/bin/tsc");
} catch {
  console.warn("build: typescript is not installed; the CLI will run the sources through tsx");
  process.exit(0);
}
rmSync(join(root, "dist"), { recursive: true, force: true });
const res = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { cwd: root, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
if (!existsSync(join(root, "dist", "emulator", "cli.js"))) {
  console.warn(`build: tsc emitted nothing (${(res.stdout + res.stderr).trim().split("\n")[0] ?? ""}); the CLI will use tsx`);
  rmSync(join(root, "dist"), { recursive: true, force: true });
  process.exit(0);
}
if (res.status !== 0) console.warn("build: tsc reported type errors (run npm run typecheck); JavaScript was emitted anyway");
// Runtime files that are not TypeScript.
mkdirSync(join(root, "dist", "chain"), { recursive: true });
for (const f of readdirSync(join(root, "chain")).filter((f) => f.endsWith(".cjs"))) cpSync(join(root, "chain", f), join(root, "dist", "chain", f));
writeFileSync(join(root, "dist", ".build-stamp"), new Date().toISOString() + "\n");
console.log("build: dist/ is ready");
