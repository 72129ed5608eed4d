import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The dashboard's script is TypeScript (emulator/ui/app/), part of the typecheck: the project's own
// (`npm run typecheck`, tsconfig.json, with the DOM library) and the build's (tsconfig.build.json, which
// compiles it into dist/ for the emulator to serve), and on its own with browser globals only
// (tsconfig.ui.json: no Node types, so the page uses nothing a browser lacks).

const ROOT = resolve(import.meta.dirname, "..", "..");
const APP = join(ROOT, "emulator", "ui", "app");
const modules = readdirSync(APP)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => join(APP, f));

function program(config: string): { files: string[]; lib: string[] | undefined } {
  const read = ts.readConfigFile(join(ROOT, config), ts.sys.readFile.bind(ts.sys));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT, undefined, join(ROOT, config));
  return { files: parsed.fileNames.map((f) => resolve(f)), lib: parsed.options.lib };
}

describe("the dashboard's script is type-checked", () => {
  it("is several modules, app.ts the entry", () => {
    expect(modules.length).toBeGreaterThan(5);
    expect(modules).toContain(join(APP, "app.ts"));
  });

  it("is in the project's typecheck (with the DOM library) and in the build that fills dist/", () => {
    for (const config of ["tsconfig.json", "tsconfig.build.json", "tsconfig.ui.json"]) {
      const { files, lib } = program(config);
      expect(files, config).toEqual(expect.arrayContaining(modules));
      expect(lib, config).toEqual(expect.arrayContaining(["lib.dom.d.ts"]));
    }
  });

  it("type-checks on its own with browser globals only (tsc -p tsconfig.ui.json)", () => {
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const run = () =>
      execFileSync(process.execPath, [tsc, "--noEmit", "-p", join(ROOT, "tsconfig.ui.json")], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: "pipe",
      });
    expect(run).not.toThrow();
  });
});
