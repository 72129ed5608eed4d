/**
 * CPU time per request of each server process (utime + stime from /proc), for
 * the same requests: unlike throughput, it does not depend on whether the load
 * generator or another process holds the cores, so it compares the emulator
 * with its same-payload baseline even on a busy machine.
 *
 *   npx tsx bench/cpu.ts
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { createInterface } from "node:readline";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { loadKey } from "./load-key.ts";
const root = join(import.meta.dirname, "..");
const ticks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(f[11]) + Number(f[12]);
};
async function start(args: string[]) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((r) => createInterface({ input: child.stdout! }).once("line", r));
  return { child, url: JSON.parse(line).url as string };
}
async function cpu(url: string, pid: number, path: string, headers: Record<string, string>, amount: number) {
  await autocannon({ url, connections: 20, amount: 3000, headers, requests: [{ method: "GET", path }] });
  const t0 = ticks(pid);
  const r = await autocannon({ url, connections: 20, amount, headers, requests: [{ method: "GET", path }] });
  return ((ticks(pid) - t0) * 10_000) / r.requests.total; // µs per request (100 ticks/s)
}
const emu = await start(["bin/emulator.js", "--json", "--port", "0", "--no-chain", "--ip-rate-limit", "100000000"]);
const key = await loadKey(emu.url);
const headers = { "x-api-key": key };
const paths = ["/api/v1/pokemon/cards/base1-4", "/api/v1/pokemon/cards?page_size=20"];
const payload: Record<string, string> = {};
for (const p of paths) payload[p] = await (await fetch(emu.url + p, { headers })).text();
const file = join(mkdtempSync(join(tmpdir(), "cpu-")), "p.json");
writeFileSync(file, JSON.stringify(payload));
const same = await start(["--import", "tsx", "bench/servers.ts", "same-payload", file]);
for (const p of paths)
  for (let round = 0; round < 2; round++) {
    const b = await cpu(same.url, same.child.pid!, p, headers, 20000);
    const s = await cpu(emu.url, emu.child.pid!, p, headers, 20000);
    console.log(
      p.padEnd(40),
      `same-payload ${b.toFixed(0)} µs/req  emulator ${s.toFixed(0)} µs/req  ratio ${(b / s).toFixed(2)}`,
    );
  }
emu.child.kill();
same.child.kill();
process.exit(0);
