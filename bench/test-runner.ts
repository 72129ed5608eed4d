/**
 * What each way of using the emulator in a test runner costs: ten small vitest files in a scratch
 * consumer project (the packed package installed from the npm cache, as a user gets it), run by
 * vitest's CLI with its defaults, timed whole. The patterns:
 *
 *   bare      the same ten files without an emulator (vitest's own cost, the floor)
 *   per-file  each file creates its own in-process emulator (createEmulator in beforeAll)
 *   kit       one emulator for the run (cardos-emulator/vitest/setup) and a fresh account per test
 *   snapshot  the same emulator, isolateEach() (snapshot/restore around each test), files one at a time
 *
 *   npm run bench -- test-runner [--rounds 3 --chain]
 *
 * --chain starts each emulator with the local chain (Hardhat, a dev dependency of this checkout).
 * Figures from this machine: README "In your test runner".
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "test-runner"),
  options: {
    rounds: { type: "string", default: "3" },
    chain: { type: "boolean", default: false },
  },
});
const ROUNDS = Number(values.rounds);
const CHAIN = values.chain;
const ROOT = join(import.meta.dirname, "..");
const FILES = 10;
const TESTS = 5;
const require = createRequire(import.meta.url);
const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

// npm and vitest pass their own settings down through the environment; the consumer gets none of them.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(npm_|VITEST|NODE_OPTIONS$|TEST$|NODE_ENV$)/i.test(k)),
) as NodeJS.ProcessEnv;

function run(cmd: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}): string {
  const res = spawnSync(cmd, args, { cwd, env: { ...env, ...extra }, encoding: "utf8", timeout: 900_000 });
  if (res.status !== 0)
    throw new Error(`${cmd} ${args.join(" ")} exited ${res.status ?? res.signal}:\n${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

const CARD = "/api/v1/pokemon/cards/base1-4";

/** One test's body, the same in every pattern: a billed read with `key`, then that key's balance. */
const body = (call: string, credits: string) => `    const res = await ${call};
    expect(res.status).toBe(200);
    expect((await res.json()).data.id).toBe("base1-4");
    expect((await ${credits}).balance).toBe(before - 1);`;

interface Pattern {
  name: string;
  config: Record<string, unknown>;
  file: string;
}

const chainOption = CHAIN ? ", chain: true" : "";
const tests = (inner: string) =>
  Array.from({ length: TESTS }, (_, i) => `  test("read ${i}", async () => {\n${inner}\n  });`).join("\n");

const PATTERNS: Pattern[] = [
  {
    name: "bare",
    config: {},
    file: `import { expect, test } from "vitest";
${Array.from({ length: TESTS }, (_, i) => `test("nothing ${i}", () => expect(${i}).toBe(${i}));`).join("\n")}
`,
  },
  {
    name: "per-file",
    config: {},
    file: `import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createEmulator } from "cardos-emulator";
let emu;
beforeAll(async () => { emu = await createEmulator({ clock: "manual"${chainOption} }); });
afterAll(() => emu.close());
describe("reads", () => {
${tests(`    const { key } = await emu.control.keys.add({ kind: "partner", balance: 100 });
    const before = 100;
${body(`emu.fetch("${CARD}", { headers: { "X-API-Key": key } })`, "emu.control.credits.get({ key })")}`)}
});
`,
  },
  {
    name: "kit",
    config: { globalSetup: ["cardos-emulator/vitest/setup"] },
    file: `import { describe, expect, test } from "vitest";
import { freshAccount, useEmulator } from "cardos-emulator/vitest";
const emu = useEmulator();
describe("reads", () => {
${tests(`    const account = await freshAccount({ balance: 100 });
    const before = 100;
${body(`fetch(emu.url + "${CARD}", { headers: account.headers })`, "emu.control.credits.get({ key: account.key })")}`)}
});
`,
  },
  {
    name: "snapshot",
    config: { globalSetup: ["cardos-emulator/vitest/setup"], fileParallelism: false },
    file: `import { describe, expect, test } from "vitest";
import { isolateEach, useEmulator } from "cardos-emulator/vitest";
const emu = useEmulator();
isolateEach();
describe("reads", () => {
${tests(`    const key = emu.key("demo");
    const before = (await emu.control.credits.get({ key })).balance;
${body(`fetch(emu.url + "${CARD}", { headers: { "X-API-Key": key } })`, "emu.control.credits.get({ key })")}`)}
});
`,
  },
];

const scratch = mkdtempSync(join(tmpdir(), "cardos-runner-bench-"));
try {
  console.log(`packing and installing into ${scratch} …`);
  // The dist/ of this checkout as it is (npm run build refreshes it), packed without the release build.
  run("npm", ["pack", "--ignore-scripts", "--pack-destination", scratch, ROOT], ROOT);
  const consumer = join(scratch, "consumer");
  mkdirSync(consumer);
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  run(
    "npm",
    [
      "install",
      join(scratch, `cardos-emulator-${(require("../package.json") as { version: string }).version}.tgz`),
      `vitest@${version("vitest")}`,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
    ],
    consumer,
  );
  if (CHAIN) symlinkSync(join(ROOT, "node_modules", "hardhat"), join(consumer, "node_modules", "hardhat"));
  for (const p of PATTERNS) {
    const dir = join(consumer, p.name);
    mkdirSync(dir);
    writeFileSync(join(dir, "vitest.config.mjs"), `export default ${JSON.stringify({ test: p.config })};\n`);
    for (let i = 0; i < FILES; i++) writeFileSync(join(dir, `reads-${i}.test.js`), p.file);
  }
  const vitest = join(consumer, "node_modules", "vitest", "vitest.mjs");
  const timings = new Map<string, number[]>(PATTERNS.map((p) => [p.name, []]));
  // Rounds alternate the patterns, so a busy spell on a shared machine falls on all of them.
  for (let round = 0; round < ROUNDS; round++)
    for (const p of PATTERNS) {
      const t0 = performance.now();
      const out = run(process.execPath, [vitest, "run"], join(consumer, p.name), {
        ...(CHAIN ? { CARDOS_EMULATOR_CHAIN: "1" } : {}),
      });
      const ms = performance.now() - t0;
      if (!out.includes(`${FILES * TESTS} passed`)) throw new Error(`${p.name}: not every test passed:\n${out}`);
      timings.get(p.name)!.push(ms);
      console.log(`round ${round + 1} ${p.name.padEnd(9)} ${(ms / 1000).toFixed(1)} s`);
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const bare = median(timings.get("bare")!);
  const fastest = Math.min(...PATTERNS.filter((p) => p.name !== "bare").map((p) => median(timings.get(p.name)!)));
  console.log(
    `\n${FILES} files × ${TESTS} tests, vitest ${version("vitest")} defaults, ${CHAIN ? "with" : "without"} the chain, median of ${ROUNDS}:`,
  );
  console.log("pattern    whole run   per file   per file over bare   vs fastest");
  for (const p of PATTERNS) {
    const ms = median(timings.get(p.name)!);
    const over = p.name === "bare" ? "" : `${((ms - bare) / FILES / 1000).toFixed(2)} s`;
    const ratio = p.name === "bare" ? "" : `${(ms / fastest).toFixed(2)}×`;
    console.log(
      `${p.name.padEnd(10)} ${`${(ms / 1000).toFixed(1)} s`.padStart(9)}   ${`${(ms / FILES / 1000).toFixed(2)} s`.padStart(8)}   ${over.padStart(18)}   ${ratio.padStart(10)}`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
