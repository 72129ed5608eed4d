import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withCheckoutLock } from "./checkout-lock.ts";

// `npm run lint` inside `npm test` (docs/decisions.md, "Lint, format and dead code"): typescript-eslint,
// knip (no unused file, export or dependency) and prettier. A failure prints the tool's own report.

const ROOT = join(import.meta.dirname, "..");
const bin = (pkg: string, path: string) => join(ROOT, "node_modules", pkg, path);

/** What prettier checks: everything `.prettierignore` leaves (`npm run format` writes it). */
const FORMATTED = ["."];

/**
 * Runs a tool's bin with node; the three run side by side (eslint and prettier ~13 s of CPU each). `signal` is
 * the test's: a test that times out or a cancelled run kills its tool (it once ran on, orphaned, after a timeout).
 */
function run(file: string, args: string[], signal: AbortSignal): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, FORCE_COLOR: "0" };
    const options = { cwd: ROOT, env, maxBuffer: 64 << 20, signal };
    execFile(process.execPath, [file, ...args], options, (err, stdout, stderr) => {
      resolve({ status: err ? Number(err.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

// Three CPU-heavy tools side by side: on a shared 2-core machine (load 40) eslint passed the 300 s hang detector.
describe.concurrent("lint", { timeout: 900_000 }, () => {
  it("eslint finds nothing", async ({ signal }) => {
    const { status, output } = await run(bin("eslint", "bin/eslint.js"), ["--max-warnings", "0", "."], signal);
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("knip finds no unused file, export or dependency", async ({ signal }) => {
    // It reads package.json's scripts, which a pack beside it takes out for a moment (test/checkout-lock.ts).
    const { status, output } = await withCheckoutLock(() => run(bin("knip", "bin/knip.js"), ["--no-progress"], signal));
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("prettier finds every checked file formatted", async ({ signal }) => {
    const { status, output } = await run(bin("prettier", "bin/prettier.cjs"), ["--check", ...FORMATTED], signal);
    expect(output).not.toMatch(/\[warn\]|\[error\]/);
    expect(status).toBe(0);
  });
});
