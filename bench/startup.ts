/**
 * Start-up costs a partner's suite pays, each beside a baseline measured in the same run: every
 * figure comes from a fresh `node` child (so module loading is cold, as in a test worker), cases
 * interleaved round by round, medians of N printed. Runs from `dist/` (`npm run build` first).
 *
 *   npm run bench -- startup [--rounds 5] [--no-chain] [--no-tsc]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
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
function child(script: string): Record<string, number> {
  const res = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`child exited ${res.status}:\n${res.stderr}`);
  return JSON.parse(res.stdout.trim().split("\n").at(-1)!) as Record<string, number>;
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
const cases: { name: string; subject: string; baseline: string; baseName: string; skip?: boolean }[] = [
  {
    name: 'import("cardos-emulator")',
    baseName: 'import("msw") alone',
    subject: `${t} const t0 = now(), c0 = process.cpuUsage(); await import("cardos-emulator"); ${cpu}`,
    baseline: `${t} const t0 = now(), c0 = process.cpuUsage(); await import("msw"); ${cpu}`,
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
    baseline: `${t} const { createInProcessProvider } = await import(${JSON.stringify(join(DIST, "chain/provider.js"))});
      const start = async () => { const p = await createInProcessProvider(Date.UTC(2025, 0, 1));
        await p.request({ method: "eth_blockNumber", params: [] }); };
      let t0 = now(); await start(); const first = now() - t0;
      t0 = now(); await start(); const second = now() - t0;
      console.log(JSON.stringify({ first, second }));`,
  },
];

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

console.log(`start-up: ${ROUNDS} interleaved rounds, each figure from a fresh node child, dist/ (${DIST})\n`);
for (let round = 0; round < ROUNDS; round++) {
  for (const c of cases) {
    if (c.skip) continue;
    // Alternate which goes first, so neither always runs right after the other's disk and CPU work.
    const order = round % 2 ? [c.baseline, c.subject] : [c.subject, c.baseline];
    for (const script of order) push(script === c.subject ? c.name : c.baseName, child(script));
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
