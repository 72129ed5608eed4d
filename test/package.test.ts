import { describe, it, expect, beforeAll, afterAll } from "vitest";
import request from "supertest";
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HARDHAT_RANGE } from "../chain/provider.ts";
import { DEVIATIONS } from "../testing/deviations/index.ts";
import { withCheckoutLock } from "./checkout-lock.ts";

// The package as a user gets it: `npm pack` here, `npm install` of the tarball into a scratch
// project outside the repo, and there a strict NodeNext type-check, plain Node, vitest running the
// README's msw snippet, and `npx emulator`. One install from the shared npm cache.

const ROOT = join(import.meta.dirname, "..");
const require = createRequire(import.meta.url);
const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

// npm and vitest pass their own settings down through the environment; the consumer gets none of them.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(npm_|VITEST|NODE_OPTIONS$|TEST$|NODE_ENV$)/i.test(k)),
) as NodeJS.ProcessEnv;

// Generous: a child process on a loaded machine may take long; these only catch a hang.
function run(cmd: string, args: string[], cwd: string, timeout = 300_000): SpawnSyncReturns<string> {
  const res = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout });
  if (res.status !== 0)
    throw new Error(
      `${cmd} ${args.join(" ")} (in ${cwd}) exited ${res.status ?? res.signal}:\n${res.stdout}\n${res.stderr}`,
    );
  return res;
}

interface PackResult {
  filename: string;
  size: number;
  files: { path: string }[];
}

let scratch: string;
let consumer: string;
let packed: PackResult;
let tarball: string;

let manifestBefore: string;
let packedManifest: Record<string, unknown>;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "cardos-package-"));
  consumer = join(scratch, "consumer");
  mkdirSync(consumer);
  // The build and the pack touch the checkout (dist/, package.json): one run at a time (test/checkout-lock.ts).
  const pack = await withCheckoutLock(() => {
    // dist/ from the current sources (a no-op when npm install or an earlier run already built it).
    run(process.execPath, [join(ROOT, "scripts", "build.mjs")], ROOT, 600_000);
    // With its scripts, as a release is packed: prepack reuses the fresh, type-checked build above.
    manifestBefore = readFileSync(join(ROOT, "package.json"), "utf8");
    return run("npm", ["pack", "--json", "--pack-destination", scratch], ROOT, 600_000);
  });
  // prepack's own lines come first on stdout, then npm's JSON.
  packed = (JSON.parse(pack.stdout.slice(pack.stdout.search(/^\[/m))) as PackResult[])[0]!;
  tarball = join(scratch, packed.filename);
  packedManifest = JSON.parse(run("tar", ["-xOzf", tarball, "package/package.json"], scratch).stdout) as Record<
    string,
    unknown
  >;

  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2),
  );
  // The dev tools at the repo's own versions, so everything comes from the npm cache.
  const tools = ["vitest", "typescript", "msw", "@types/node"].map((p) => `${p}@${version(p)}`);
  run(
    "npm",
    ["install", tarball, ...tools, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
    consumer,
    600_000,
  );
}, 1_200_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("ships the compiled code, its types, the docs and nothing else", () => {
    const paths = packed.files.map((f) => f.path);
    const stray = paths.filter(
      (p) => !/^(dist\/|docs\/|bin\/emulator\.js$|README\.md$|LICENSE$|package\.json$)/.test(p),
    );
    expect(stray).toEqual([]);
    expect(paths.filter((p) => /\.(ts|mts|cts)$/.test(p) && !/\.d\.ts$/.test(p))).toEqual([]);
    for (const entry of [
      "emulator/index",
      "chain/index",
      "conformance/index",
      "emulator/control-client",
      "emulator/vitest/index",
      "emulator/vitest/setup",
    ])
      expect(paths).toEqual(expect.arrayContaining([`dist/${entry}.js`, `dist/${entry}.d.ts`]));
    // The contracts' bindings (ABIs and bytecode), so the chain deploys without solc.
    // ... viem bundled in one file for the chain (docs/chain.md "The chain's viem"), the default catalog precomputed.
    expect(paths).toEqual(
      expect.arrayContaining([
        "dist/chain/generated/contracts.js",
        "dist/chain/network.cjs",
        "dist/chain/viem.cjs",
        "dist/cli/main.js",
        "dist/fixtures/precomputed/catalog-1-default.json.gz",
      ]),
    );
    // The dashboard: its page and styles as they are, its script compiled (what a published install serves).
    expect(paths).toEqual(
      expect.arrayContaining([
        "dist/emulator/ui/static/index.html",
        "dist/emulator/ui/static/style.css",
        "dist/emulator/ui/app/app.js",
        "dist/emulator/ui/app/lifecycle-actions.js",
      ]),
    );
    expect(paths.filter((p) => p.startsWith("dist/emulator/ui/static/") && p.endsWith(".js"))).toEqual([]);
  });

  it("ships no deviation catalogue: the test aids stay in testing/, attached as a plugin, outside dist", () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths.filter((p) => p.startsWith("dist/testing/"))).toEqual([]);
    const read = (p: string) => ({ path: p, text: readFileSync(join(ROOT, p), "utf8") });
    const shipped = paths.filter((p) => /^dist\/.*\.js$/.test(p)).map(read);
    // The runtime mentions none: its one extension point is the generic plugin hook.
    const runtime = shipped.filter((f) => f.path.startsWith("dist/emulator/") && /deviation/i.test(f.text));
    expect(runtime.map((f) => f.path)).toEqual([]);
    // Elsewhere a deviation's name appears only where a conformance check names the one that kills it.
    const mentions = (text: string, name: string) => text.replaceAll(`deviation: "${name}"`, "").includes(`"${name}"`);
    const named = shipped.flatMap((f) =>
      DEVIATIONS.filter((d) => mentions(f.text, d.name)).map((d) => `${f.path} ${d.name}`),
    );
    expect(named).toEqual([]);
  });

  it("ships a package.json without scripts (they name files not shipped) and leaves the checkout's as it was", () => {
    expect(packedManifest.scripts).toBeUndefined();
    // Two names for one bin: the package's own (`npx cardos-emulator`, unambiguous anywhere) and the short one.
    expect(packedManifest).toMatchObject({ name: "cardos-emulator" });
    expect(packedManifest.bin).toEqual({ emulator: "bin/emulator.js", "cardos-emulator": "bin/emulator.js" });
    expect(readFileSync(join(ROOT, "package.json"), "utf8")).toBe(manifestBefore);
    expect(existsSync(join(ROOT, "package.json.before-pack"))).toBe(false);
  });

  it("passes publint and are-the-types-wrong (ESM-only)", () => {
    const lint = run(process.execPath, [join(ROOT, "scripts", "check-package.mjs"), tarball], ROOT);
    expect(lint.stdout).toContain("All good");
  });

  it("type-checks a strict NodeNext project that uses every entry point", () => {
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          verbatimModuleSyntax: true,
          skipLibCheck: true,
          noEmit: true,
          types: ["node"],
        },
        include: ["typed.ts"],
      }),
    );
    writeFileSync(
      join(consumer, "typed.ts"),
      `import { setupServer } from "msw/node";
import type { HttpHandler } from "msw";
import { createEmulator, isLoopback, type Emulator, type EmulatorOptions, type StateExport } from "cardos-emulator";
import { usdStablecoinAbi, type Chain } from "cardos-emulator/chain";
import { ALL_CHECKS, MODES, PROFILES, passed, runSuite, junitReport, type Check, type Mode, type Profile, type SuiteResult } from "cardos-emulator/conformance";
import { connect, ControlError, type ControlClient } from "cardos-emulator/control";
import { freshAccount, isolateEach, useEmulator, type FreshAccount, type KitEmulator } from "cardos-emulator/vitest";
import kitSetup, { emulatorSetup } from "cardos-emulator/vitest/setup";
import { inject } from "vitest";

const options: EmulatorOptions = { seed: 1, clock: "manual" };
const emu: Emulator = await createEmulator(options);
const handlers: HttpHandler[] = emu.handlers;
const server = setupServer(...handlers);
server.listen({ onUnhandledRequest: (req, print) => { if (!isLoopback(req.url)) print.error(); } });
const res: Response = await fetch(\`\${emu.url}/api/v1/pokemon/cards/base1-4\`, { headers: { "X-API-Key": emu.key("demo") } });
await emu.clock.advance(60_000);
const state: StateExport = emu.exportState();
// emu.chain is typed plainly (no viem in the entry's types); the gateway with its viem clients is ./chain's Chain.
const chain: Chain | null = emu.chain as Chain | null;
const rpc: string | null = emu.chain?.rpcUrl ?? null;
const transfer = usdStablecoinAbi.find((item) => item.type === "function" && item.name === "transfer");
const control: ControlClient = connect(emu.url);
const advanced: string = (await emu.control.clock.advance({ ms: 1 })).now;
const calls: number = emu.requests.count({ operation: "cards.get", key: "demo", since: new Date(0) });
const failed: boolean = (await control.health.get().catch((e: unknown) => e)) instanceof ControlError;
const kit: KitEmulator = useEmulator(inject("cardosEmulator"));
const account: FreshAccount = await freshAccount({ balance: 10 }, kit);
const apiKey: string = account.headers["X-API-Key"];
isolateEach(() => kit);
const setups = [kitSetup, emulatorSetup({ chain: true })];

const profiles: Profile[] = PROFILES.filter((p) => p === "pipeline");
const mode: Mode = MODES[2];
const checks: readonly Check[] = ALL_CHECKS;
const suite: SuiteResult = await runSuite(checks, { baseUrl: emu.url, fetch: emu.fetch, profiles, mode });
const ok: boolean = passed(suite);
const xml: string = junitReport(suite);
server.close();
await emu.close();
console.log(res.status, state.now, chain, rpc, transfer?.name, ok, xml.length, advanced, calls, failed, apiKey, setups);
`,
    );
    // Declarations point at .js files, as the JavaScript beside them does (tsc itself keeps ".ts").
    const dist = join(consumer, "node_modules", "cardos-emulator", "dist");
    const tsSpecifiers = (readdirSync(dist, { recursive: true }) as string[])
      .filter((f) => f.endsWith(".d.ts"))
      .filter((f) =>
        /(from|import|module)\s*\(?\s*["']\.{1,2}\/[^"']*\.[cm]?ts["']/.test(readFileSync(join(dist, f), "utf8")),
      );
    expect(tsSpecifiers).toEqual([]);
    const tsc = spawnSync(
      process.execPath,
      [join(consumer, "node_modules", "typescript", "bin", "tsc"), "-p", consumer],
      { cwd: consumer, env, encoding: "utf8" },
    );
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });

  it("imports from plain Node and runs the conformance suite in-process", () => {
    writeFileSync(
      join(consumer, "plain.mjs"),
      `const { createEmulator } = await import("cardos-emulator");
const { startChain, usdStablecoinAbi } = await import("cardos-emulator/chain");
const { runSuite, passed, ALL_CHECKS } = await import("cardos-emulator/conformance");
const { connect, ControlError } = await import("cardos-emulator/control");
const emu = await createEmulator({ seed: 1, clock: "manual" });
const advanced = await emu.control.clock.advance({ ms: 1000 });
const refused = await connect("http://127.0.0.1:9").health.get().then(() => null, (e) => e.constructor.name);
const res = await emu.fetch("/api/v1/pokemon/cards/base1-4", { headers: { "X-API-Key": emu.key("demo") } });
const card = (await res.json()).data;
const suite = await runSuite(ALL_CHECKS, { baseUrl: emu.url, fetch: emu.fetch, profiles: ["pipeline"], mode: "emulator" });
await emu.close();
console.log(JSON.stringify({ status: res.status, id: card.id, startChain: typeof startChain, abi: usdStablecoinAbi.length > 0, checks: suite.results.length, passed: passed(suite), clock: advanced.now, controlError: typeof ControlError, refused }));
`,
    );
    const out = run(process.execPath, ["plain.mjs"], consumer);
    expect(JSON.parse(out.stdout.trim().split("\n").at(-1)!)).toEqual({
      status: 200,
      id: "base1-4",
      startChain: "function",
      abi: true,
      checks: expect.any(Number),
      passed: true,
      clock: "2026-01-15T12:00:01.000Z",
      controlError: "function",
      refused: "TypeError",
    });
  });

  it("runs the README's msw snippet under vitest", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const snippet = /```ts\n(import \{ setupServer \} from "msw\/node";[\s\S]*?)```/.exec(readme)?.[1];
    if (!snippet) throw new Error("the README has no msw snippet");
    writeFileSync(
      join(consumer, "readme.test.ts"),
      `import { afterAll, expect, test } from "vitest";
${snippet}
afterAll(async () => {
  server.close();
  await emu.close();
});

test("the README's snippet answers from the emulator through msw", async () => {
  expect(res.status).toBe(200);
  expect((await res.json()).data.id).toBe("base1-4");
  expect(emu.clock.now()).toBe(Date.parse("2026-01-15T12:01:00.000Z"));
});
`,
    );
    const out = run(
      process.execPath,
      [join(consumer, "node_modules", "vitest", "vitest.mjs"), "run", "readme.test.ts"],
      consumer,
    );
    expect(out.stdout).toMatch(/1 passed/);
  });

  it("runs test files under the kit's globalSetup: one emulator, a fresh account per test, snapshot/restore", () => {
    const dir = join(consumer, "kit");
    mkdirSync(dir);
    writeFileSync(
      join(dir, "vitest.config.mjs"),
      `export default { test: { globalSetup: ["cardos-emulator/vitest/setup"] } };\n`,
    );
    writeFileSync(
      join(dir, "kit.test.ts"),
      `import { expect, test } from "vitest";
import { freshAccount, isolateEach, useEmulator } from "cardos-emulator/vitest";
const emu = useEmulator();
isolateEach();
test("a fresh account is billed alone", async () => {
  const account = await freshAccount({ balance: 10 });
  const res = await fetch(emu.url + "/api/v1/pokemon/cards/base1-4", { headers: account.headers });
  expect(res.status).toBe(200);
  expect((await emu.control.credits.get({ key: account.key })).balance).toBe(9);
  expect((await emu.control.clock.get()).mode).toBe("manual");
  await emu.control.clock.advance({ ms: 1000 });
});
test("the next test starts where the file did", async () => {
  expect((await emu.control.clock.get()).now).toBe("2026-01-15T12:00:00.000Z");
});
`,
    );
    // And the README's kit snippet, as written.
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const snippet = /```ts\n(\/\/ vitest\.config\.ts: test: \{ globalSetup[\s\S]*?)```/.exec(readme)?.[1];
    if (!snippet) throw new Error("the README has no runner-kit snippet");
    writeFileSync(join(dir, "readme-kit.test.ts"), snippet);
    const out = run(process.execPath, [join(consumer, "node_modules", "vitest", "vitest.mjs"), "run"], dir);
    expect(out.stdout).toMatch(/3 passed/);
  });

  it("keeps the chain's packages out of the install: Hardhat is an optional peer, the contracts' sources are not shipped", () => {
    const own = JSON.parse(manifestBefore) as { devDependencies: Record<string, string> };
    const deps = Object.keys(packedManifest.dependencies as Record<string, string>);
    expect(deps.filter((d) => /^(hardhat|@nomicfoundation\/|@openzeppelin\/|solc$)/.test(d))).toEqual([]);
    // vitest: an optional peer too, for the runner kit (cardos-emulator/vitest) alone.
    expect(packedManifest.peerDependencies).toEqual({ hardhat: own.devDependencies.hardhat, vitest: "^4.0.0" });
    expect(packedManifest.peerDependenciesMeta).toEqual({ hardhat: { optional: true }, vitest: { optional: true } });
    expect(own.devDependencies.hardhat).toBe(HARDHAT_RANGE);
    // npm does not install an optional peer: the in-process consumer gets no Hardhat and no EDR.
    for (const heavy of ["hardhat", "@nomicfoundation/edr"])
      expect(existsSync(join(consumer, "node_modules", heavy))).toBe(false);
  });

  it("npx cardos-emulator runs the same command and names itself so in its help", () => {
    const help = run("npx", ["cardos-emulator", "--help"], consumer);
    expect(help.stdout).toMatch(/^Usage:\n {2}npx cardos-emulator \[options\]/);
    expect(help.stdout).toContain("npx cardos-emulator conformance [options]");
    expect(help.stdout).not.toContain("npx emulator ");
    const short = run("npx", ["emulator", "--help"], consumer);
    expect(short.stdout).toMatch(/^Usage:\n {2}npx emulator \[options\]/);
  });

  it("npx emulator without Hardhat says in one line how to get it; --no-chain starts", async () => {
    const missing = spawnSync("npx", ["emulator", "--json", "--port", "0", "--rpc-port", "0"], {
      cwd: consumer,
      env,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(missing.status).toBe(2);
    expect(missing.stderr.split("\n")[0]).toBe(
      `emulator: the local chain needs Hardhat, which is not installed: npm install -D hardhat@${HARDHAT_RANGE} (or start without a chain: --no-chain)`,
    );
    const ready = await startNpx(["--no-chain"]);
    try {
      expect(ready.line.rpcUrl).toBeNull();
      const key = ready.line.keys.find((k) => k.kind === "partner")!.key;
      const res = await request(ready.line.url).get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", key);
      expect(res.status).toBe(200);
    } finally {
      await ready.stop();
    }
  });

  it("starts with npx emulator --json and serves a card", async () => {
    // The chain's one install step (the README's "Installing it in your project").
    run(
      "npm",
      ["install", "-D", `hardhat@${HARDHAT_RANGE}`, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
      consumer,
      600_000,
    );
    const child = spawn("npx", ["emulator", "--json", "--port", "0", "--rpc-port", "0"], {
      cwd: consumer,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d) => {
          out += d;
          if (out.includes("\n")) resolve(out.split("\n")[0]!);
        });
        child.once("exit", (code) => reject(new Error(`npx emulator exited ${code}: ${stderr}`)));
      });
      const ready = JSON.parse(line) as { url: string; rpcUrl: string | null; keys: { key: string; kind: string }[] };
      expect(ready.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const key = ready.keys.find((k) => k.kind === "partner")!.key;
      const res = await request(ready.url).get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", key);
      expect(res.status).toBe(200);
      expect((res.body as { data: { id: string } }).data.id).toBe("base1-4");
      const rpc = await request(ready.rpcUrl!)
        .post("/")
        .send({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
      expect((rpc.body as { result: string }).result).toBe("0x7a69");
    } finally {
      // npx and the emulator it started: the process group this test created.
      if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
  });
});

/** `npx emulator --json --port 0 …` in the consumer: its ready line, and a stop for the process group. */
async function startNpx(extra: string[]) {
  const child = spawn("npx", ["emulator", "--json", "--port", "0", ...extra], {
    cwd: consumer,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM");
    await exited;
  };
  try {
    const first = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.split("\n")[0]!);
      });
      child.once("exit", (code) => reject(new Error(`npx emulator exited ${code}: ${stderr}`)));
    });
    return {
      line: JSON.parse(first) as { url: string; rpcUrl: string | null; keys: { key: string; kind: string }[] },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

describe("the chain loads only when a chain is asked for", () => {
  // A fresh Node: import the package entry, run an in-process emulator, and list the Hardhat modules
  // loaded; then load the in-process network (the control: the probe sees Hardhat when it is there).
  const probe = (withChain: boolean) => {
    const script = `import { createRequire } from "node:module";
const { createEmulator } = await import(${JSON.stringify(join(ROOT, "emulator", "index.ts"))});
const emu = await createEmulator({ clock: "manual" });
const res = await emu.fetch("/api/v1/pokemon/cards/base1-4", { headers: { "X-API-Key": emu.key("demo") } });
await emu.close();
if (${withChain}) await (await import(${JSON.stringify(join(ROOT, "chain", "provider.ts"))})).createInProcessProvider(Date.now());
const hardhat = Object.keys(createRequire(import.meta.url).cache).filter((k) => /node_modules\\/(hardhat|@nomicfoundation)\\//.test(k));
console.log(JSON.stringify({ status: res.status, hardhat: hardhat.length > 0 }));
`;
    const out = run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], ROOT);
    return JSON.parse(out.stdout.trim().split("\n").at(-1)!) as { status: number; hardhat: boolean };
  };

  it("an in-process emulator loads no Hardhat module", () => {
    expect(probe(false)).toEqual({ status: 200, hardhat: false });
    expect(probe(true)).toEqual({ status: 200, hardhat: true });
  });
});

/**
 * Runs `body` (an ES module's text) in a fresh Node from the checkout, with an ESM resolve hook that logs every
 * resolved module whose URL matches `watch`; returns the body's last stdout line (JSON) and the URLs logged.
 * `tsx` runs it over the sources (a control beside dist/).
 */
function withResolveLog(
  body: string,
  watch: RegExp,
  tsx = false,
): { out: Record<string, unknown>; resolved: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "cardos-resolve-"));
  try {
    const log = join(dir, "resolved.log");
    writeFileSync(log, "");
    writeFileSync(
      join(dir, "hooks.mjs"),
      `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  if (${watch.toString()}.test(found.url)) appendFileSync(${JSON.stringify(log)}, found.url + "\\n");
  return found;
}`,
    );
    const script = `import { register } from "node:module";
import { pathToFileURL } from "node:url";
register(pathToFileURL(${JSON.stringify(join(dir, "hooks.mjs"))}));
${body}`;
    const res = run(process.execPath, [...(tsx ? ["--import", "tsx"] : []), "--input-type=module", "-e", script], ROOT);
    return {
      out: JSON.parse(res.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>,
      resolved: readFileSync(log, "utf8").split("\n").filter(Boolean),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the chain's viem (docs/chain.md \"The chain's viem\")", () => {
  // A fresh Node starts a chain, makes a call that fails and reads a balance through the gateway's client;
  // the resolve hook logs every module of viem's package resolved, and require.cache shows its CommonJS
  // build. From dist/ the chain runs on dist/chain/viem.cjs alone; from the sources (the control) on viem.
  const probe = (from: "dist" | "sources") => {
    const chainEntry = from === "dist" ? join(ROOT, "dist", "chain", "index.js") : join(ROOT, "chain", "index.ts");
    const { out, resolved } = withResolveLog(
      `import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { startChain } = await import(${JSON.stringify(chainEntry)});
const at = Date.UTC(2025, 0, 1);
const chain = await startChain({ seed: 1, startTime: at, now: () => at, rpcPort: false });
const abi = [{ type: "function", name: "nope", inputs: [], outputs: [{ type: "uint256" }], stateMutability: "view" }];
const error = await chain.publicClient.readContract({ address: chain.addresses.stablecoin, abi, functionName: "nope" }).then(() => null, (e) => e);
const balance = await chain.publicClient.getBalance({ address: chain.operator.address });
await chain.close();
const bundle = ${from === "dist"} ? require(${JSON.stringify(join(ROOT, "dist", "chain", "viem.cjs"))}) : null;
console.log(JSON.stringify({
  error: error?.name ?? null,
  bundleError: bundle ? error instanceof bundle.BaseError : null,
  bundleVersion: bundle?.VIEM_VERSION ?? null,
  funded: balance > 0n,
  viemCjs: Object.keys(require.cache).filter((k) => /node_modules\\/viem\\//.test(k)).length,
}));`,
      /\/node_modules\/viem\//,
      from === "sources",
    );
    return { ...out, viemEsm: resolved.length };
  };

  it("a chain from dist/ runs on the build's one-file viem: none of viem's modules load, its errors are the bundle's", () => {
    expect(probe("dist")).toEqual({
      error: "ContractFunctionExecutionError",
      bundleError: true,
      bundleVersion: version("viem"),
      funded: true,
      viemCjs: 0,
      viemEsm: 0,
    });
    // The control: the same probe sees viem's own modules when the chain runs from the sources.
    const sources = probe("sources");
    expect(sources).toMatchObject({ error: "ContractFunctionExecutionError", funded: true });
    expect(sources.viemEsm).toBeGreaterThan(100);
  });
});

describe("the build's precomputed catalog (emulator/catalog-data/catalog-source.ts)", () => {
  it("is the one the default seed's generator makes, value for value", () => {
    const { out } = withResolveLog(
      `import { isDeepStrictEqual } from "node:util";
const { precomputedCatalog } = await import(${JSON.stringify(join(ROOT, "dist", "emulator", "catalog-data", "catalog-source.js"))});
const { buildCatalog } = await import(${JSON.stringify(join(ROOT, "dist", "fixtures", "catalog", "index.js"))});
const read = precomputedCatalog(1, "default");
const shipped = read ? read() : null;
const built = buildCatalog({ seed: 1, size: "default" });
console.log(JSON.stringify({ shipped: shipped !== null, cards: shipped?.cards.length ?? 0, equal: isDeepStrictEqual(shipped, built) }));`,
      /^$/,
    );
    expect(out.shipped).toBe(true);
    expect(out.cards).toBeGreaterThan(2000);
    expect(out.equal).toBe(true);
  });

  it("an emulator of the default seed from dist/ serves its catalog without loading faker; another seed loads it", () => {
    const serve = (seed: number) =>
      withResolveLog(
        `const { createEmulator } = await import(${JSON.stringify(join(ROOT, "dist", "emulator", "index.js"))});
const emu = await createEmulator({ seed: ${seed}, clock: "manual" });
const res = await emu.fetch("/api/v1/pokemon/cards/base1-4", { headers: { "X-API-Key": emu.key("demo") } });
const body = await res.json();
await emu.close();
console.log(JSON.stringify({ status: res.status, name: body.data?.name ?? null }));`,
        /\/node_modules\/@faker-js\//,
      );
    const seeded = serve(1);
    expect(seeded.out).toEqual({ status: 200, name: "Charizard" });
    expect(seeded.resolved).toEqual([]);
    // The control: another seed is generated, with faker.
    const other = serve(2);
    expect(other.out).toEqual({ status: 200, name: "Charizard" });
    expect(other.resolved.length).toBeGreaterThan(0);
  });
});
