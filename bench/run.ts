/**
 * Catalog benchmarks (issue 2): GET throughput and p50/p99 latency against a
 * bare @hono/node-server hello-world on the same machine, printed as a ratio,
 * for the default and the large catalog; and the time from `npx emulator` to ready.
 *
 *   npm run bench [-- --duration 5000 --concurrency 50]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { load, type LoadResult } from "./load.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const DURATION = arg("duration", 5000);
const CONCURRENCY = arg("concurrency", 50);
const root = join(import.meta.dirname, "..");

async function start(cmd: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; line: Record<string, unknown>; ms: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, cmd, { cwd: root, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${cmd.join(" ")} exited ${code}`)));
  });
  return { child, line: JSON.parse(line), ms: performance.now() - t0 };
}

const fmt = (r: LoadResult) => `${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  (${r.requests} requests, ${r.errors} errors)`;

async function main() {
  console.log(`concurrency ${CONCURRENCY}, ${DURATION} ms per run\n`);
  const hello = await start(["--import", "tsx", "bench/hello.ts"]);
  const base = await load(String(hello.line.url), ["/"], {}, CONCURRENCY, DURATION);
  console.log(`baseline hono hello-world      ${fmt(base)}`);
  hello.child.kill();

  for (const catalog of ["default", "large"]) {
    const emu = await start(["bin/emulator.js", "--json", "--port", "0", "--no-chain", "--catalog", catalog, "--ip-rate-limit", "100000000"]);
    console.log(`\nemulator --catalog ${catalog}: ready in ${emu.ms.toFixed(0)} ms (process start to the --json line)`);
    const url = String(emu.line.url);
    const created = await fetch(`${url}/_emulator/keys`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ kind: "legacy", rate_limit_per_min: 100_000_000 }) });
    const key = (await created.json()).data.key as string;
    const headers = { "x-api-key": key };
    const cases: [string, string[]][] = [
      ["GET /pokemon/cards/{id}", ["/api/v1/pokemon/cards/base1-4", "/api/v1/pokemon/cards/sv3pt5-6", "/api/v1/pokemon/cards/swsh7-215?include=prices"]],
      ["GET /pokemon/cards?page_size=20", ["/api/v1/pokemon/cards?page_size=20", "/api/v1/pokemon/cards?page_size=20&page=3"]],
      ["GET /pokemon/cards?q=name:char*", ["/api/v1/pokemon/cards?q=name:char*&page_size=20"]],
    ];
    for (const [name, paths] of cases) {
      const r = await load(url, paths, headers, CONCURRENCY, DURATION);
      console.log(`  ${name.padEnd(32)} ${fmt(r)}  ratio ${(r.rps / base.rps).toFixed(2)}`);
    }
    emu.child.kill("SIGINT");
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
