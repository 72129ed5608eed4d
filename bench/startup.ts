/**
 * Start-up costs a partner's suite pays, each beside a baseline measured in the same run: every
 * figure comes from a fresh `node` child (so module loading is cold, as in a test worker), cases
 * interleaved round by round, medians of N printed. Runs from `dist/` (`npm run build` first).
 *
 *   npm run bench -- startup [--rounds 5] [--no-chain] [--no-tsc]
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "startup"),
  options: {
    rounds: { type: "string", default: "5" },
    "no-chain": { type: "boolean", default: false },
    "no-tsc": { type: "boolean", default: false },
  },
});
const ROUNDS = Number(values.rounds);
const ROOT = join(import.meta.dirname, "..");
const DIST = join(ROOT, "dist");
const scratch = mkdtempSync(join(tmpdir(), "bench-startup-"));

/** Runs `script` (an ES module) in a fresh node from the repo root; its last stdout line is a JSON object of ms figures. */
function child(script: string, env: Record<string, string> = {}): Record<string, number> {
  const res = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  if (res.status !== 0) throw new Error(`child exited ${res.status}:\n${res.stderr}`);
  return JSON.parse(res.stdout.trim().split("\n").at(-1)!) as Record<string, number>;
}

/**
 * `args` run by a fresh node, timed by this process from spawn until a stdout line containing `until`; the
 * child is then stopped. Also the child's own figures when that line says `ready in N ms` (the banner).
 */
async function spawnUntil(args: string[], until: string): Promise<Record<string, number>> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (l) => l.includes(until) && resolve(l));
    void exited.then(() => reject(new Error(`${args.join(" ")} exited before "${until}":\n${stderr}`)));
  });
  const ms = performance.now() - t0;
  // The child's CPU time so far (Linux: user + system clock ticks of 10 ms in /proc/<pid>/stat).
  let cpu = NaN;
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    cpu = (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    // not Linux
  }
  child.kill("SIGTERM");
  await exited;
  const banner = /ready in (\d+) ms from process start \((\d+) ms loading/.exec(line);
  return banner ? { ms, cpu, banner: Number(banner[1]), loading: Number(banner[2]) } : { ms, cpu };
}

// The emulator's routes (API and control), so the bare-Hono baseline registers as many with the same paths,
// and the card's answer, so the Response baseline reads the same bytes.
const CARD = "/api/v1/pokemon/cards/base1-4";
const probe = child(`
  const app = await import(${JSON.stringify(join(DIST, "emulator/app.js"))});
  const { createEmulator } = await import(${JSON.stringify(join(DIST, "emulator/index.js"))});
  const emu = await createEmulator();
  const key = emu.keys.find((k) => k.name === "demo").key;
  const body = await (await emu.fetch(${JSON.stringify(CARD)}, { headers: { "x-api-key": key } })).text();
  await emu.close();
  console.log(JSON.stringify({ body, routes: [...app.apiRoutes.map((r) => [r.method, "/api/v1" + r.path]),
    ...app.controlRoutes.map((r) => [r.method, "/_emulator" + r.path])] }));`) as unknown as {
  body: string;
  routes: [string, string][];
};
const routes = probe.routes;
const routesFile = join(scratch, "routes.json");
writeFileSync(routesFile, JSON.stringify(routes));
const bodyFile = join(scratch, "card.json");
writeFileSync(bodyFile, probe.body);

const t = "const now = () => performance.now();";
// Wall time, and the process's CPU time over the same span (steadier when other jobs hold the cores).
const cpu = `const c = process.cpuUsage(c0); console.log(JSON.stringify({ ms: now() - t0, cpu: (c.user + c.system) / 1000 }));`;
const emulatorJs = JSON.stringify(join(DIST, "emulator/index.js"));
// A child's CPU time (user + system) in ms, from a process.cpuUsage() difference.
const CPU_MS = "((c) => (c.user + c.system) / 1000)";
// Each case: a subject and its baseline, both one child per round.
// A child's closing lines: `fn` timed twice (first and second in the process), wall and CPU, printed as JSON.
const twoStarts = (fn: string) => `const span = async (f) => { const t0 = now(), c0 = process.cpuUsage(); await f();
        const c = process.cpuUsage(c0); return [now() - t0, (c.user + c.system) / 1000]; };
      const [first, firstCpu] = await span(${fn}); const [second, secondCpu] = await span(${fn});
      console.log(JSON.stringify({ first, second, firstCpu, secondCpu }));`;
const chainJs = JSON.stringify(join(DIST, "chain/index.js"));
const providerJs = JSON.stringify(join(DIST, "chain/provider.js"));
const bareNetwork = `${t} const { createInProcessProvider } = await import(${providerJs});
      const start = async () => { const p = await createInProcessProvider(Date.UTC(2025, 0, 1));
        await p.request({ method: "eth_blockNumber", params: [] }); };
      ${twoStarts("start")}`;
// The floor under a chain from the cache: the bare network, then the cached deployment's entries sent straight to
// it (each transaction's block time pinned first, as the chain pins it), nothing of the emulator around them.
const deployCacheJs = JSON.stringify(join(DIST, "chain/deploy-cache.js"));
const tiersJs = JSON.stringify(join(DIST, "chain/tiers.js"));
const instantJs = JSON.stringify(join(DIST, "chain/instant.js"));
const bareReplay = `${t} const { createInProcessProvider } = await import(${providerJs});
      const { DeployCache, deployCacheKey } = await import(${deployCacheJs});
      const { DEFAULT_GROUPS, DEFAULT_TIERS } = await import(${tiersJs});
      const { DEFAULT_PACKET_TYPES } = await import(${instantJs});
      const at = Math.floor(Date.UTC(2025, 0, 1) / 1000);
      // The key loads Hardhat (its versions are part of it), as startChain's own first start does: inside the span.
      const start = async () => {
        const cached = new DeployCache().load(deployCacheKey({ groups: DEFAULT_GROUPS, tiers: DEFAULT_TIERS, packetTypes: DEFAULT_PACKET_TYPES }));
        if (!cached) throw new Error("no cached deployment on disk: run a chain once first");
        const p = await createInProcessProvider(Date.UTC(2025, 0, 1));
        for (const [method, params] of cached.entries) {
          if (method === "eth_sendRawTransaction") await p.request({ method: "evm_setNextBlockTimestamp", params: [at] });
          await p.request({ method, params });
        }
        if (Number(await p.request({ method: "eth_blockNumber", params: [] })) !== cached.block) throw new Error("replay ended elsewhere");
      };
      ${twoStarts("start")}`;
// startChain alone (no emulator around it): what the chain's own start costs beside the bare network's.
const startChainScript = `${t} const { startChain } = await import(${chainJs});
      const go = async () => { const c = await startChain({ seed: 1, startTime: Date.UTC(2025, 0, 1), now: () => Date.UTC(2025, 0, 1), rpcPort: false }); await c.close(); };
      ${twoStarts("go")}`;
const cases: {
  name: string;
  subject: string;
  baseline: string;
  baseName: string;
  skip?: boolean;
  subjectEnv?: Record<string, string>;
}[] = [
  {
    name: 'import("cardos-emulator")',
    baseName: 'import("msw") alone',
    subject: `${t} const t0 = now(), c0 = process.cpuUsage(); await import("cardos-emulator"); ${cpu}`,
    baseline: `${t} const t0 = now(), c0 = process.cpuUsage(); await import("msw"); ${cpu}`,
  },
  {
    // The import loads the emulator's modules with the first create (emulator/public.ts), so this is the row
    // a suite pays before its first request: both spans, against msw's import and a bare Hono app.
    name: 'import("cardos-emulator") + its first createEmulator(), no chain',
    baseName: 'import("msw") + import("hono") + a bare Hono app of the same routes',
    subject: `${t} const t0 = now(), c0 = process.cpuUsage(); const { createEmulator } = await import("cardos-emulator");
      const emu = await createEmulator(); ${cpu} await emu.close();`,
    baseline: `${t} const { readFileSync } = await import("node:fs");
      const routes = JSON.parse(readFileSync(${JSON.stringify(routesFile)}, "utf8"));
      const t0 = now(), c0 = process.cpuUsage(); await import("msw"); const { Hono } = await import("hono");
      const app = new Hono(); for (const [m, p] of routes) app.on(m, p.replace(/\\{(\\w+)\\}/g, ":$1"), (c) => c.json({ ok: true }));
      ${cpu}`,
  },
  {
    name: "createEmulator(), no chain: first | second in the process",
    baseName: `bare Hono app, ${routes.length} routes: first | second`,
    subject: `${t} const { createEmulator } = await import(${emulatorJs});
      let t0 = now(), c0 = process.cpuUsage(); const a = await createEmulator(); const first = now() - t0, c1 = process.cpuUsage(c0);
      t0 = now(); c0 = process.cpuUsage(); const b = await createEmulator(); const second = now() - t0, c2 = process.cpuUsage(c0);
      await a.close(); await b.close();
      console.log(JSON.stringify({ first, second, cpuFirst: ${CPU_MS}(c1), cpuSecond: ${CPU_MS}(c2) }));`,
    baseline: `${t} const { Hono } = await import("hono");
      const { readFileSync } = await import("node:fs");
      const routes = JSON.parse(readFileSync(${JSON.stringify(routesFile)}, "utf8"));
      const build = () => { const app = new Hono();
        for (const [m, p] of routes) app.on(m, p.replace(/\\{(\\w+)\\}/g, ":$1"), (c) => c.json({ ok: true }));
        return app; };
      let t0 = now(), c0 = process.cpuUsage(); build(); const first = now() - t0, c1 = process.cpuUsage(c0);
      t0 = now(); c0 = process.cpuUsage(); build(); const second = now() - t0, c2 = process.cpuUsage(c0);
      console.log(JSON.stringify({ first, second, cpuFirst: ${CPU_MS}(c1), cpuSecond: ${CPU_MS}(c2) }));`,
  },
  {
    name: `first emu.fetch GET ${CARD} (body read)`,
    baseName: "new Response(same bytes).text()",
    subject: `${t} const { createEmulator } = await import(${emulatorJs});
      const emu = await createEmulator(); const key = emu.keys.find((k) => k.name === "demo").key;
      const t0 = now(); const res = await emu.fetch(${JSON.stringify(CARD)}, { headers: { "x-api-key": key } });
      const body = await res.text(); const ms = now() - t0;
      if (res.status !== 200) throw new Error("status " + res.status);
      const t1 = now(); await emu.fetch(${JSON.stringify(CARD)}, { headers: { "x-api-key": key } }).then((r) => r.text());
      const second = now() - t1;
      await emu.close(); console.log(JSON.stringify({ ms, second, bytes: body.length }));`,
    baseline: `${t} const { readFileSync } = await import("node:fs"); const body = readFileSync(${JSON.stringify(bodyFile)}, "utf8");
      // Node loads its fetch classes on first use; the emulator's child has by then, so this one does too.
      await new Response("").text();
      const t0 = now(); const res = new Response(body, { headers: { "content-type": "application/json" } });
      await res.text(); const ms = now() - t0;
      const t1 = now(); await new Response(body).text(); const second = now() - t1;
      console.log(JSON.stringify({ ms, second }));`,
  },
  {
    name: "createEmulator({ chain: true }): first | second in the process",
    baseName: "bare Hardhat network (EDR provider, one eth_blockNumber): first | second",
    skip: values["no-chain"],
    subject: `${t} const { createEmulator } = await import(${emulatorJs});
      let t0 = now(); const a = await createEmulator({ chain: true }); const first = now() - t0; await a.close();
      t0 = now(); const b = await createEmulator({ chain: true }); const second = now() - t0; await b.close();
      console.log(JSON.stringify({ first, second }));`,
    baseline: bareNetwork,
  },
  {
    name: "startChain, deployment cached (disk, then memory): first | second in the process",
    baseName: "bare Hardhat network (same script as above): first | second",
    skip: values["no-chain"],
    subject: startChainScript,
    baseline: bareNetwork,
  },
  {
    name: "startChain, deployment cached, again: first | second (beside its floor)",
    baseName: "floor: bare network + the cached transactions sent straight to it: first | second",
    skip: values["no-chain"],
    subject: startChainScript,
    baseline: bareReplay,
  },
  {
    name: "startChain, no cache (CARDOS_EMULATOR_DEPLOY_CACHE=0, deploys): first | second",
    baseName: "bare Hardhat network (same script as above): first | second",
    skip: values["no-chain"],
    subject: startChainScript,
    subjectEnv: { CARDOS_EMULATOR_DEPLOY_CACHE: "0" },
    baseline: bareNetwork,
  },
];

// `npx cardos-emulator` with the chain, spawn to the banner line, beside a child that loads the same modules
// (the CLI's, the chain's) and starts the bare network, spawn to its line. From dist/ (bin/emulator.js runs it).
const cliModules = [
  "cli/launch.js",
  "cli/banner.js",
  "cli/request-line.js",
  "cli/commands.js",
  "cli/exec.js",
  "cli/trigger.js",
  "cli/world.js",
  "emulator/ui/journal.js",
  "harness/cli-args.js",
  "harness/output-file.js",
  "emulator/pipeline/address-policy.js",
  "chain/index.js",
].map((m) => JSON.stringify(join(DIST, m)));
const cliBaseline = `${cliModules.map((m) => `await import(${m});`).join(" ")}
  const { createInProcessProvider } = await import(${providerJs});
  const p = await createInProcessProvider(Date.now()); await p.request({ method: "eth_blockNumber", params: [] });
  console.log("network ready"); setInterval(() => {}, 1000);`;
const cliCase = {
  name: "node bin/emulator.js (chain, dist/): spawn to the banner line  [banner's own figure, its loading part]",
  baseName: "a node loading the same modules + the bare network: spawn to its line",
  subject: () => spawnUntil(["bin/emulator.js", "--port", "0", "--rpc-port", "0", "--quiet"], "ready in"),
  baseline: () => spawnUntil(["--input-type=module", "-e", cliBaseline], "network ready"),
};

// tsc: a partner's strict NodeNext check of a file using the package, against one using msw alone.
function tscProject(name: string, source: string): string {
  const dir = join(scratch, name);
  mkdirSync(join(dir, "node_modules", "@types"), { recursive: true });
  symlinkSync(ROOT, join(dir, "node_modules", "cardos-emulator"));
  symlinkSync(join(ROOT, "node_modules", "msw"), join(dir, "node_modules", "msw"));
  symlinkSync(join(ROOT, "node_modules", "@types", "node"), join(dir, "node_modules", "@types", "node"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ["node"],
      },
      files: ["index.ts"],
    }),
  );
  writeFileSync(join(dir, "index.ts"), source);
  return dir;
}
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
function tsc(dir: string): { ms: number; cpu: number } {
  const t0 = performance.now();
  // tsc in a node that prints its own CPU time (user + system) as it exits: steadier than wall time on a busy machine.
  const run = `process.on("exit", () => { const c = process.cpuUsage(); process.stderr.write("\\ncpu " + (c.user + c.system) / 1000); });
    process.argv = [process.argv[0], ${JSON.stringify(TSC)}, "-p", ${JSON.stringify(dir)}];
    await import(${JSON.stringify(pathToFileURL(TSC).href)});`;
  const res = spawnSync(process.execPath, ["--input-type=module", "-e", run], { encoding: "utf8" });
  const ms = performance.now() - t0;
  const cpu = Number(/\ncpu ([\d.]+)$/.exec(res.stderr)?.[1]);
  if (res.status !== 0 || !Number.isFinite(cpu)) throw new Error(`tsc in ${dir}:\n${res.stdout}${res.stderr}`);
  return { ms, cpu };
}
const tscSubject = tscProject(
  "subject",
  `import { createEmulator } from "cardos-emulator";\nconst emu = await createEmulator();\nconst res = await emu.fetch("/api/v1/health");\nconsole.log(res.status, emu.handlers.length);\nawait emu.close();\n`,
);
const tscBaseline = tscProject(
  "baseline",
  `import { http, HttpResponse } from "msw";\nconst h = http.get("http://x/api/v1/health", () => HttpResponse.json({ ok: true }));\nconsole.log(h.info.path);\n`,
);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
const samples = new Map<string, Record<string, number[]>>();
const push = (label: string, r: Record<string, number>) => {
  const s = samples.get(label) ?? {};
  for (const [k, v] of Object.entries(r)) (s[k] ??= []).push(v);
  samples.set(label, s);
};

// The cached deployment of this dist/ on disk (node_modules/.cache/cardos-emulator), as after any first run.
if (!values["no-chain"]) child(startChainScript);

console.log(`start-up: ${ROUNDS} interleaved rounds, each figure from a fresh node child, dist/ (${DIST})\n`);
for (let round = 0; round < ROUNDS; round++) {
  for (const c of cases) {
    if (c.skip) continue;
    // Alternate which goes first, so neither always runs right after the other's disk and CPU work.
    const order = round % 2 ? [c.baseline, c.subject] : [c.subject, c.baseline];
    for (const script of order)
      push(script === c.subject ? c.name : c.baseName, child(script, script === c.subject ? (c.subjectEnv ?? {}) : {}));
  }
  if (!values["no-chain"]) {
    const order = round % 2 ? [cliCase.baseline, cliCase.subject] : [cliCase.subject, cliCase.baseline];
    for (const run of order) push(run === cliCase.subject ? cliCase.name : cliCase.baseName, await run());
  }
  if (!values["no-tsc"]) {
    push("tsc --noEmit, strict NodeNext, a file using cardos-emulator", tsc(tscSubject));
    push("tsc --noEmit, same settings, a file using msw alone", tsc(tscBaseline));
  }
  process.stdout.write(`round ${round + 1}/${ROUNDS} done\n`);
}

console.log(`\nmedians of ${ROUNDS} (range in brackets), ms:`);
for (const [label, s] of samples) {
  const figures = Object.entries(s)
    .filter(([k]) => k !== "bytes")
    .map(([k, xs]) => `${k} ${median(xs).toFixed(1)} [${range(xs)}]`)
    .join("  ");
  console.log(`  ${label.padEnd(76)} ${figures}${s.bytes ? `  (${s.bytes[0]} bytes)` : ""}`);
}
rmSync(scratch, { recursive: true, force: true });
