// Lints the package as published: publint and are-the-types-wrong (ESM-only profile: the package
// has no CommonJS build) on a packed tarball.
//
//   npm run lint:package                     packs the checkout (prepack: the release build) and lints it
//   node scripts/check-package.mjs FILE.tgz  lints a tarball packed already (test/package.test.ts)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./dist-state.mjs";

/** A dev tool's CLI script (not every package exports its package.json). */
function binOf(pkg, bin) {
  const dir = join(ROOT, "node_modules", pkg);
  return join(dir, JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).bin[bin]);
}

function step(args, cwd) {
  const res = spawnSync(process.execPath, args, { cwd, stdio: "inherit" });
  return res.status === 0;
}

let tarball = process.argv[2];
let scratch = null;
if (!tarball) {
  scratch = mkdtempSync(join(tmpdir(), "cardos-pack-"));
  if (
    spawnSync("npm", ["pack", "--pack-destination", scratch], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] })
      .status !== 0
  )
    process.exit(1);
  tarball = join(
    scratch,
    readdirSync(scratch).find((f) => f.endsWith(".tgz")),
  );
}
const ok =
  step([binOf("publint", "publint"), "run", tarball, "--strict"], ROOT) &&
  step([binOf("@arethetypeswrong/cli", "attw"), tarball, "--profile", "esm-only", "--format", "table-flipped"], ROOT);
if (scratch) rmSync(scratch, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
