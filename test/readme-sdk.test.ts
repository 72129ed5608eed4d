import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { format } from "node:util";
import { startEmulator } from "./helpers.ts";

// The README's "Build with the official SDK" snippets, run as written with the official SDK
// (vendored: test/vendor/cardos-sdk) against a started emulator with its chain, in order, with the
// variables `npx emulator exec` exports. Each `console.log(...)` line's trailing comment is what it
// must print.

const ROOT = join(import.meta.dirname, "..");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");

interface Snippet {
  file: string;
  code: string;
  /** The trailing comment of each console.log line, in order. */
  prints: string[];
}

function snippets(): Snippet[] {
  const start = readme.indexOf("\n## Build with the official SDK\n");
  if (start < 0) throw new Error("the README has no 'Build with the official SDK' section");
  const section = readme.slice(start + 1, readme.indexOf("\n## ", start + 1));
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map(([, code]) => {
    const file = /^\/\/ ([\w-]+\.ts):/.exec(code!)?.[1];
    if (!file) throw new Error(`an SDK snippet does not start with "// NAME.ts:":\n${code}`);
    const logs = code!.split("\n").filter((line) => line.includes("console.log("));
    const prints = logs.map((line) => /\/\/ (.+)$/.exec(line)?.[1] ?? "(no comment)");
    return { file, code: code!, prints: prints.map((p) => p.replace(/ \(.*\)$/, "")) };
  });
}

const all = snippets();

it("the section has the shared set-up and a snippet per flow", () => {
  const files = ["sdk-setup.ts", "buy.ts", "redeem.ts", "instant.ts", "custodial.ts", "webhooks.ts", "faults.ts"];
  expect(all.map((s) => s.file)).toEqual(files);
});

// `npx emulator exec` runs the realtime clock; tests run the manual one, where a missing advance hangs.
describe.each(["manual", "realtime"] as const)("README: Build with the official SDK (%s clock)", (clock) => {
  // A fresh directory per run: an imported module is not evaluated twice.
  const dir = join(ROOT, "test", `.readme-sdk-${process.pid}-${clock}`);
  let close: (() => Promise<void>) | undefined;
  const VARS = ["EMULATOR_URL", "EMULATOR_RPC_URL", "EMULATOR_KEY_DEMO"] as const;
  const saved = VARS.map((name) => process.env[name]);

  beforeAll(async () => {
    const started = await startEmulator({ chain: true, clock });
    close = started.close;
    process.env.EMULATOR_URL = started.emu.url;
    process.env.EMULATOR_RPC_URL = started.emu.rpcUrl ?? "";
    process.env.EMULATOR_KEY_DEMO = started.emu.key("demo");
    mkdirSync(dir, { recursive: true });
    for (const s of all) writeFileSync(join(dir, s.file), s.code);
  });

  afterAll(async () => {
    VARS.forEach((name, i) => (saved[i] === undefined ? delete process.env[name] : (process.env[name] = saved[i])));
    rmSync(dir, { recursive: true, force: true });
    await close?.();
  });

  for (const s of all.filter((s) => s.file !== "sdk-setup.ts")) {
    it(`${s.file} runs as written and prints what its comments say`, async () => {
      const printed: string[] = [];
      const capture = (...args: unknown[]) => void printed.push(format(...args));
      const log = vi.spyOn(console, "log").mockImplementation(capture);
      try {
        await import(pathToFileURL(join(dir, s.file)).href);
      } finally {
        log.mockRestore();
      }
      expect(s.prints.length).toBeGreaterThan(0);
      expect(printed).toEqual(s.prints);
    });
  }
});
