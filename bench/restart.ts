/**
 * Restart cost of a state with the chain in it: builds a state with N purchases (default 1,000)
 * the way partners make them (prepare → the user signs approve + purchase → submit → VRF reveal,
 * the clock moving between purchases), then measures the export (size, serialise, write-through)
 * and a restart from it (the chain rebuilt by replaying its journal) against a fresh start.
 *
 *   npx tsx bench/restart.ts [purchases=1000]
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator, type Emulator } from "../emulator/index.ts";
import { startChain } from "../chain/index.ts";
import { writeFileAtomic } from "../emulator/state/state-file.ts";

const N = Number(process.argv[2] ?? 1000);
const ms = (t0: number) => `${(performance.now() - t0).toFixed(0)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

async function api(emu: Emulator, method: string, path: string, key: string | null, body?: unknown) {
  const res = await emu.fetch(path, {
    method,
    headers: { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: any };
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const chainOpts = { rpcPort: false as const, vrf: "manual" as const };
let t0 = performance.now();
const emu = await createEmulator({ seed: 1, clock: "manual", chain: chainOpts });
const freshStart = performance.now() - t0;
const chain = emu.chain!;
const keys = [emu.key("demo"), emu.key("revenue-share")];

let last = { id: "", key: "" };
t0 = performance.now();
for (let i = 0; i < N; i++) {
  const user = chain.endUsers[i % chain.endUsers.length]!;
  const key = keys[i % 2]!;
  const prep = await api(emu, "POST", "/api/v1/mystery/purchase/prepare", key, {
    wallet_address: user.address,
    tier_id: 1,
  });
  const wallet = chain.walletClientFor(user);
  let hash: `0x${string}` = "0x";
  for (const c of prep.calls as Array<{ to: `0x${string}`; data: `0x${string}` }>) {
    hash = await wallet.sendTransaction({ to: c.to, data: c.data, account: wallet.account, chain: chain.viemChain });
    await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 5 });
  }
  const sub = await api(emu, "POST", "/api/v1/mystery/purchase/submit", key, {
    wallet_address: user.address,
    tier_id: 1,
    transaction_hash: hash,
  });
  await api(emu, "POST", "/_emulator/vrf/fulfill", null, { request_id: sub.onchain_request_id });
  last = { id: sub.id, key };
  await emu.clock.advance(30_000);
  if ((i + 1) % 100 === 0) process.stderr.write(`  ${i + 1}/${N} purchases (${ms(t0)})\n`);
}
const buildTime = performance.now() - t0;

t0 = performance.now();
const doc = emu.exportState();
const exportTime = performance.now() - t0;
t0 = performance.now();
const text = JSON.stringify(doc);
const serialiseTime = performance.now() - t0;
const chainBytes = JSON.stringify(doc.chain).length;
const dir = mkdtempSync(join(tmpdir(), "emu-restart-"));
const file = join(dir, "state.json");
t0 = performance.now();
writeFileAtomic(file, text);
const writeTime = performance.now() - t0;
const head = doc.chain!.head;
await emu.close();

// The chain alone: a fresh network replaying the journal.
t0 = performance.now();
const replayed = await startChain({
  seed: 1,
  startTime: 0,
  rpcPort: false,
  restore: JSON.parse(readFileSync(file, "utf8")).chain,
});
const replayTime = performance.now() - t0;
await replayed.close();

// The whole emulator from the file (read, parse, replay, areas started).
t0 = performance.now();
const again = await createEmulator({ clock: "manual", chain: chainOpts, stateFile: file });
const restartTime = performance.now() - t0;
const block = await again.chain!.publicClient.getBlock();
if (block.hash !== head.hash) throw new Error("the restarted chain is not the exported one");
const lastPurchase = await api(again, "GET", `/api/v1/mystery/purchase/${last.id}`, last.key);
await again.close();
rmSync(dir, { recursive: true, force: true });

console.log(`state with ${N} purchases (built in ${(buildTime / 1000).toFixed(1)} s)`);
console.log(`  chain: ${doc.chain!.journal.length} journal entries, head block ${head.number}`);
console.log(
  `  export file: ${mb(statSync(file).size)} (chain ${mb(chainBytes)}, API state ${mb(text.length - chainBytes)})`,
);
console.log(
  `  export: ${exportTime.toFixed(1)} ms; serialise ${serialiseTime.toFixed(1)} ms; atomic write ${writeTime.toFixed(1)} ms`,
);
console.log(`  fresh start (deploy): ${freshStart.toFixed(0)} ms`);
console.log(
  `  chain replay alone: ${replayTime.toFixed(0)} ms (${((replayTime * 1000) / doc.chain!.journal.length).toFixed(0)} µs/entry)`,
);
console.log(`  restart from the file (createEmulator with stateFile): ${restartTime.toFixed(0)} ms`);
console.log(`  restored head ${block.number} = exported; the last purchase after the restart: ${lastPurchase.status}`);
