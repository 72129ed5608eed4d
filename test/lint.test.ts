import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// `npm run lint` inside `npm test` (docs/decisions.md, "Lint, format and dead code"): typescript-eslint,
// knip (no unused file, export or dependency) and prettier. A failure prints the tool's own report.

const ROOT = join(import.meta.dirname, "..");
const bin = (pkg: string, path: string) => join(ROOT, "node_modules", pkg, path);

/** What prettier checks: everything `.prettierignore` leaves (`npm run format` writes it). */
const FORMATTED = ["."];

/** Runs a tool's bin with node; the three run side by side (eslint is the longest, ~13 s of CPU). */
function run(file: string, args: string[]): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, FORCE_COLOR: "0" };
    execFile(process.execPath, [file, ...args], { cwd: ROOT, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      resolve({ status: err ? Number(err.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe.concurrent("lint", () => {
  it("eslint finds nothing", async () => {
    const { status, output } = await run(bin("eslint", "bin/eslint.js"), ["--max-warnings", "0", "."]);
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("knip finds no unused file, export or dependency", async () => {
    const { status, output } = await run(bin("knip", "bin/knip.js"), ["--no-progress"]);
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("prettier finds every checked file formatted", async () => {
    const { status, output } = await run(bin("prettier", "bin/prettier.cjs"), ["--check", ...FORMATTED]);
    expect(output).not.toMatch(/\[warn\]|\[error\]/);
    expect(status).toBe(0);
  });
});
