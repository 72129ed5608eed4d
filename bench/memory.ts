/**
 * Memory under sustained load: drives the emulator (no chain) with autocannon
 * at the bench's rate over a mix of catalog reads, and samples the server's RSS
 * once a second (from /proc). Prints RSS after the first minute and at the end,
 * and their difference (goal: within 50 MB after 10 minutes).
 *
 *   npx tsx bench/memory.ts [--minutes 10] [--connections 50]
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { loadKey } from "./load-key.ts";

const { values } = parseArgs({
  options: { minutes: { type: "string", default: "10" }, connections: { type: "string", default: "50" } },
});
const MINUTES = Number(values.minutes);
const root = join(import.meta.dirname, "..");

const rssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
};

async function main() {
  const child = spawn(
    process.execPath,
    ["bin/emulator.js", "--json", "--port", "0", "--no-chain", "--ip-rate-limit", "100000000"],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  const url = (JSON.parse(line) as { url: string }).url;
  const key = await loadKey(url);
  const samples: { t: number; rss: number }[] = [];
  const t0 = Date.now();
  const timer = setInterval(() => samples.push({ t: (Date.now() - t0) / 1000, rss: rssMb(child.pid!) }), 1000);
  const paths = [
    "/api/v1/pokemon/cards/base1-4",
    "/api/v1/pokemon/cards?page_size=20&page=2",
    "/api/v1/pokemon/cards?q=name:char*&page_size=20",
    "/api/v1/onepiece/cards/OP01-016",
    "/api/v1/nope",
  ];
  const r = await autocannon({
    url,
    connections: Number(values.connections),
    duration: MINUTES * 60,
    headers: { "x-api-key": key },
    requests: paths.map((path) => ({ method: "GET", path })),
  });
  clearInterval(timer);
  child.kill("SIGINT");
  const at = (s: number) => samples.reduce((best, x) => (Math.abs(x.t - s) < Math.abs(best.t - s) ? x : best));
  const first = at(60);
  const last = samples[samples.length - 1]!;
  const peak = Math.max(...samples.map((s) => s.rss));
  console.log(
    `${r.requests.total} requests in ${MINUTES} min (${r.requests.average.toFixed(0)} req/s, ${r.non2xx} non-2xx by design: one path is unknown)`,
  );
  console.log(
    `RSS after 1 min ${first.rss.toFixed(1)} MB; at the end ${last.rss.toFixed(1)} MB; peak ${peak.toFixed(1)} MB`,
  );
  console.log(`growth from minute 1 to the end: ${(last.rss - first.rss).toFixed(1)} MB (goal: within 50 MB)`);
  for (const m of [1, 2, 5, MINUTES].filter((m, i, a) => m <= MINUTES && a.indexOf(m) === i))
    console.log(`  ${String(m).padStart(2)} min  ${at(m * 60).rss.toFixed(1)} MB`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
