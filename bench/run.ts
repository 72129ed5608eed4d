/**
 * Catalog throughput and latency against reference servers, driven by
 * autocannon (keep-alive, N connections) from this process. Each case runs
 * its baseline (a same-payload Hono app serving the emulator's own bytes) and
 * the emulator in alternation, several rounds, and prints the median ratio.
 * The load generator's own ceiling (a constant answer from plain node:http)
 * is printed first, so it is plain whether the generator or a server is the
 * bottleneck.
 *
 *   npm run bench [-- --duration 5 --connections 50 --rounds 3 --warmup 2 --large]
 *   npm run bench -- commerce [--duration 3 --rounds 3 --only mystery,custodial,custodial-goal,instant,redemption,webhooks,restart]
 *   npm run bench -- test-runner [--rounds 3 --chain]
 *   npm run bench -- startup [--rounds 5 --no-chain --no-tsc]
 *   npm run bench -- request [--rounds 30 --calls 200]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { loadKey } from "./load-key.ts";

// `npm run bench -- commerce [flags]`: the chain-backed commerce paths (bench/commerce.ts) instead.
if (process.argv[2] === "commerce") {
  await import("./commerce.ts");
  await new Promise(() => {}); // commerce.ts exits the process when done
}
// `npm run bench -- test-runner [--rounds 3 --chain]`: the test-runner patterns (bench/test-runner.ts) instead.
if (process.argv[2] === "test-runner") {
  await import("./test-runner.ts");
  process.exit(0);
}

// `npm run bench -- startup [flags]`: import, create, first request and tsc costs (bench/startup.ts) instead.
if (process.argv[2] === "startup") {
  await import("./startup.ts");
  process.exit(0);
}

// `npm run bench -- request [flags]`: steady-state in-process request costs (bench/request.ts) instead.
if (process.argv[2] === "request") {
  await import("./request.ts");
  process.exit(0);
}

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "50" },
    rounds: { type: "string", default: "3" },
    warmup: { type: "string", default: "2" },
    large: { type: "boolean", default: false },
  },
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Number(values.rounds);
const WARMUP = Number(values.warmup);
const root = join(import.meta.dirname, "..");

interface Server {
  child: ChildProcess;
  url: string;
  line: Record<string, unknown>;
  ms: number;
}

async function start(args: string[]): Promise<Server> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}`)));
  });
  const parsed = JSON.parse(line) as Record<string, unknown>;
  return { child, url: String(parsed.url), line: parsed, ms: performance.now() - t0 };
}

const reference = (kind: string, ...rest: string[]) => start(["--import", "tsx", "bench/servers.ts", kind, ...rest]);

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(
  url: string,
  paths: string[],
  headers: Record<string, string>,
  duration = DURATION,
): Promise<Measure> {
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    headers,
    requests: paths.map((path) => ({ method: "GET", path })),
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

const fmt = (m: Measure) =>
  `${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50.toFixed(0).padStart(3)} ms  p99 ${m.p99.toFixed(0).padStart(3)} ms${m.errors || m.non2xx ? `  (${m.errors} errors, ${m.non2xx} non-2xx)` : ""}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  console.log(
    `autocannon: ${CONNECTIONS} connections, keep-alive, ${DURATION} s per run, ${ROUNDS} interleaved rounds per case after a ${WARMUP} s warm-up of each server\n`,
  );

  const ceiling = await reference("ceiling");
  console.log(`load generator ceiling (plain node:http constant)   ${fmt(await measure(ceiling.url, ["/"], {}))}`);
  ceiling.child.kill();
  const hello = await reference("hello");
  const helloM = await measure(hello.url, ["/"], {});
  console.log(`hono hello-world                                    ${fmt(helloM)}`);
  hello.child.kill();

  for (const catalog of values.large ? ["default", "large"] : ["default"]) {
    const emu = await start([
      "bin/emulator.js",
      "--json",
      "--port",
      "0",
      "--no-chain",
      "--catalog",
      catalog,
      "--ip-rate-limit",
      "100000000",
    ]);
    console.log(`\nemulator --catalog ${catalog}: ready in ${emu.ms.toFixed(0)} ms (process start to the --json line)`);
    const key = await loadKey(emu.url);
    const headers = { "x-api-key": key };
    const cases: [string, string[]][] = [
      [
        "GET /pokemon/cards/{id}",
        [
          "/api/v1/pokemon/cards/base1-4",
          "/api/v1/pokemon/cards/sv3pt5-6",
          "/api/v1/pokemon/cards/swsh7-215?include=prices",
        ],
      ],
      [
        "GET /pokemon/cards?page_size=20",
        ["/api/v1/pokemon/cards?page_size=20", "/api/v1/pokemon/cards?page_size=20&page=3"],
      ],
      ["GET /pokemon/cards?q=name:char*", ["/api/v1/pokemon/cards?q=name:char*&page_size=20"]],
    ];
    // The same bytes the emulator answers, for the same-payload baseline.
    const payload: Record<string, string> = {};
    for (const [, paths] of cases)
      for (const p of paths) payload[p] = await (await fetch(emu.url + p, { headers })).text();
    const file = join(mkdtempSync(join(tmpdir(), "bench-")), "payload.json");
    writeFileSync(file, JSON.stringify(payload));
    const same = await reference("same-payload", file);

    for (const [name, paths] of cases) {
      const base: Measure[] = [];
      const subj: Measure[] = [];
      // Both servers warm up on the case first (JIT, caches), unmeasured, so round one is not a cold start.
      if (WARMUP > 0) for (const url of [same.url, emu.url]) await measure(url, paths, headers, WARMUP);
      for (let round = 0; round < ROUNDS; round++) {
        base.push(await measure(same.url, paths, headers));
        subj.push(await measure(emu.url, paths, headers));
      }
      const ratio = median(subj.map((s, i) => s.rps / base[i]!.rps));
      const b = base[base.length - 1]!;
      const s = subj[subj.length - 1]!;
      console.log(`  ${name}`);
      console.log(`    same-payload hono  ${fmt(b)}`);
      console.log(`    emulator           ${fmt(s)}`);
      // p99 as the median of the rounds' p99s: one round's tail moves by a whole millisecond at these rates.
      const p99 = (ms: Measure[]) => median(ms.map((m) => m.p99));
      console.log(
        `    throughput ratio (median of ${ROUNDS}) ${ratio.toFixed(2)}; p99 (median of ${ROUNDS}) ${p99(subj).toFixed(1)} vs ${p99(base).toFixed(1)} ms; vs hello-world ${(s.rps / helloM.rps).toFixed(2)}`,
      );
    }
    same.child.kill();
    emu.child.kill("SIGINT");
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
