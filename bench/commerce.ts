/**
 * Commerce throughput against the chain's own limit (issue 25). One in-process emulator (manual clock, VRF
 * auto, chain in-process); every subject is interleaved with the baseline measured on the same node in the
 * same run: raw signed ERC-20 transfers per second (sign, eth_sendRawTransaction, receipt), one at a time,
 * as every flow below is (end to end, one after another). A purchase is several transactions, so each path
 * prints its transactions per operation (counted from the chain's journal) and the ratio
 * (ops/s × tx per op) / (raw transfers/s): 1.0 would mean the emulator adds nothing to the chain's own cost.
 * Then: webhook deliveries per second to a local receiver (against plain fetch POSTs to it), the journal
 * replay per 1,000 purchases, and the time for 300 in-flight reveals to land after a restart with a state file.
 *
 *   npm run bench -- commerce [--duration 3 --rounds 3 --inflight 300 --built 300 --only custodial-goal,…]
 *   npx tsx bench/commerce.ts [same flags]
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { encodeFunctionData, type Hex } from "viem";
import { mysteryPoolAbi, startChain, usdStablecoinAbi, vrfRequestIdsFromLogs } from "../chain/index.ts";
import type { Chain, FixtureAccount } from "../chain/index.ts";
import { createEmulator, type Emulator } from "../emulator/index.ts";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "commerce"),
  options: {
    duration: { type: "string", default: "3" },
    rounds: { type: "string", default: "3" },
    inflight: { type: "string", default: "300" },
    built: { type: "string", default: "300" },
    only: { type: "string" },
  },
});
const DURATION = Number(values.duration) * 1000;
const ROUNDS = Number(values.rounds);
const INFLIGHT = Number(values.inflight);
const BUILT = Number(values.built);
const only = values.only ? new Set(values.only.split(",")) : null;
const want = (name: string) => !only || only.has(name);

type Call = { to: `0x${string}`; data: Hex; kind?: string };
type Json = Record<string, any>;

type Headers = Record<string, string>;

async function api(
  emu: Emulator,
  method: string,
  path: string,
  key: string | null,
  body?: unknown,
  headers: Headers = {},
) {
  const res = await emu.fetch(path, {
    method,
    headers: { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: Json };
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json.data;
}

/** Signs and sends each call from `user`, one after another; the last receipt. */
async function send(chain: Chain, user: FixtureAccount, calls: Call[]) {
  const wallet = chain.walletClientFor(user);
  let receipt;
  for (const c of calls) {
    const tx = { to: c.to, data: c.data, account: wallet.account, chain: chain.viemChain };
    const hash = await wallet.sendTransaction(tx);
    receipt = await chain.publicClient.getTransactionReceipt({ hash }); // automine: mined when the send returns
    if (receipt.status !== "success") throw new Error(`${c.kind ?? "call"} to ${c.to} reverted`);
  }
  return receipt!;
}

// ---------------------------------------------------------------- measuring

interface Run {
  ops: number;
  ms: number;
  lat: number[];
  txs: number;
  /** CPU time of the whole process (the node's threads included), µs. */
  cpu: number;
}
const rate = (r: Run) => (r.ops * 1000) / r.ms;
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : NaN;
};
const median = (xs: number[]) => q(xs, 0.5);
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "—");
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "—");

/** Transactions the chain ran (journal entries that send one), for tx-per-op counts. */
function txCount(chain: Chain): number {
  const sends = new Set(["eth_sendRawTransaction", "eth_sendTransaction"]);
  return chain.exportState()!.journal.filter(([m]) => sends.has(m)).length;
}

/** Runs `op` back to back for `ms` of wall time (or until it returns false). */
async function timed(chain: Chain, ms: number, op: (i: number) => Promise<boolean | void>): Promise<Run> {
  const tx0 = txCount(chain);
  const lat: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; performance.now() - t0 < ms; i++) {
    const s = performance.now();
    if ((await op(i)) === false) break;
    lat.push(performance.now() - s);
  }
  const { user, system } = process.cpuUsage(cpu0);
  return { ops: lat.length, ms: performance.now() - t0, lat, txs: txCount(chain) - tx0, cpu: user + system };
}

interface Row {
  path: string;
  baseline: number;
  subject: number;
  txPerOp: number;
  ratio: number;
  p50: number;
  p99: number;
  ops: number;
}
const rows: Row[] = [];

/** Baseline and subject alternate, ROUNDS times; the ratio is the median of the rounds'. */
async function compare(chain: Chain, name: string, baseline: () => Promise<Run>, subject: () => Promise<Run>) {
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const bases: number[] = [];
  const subs: number[] = [];
  const lat: number[] = [];
  let ops = 0;
  let txs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const b = await baseline();
    const s = await subject();
    if (s.ops === 0) break;
    const perOp = s.txs / s.ops;
    // The baseline's transactions per second: raw transfers are one each; the same transactions sent raw, theirs.
    const baseTx = b.ops ? rate(b) * (b.txs / b.ops) : NaN;
    bases.push(baseTx);
    subs.push(rate(s));
    ratios.push((rate(s) * perOp) / baseTx);
    // The same ratio in CPU time per transaction (the process's, the node's threads included): waiting for a core
    // on a loaded machine does not count, so it moves less between rounds than the wall-time ratio.
    if (b.txs && s.txs) cpuRatios.push(b.cpu / b.txs / (s.cpu / s.txs));
    lat.push(...s.lat);
    ops += s.ops;
    txs += s.txs;
  }
  const row: Row = {
    path: name,
    baseline: median(bases),
    subject: median(subs),
    txPerOp: txs / ops,
    ratio: median(ratios),
    p50: q(lat, 0.5),
    p99: q(lat, 0.99),
    ops,
  };
  rows.push(row);
  console.log(
    `${name.padEnd(44)} raw ${f1(row.baseline).padStart(6)} tx/s | ${f1(row.subject).padStart(6)} ops/s × ` +
      `${f2(row.txPerOp)} tx/op | ratio ${f2(row.ratio)} | p50 ${f1(row.p50)} ms p99 ${f1(row.p99)} ms (${ops} ops)`,
  );
  // Each round's ratio: under load they spread widely, and the median alone hides how far.
  console.log(`${"".padEnd(44)} rounds: ${ratios.map(f2).join(" ")}`);
  const cpu = `median ${f2(median(cpuRatios))}, rounds ${cpuRatios.map(f2).join(" ")}`;
  console.log(`${"".padEnd(44)} in CPU time per transaction: ${cpu}`);
}

// ---------------------------------------------------------------- flows

const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };

/** A key of the demo partner (same account, scopes and model) without rate limits or a credit ceiling in the way. */
async function benchKey(emu: Emulator): Promise<string> {
  const keys = (await api(emu, "GET", "/_emulator/keys", null)).keys as Json[];
  const demo = keys.find((k) => k.key === emu.key("demo"))!;
  const { account_id, scopes, billing_model } = demo;
  const body = { kind: "partner", account_id, scopes, billing_model, balance: 1e9 };
  const limits = { rate_limit_per_min: 1e9, partner_rate_limit_per_min: 1e9 };
  return (await api(emu, "POST", "/_emulator/keys", null, { ...body, ...limits })).key as string;
}

const emulatorOpts = { seed: 1, clock: "manual" as const, ipRateLimitPerMin: 1e9 };

async function main() {
  const emu = await createEmulator({ ...emulatorOpts, chain: { rpcPort: false, vrf: "auto" } });
  const chain = emu.chain!;
  const key = await benchKey(emu);
  const users = chain.endUsers;
  let seq = 0;

  // The raw chain: one signed ERC-20 transfer at a time, from the end users in turn.
  const transfer = (i: number) => {
    const from = users[i % users.length]!;
    const to = users[(i + 1) % users.length]!.address;
    const data = encodeFunctionData({ abi: usdStablecoinAbi, functionName: "transfer", args: [to, 1n] });
    return send(chain, from, [{ to: chain.addresses.stablecoin, data }]);
  };
  const raw = () => timed(chain, DURATION, async (i) => void (await transfer(i)));

  // The generator's own ceiling: signing alone, and an in-process GET through the whole pipeline.
  {
    const account = chain.walletClientFor(users[0]!).account;
    const data = encodeFunctionData({ abi: usdStablecoinAbi, functionName: "transfer", args: [users[1]!.address, 1n] });
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 1000) {
      const fees = { maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n, chainId: chain.chainId } as const;
      const tx = { to: chain.addresses.stablecoin, data, nonce: n, gas: 100_000n, type: "eip1559", ...fees } as const;
      await account.signTransaction!(tx);
      n++;
    }
    const signs = (n * 1000) / (performance.now() - t0);
    let g = 0;
    const t1 = performance.now();
    while (performance.now() - t1 < 1000) {
      await api(emu, "GET", "/api/v1/mystery/catalog", key);
      g++;
    }
    const gets = (g * 1000) / (performance.now() - t1);
    const ceiling =
      `${signs.toFixed(0)} signed transfers/s (signing alone), ` +
      `${gets.toFixed(0)} in-process GET /mystery/catalog/s`;
    console.log(`load generator ceiling: ${ceiling}`);
    await raw(); // warm-up of the chain path (JIT), unmeasured
    const rounds = `baseline and subject alternate ${ROUNDS}× for ${DURATION / 1000} s each`;
    console.log(`each row: ${rounds}; ratio = ops/s × tx/op ÷ raw tx/s (median of rounds)\n`);
  }

  // Purchases revealed by the mystery path, for the redemption path: [purchase id, holder].
  const revealed: Array<[number, FixtureAccount]> = [];

  if (want("mystery") || want("redemption")) {
    // The chain's own limit for this purchase: the same three transactions (approve, purchase, VRF fulfil)
    // sent straight to the node, no API, no clock. A purchase transaction costs the node more than a transfer.
    const approveArgs = [chain.addresses.mysteryPool, 25_000_000n] as const;
    const approve = encodeFunctionData({ abi: usdStablecoinAbi, functionName: "approve", args: approveArgs });
    const purchase = encodeFunctionData({ abi: mysteryPoolAbi, functionName: "purchase", args: [1] });
    await compare(chain, "chain alone: approve, purchase, VRF fulfil", raw, () =>
      timed(chain, DURATION, async (i) => {
        const user = users[i % users.length]!;
        const calls: Call[] = [
          { to: chain.addresses.stablecoin, data: approve },
          { to: chain.addresses.mysteryPool, data: purchase },
        ];
        const [requestId] = vrfRequestIdsFromLogs((await send(chain, user, calls)).logs);
        if (!(await chain.fulfillVrf(requestId)).success) throw new Error("reveal failed");
      }),
    );
    await compare(chain, "mystery non-custodial prepare→submit→reveal", raw, () =>
      timed(chain, DURATION, async (i) => {
        const user = users[i % users.length]!;
        const order = { wallet_address: user.address, tier_id: 1 };
        const prep = await api(emu, "POST", "/api/v1/mystery/purchase/prepare", key, order);
        const receipt = await send(chain, user, prep.calls as Call[]);
        const [requestId] = vrfRequestIdsFromLogs(receipt.logs);
        const body = { ...order, transaction_hash: receipt.transactionHash, request_id: String(requestId) };
        const sub = await api(emu, "POST", "/api/v1/mystery/purchase/submit", key, body);
        await emu.clock.advance(5_000); // VRF auto: the reveal is due 5 s after the request
        const got = await api(emu, "GET", `/api/v1/mystery/purchase/${sub.id}`, key);
        if (got.status !== "FULFILLED") throw new Error(`purchase ${sub.id} is ${got.status}`);
        revealed.push([sub.id, user]);
      }),
    );
  }

  // `--only custodial-goal`: only the goal's row (issue 38 goal 7), for many rounds in one run.
  if (want("custodial") || want("custodial-goal")) {
    const user = "bench-custodial";
    await api(emu, "POST", "/_emulator/mystery/custodial/fund", null, { key, external_user_id: user, usdc: "1000000" });
    // The custodial purchase's own transactions sent straight to the node, as the relayer sends them (its USDC
    // approval of the pool is the deployment's): purchaseFor from the relayer, then the VRF fulfilment.
    const buyer = users[0]!.address;
    const purchaseFor = encodeFunctionData({
      abi: mysteryPoolAbi,
      functionName: "purchaseFor",
      args: [buyer, 1, 25_000_000n],
    });
    const custodialRaw = () =>
      timed(chain, DURATION, async () => {
        const calls: Call[] = [{ to: chain.addresses.mysteryPool, data: purchaseFor }];
        const [requestId] = vrfRequestIdsFromLogs((await send(chain, chain.relayer, calls)).logs);
        if (!(await chain.fulfillVrf(requestId)).success) throw new Error("reveal failed");
      });
    const custodial = () =>
      timed(chain, DURATION, async () => {
        const order = { tier_id: 1, external_user_id: user };
        const idem = { "Idempotency-Key": `bench-${++seq}` };
        const p = await api(emu, "POST", "/api/v1/mystery/purchase", key, order, idem);
        // The SDK's waitForReveal: poll every second of (virtual) time until a terminal status.
        for (let polls = 0; ; polls++) {
          await emu.clock.advance(1_000);
          const got = await api(emu, "GET", `/api/v1/mystery/purchase/${p.id}`, key);
          if (got.status === "FULFILLED") return;
          const bad = polls > 30 || got.status === "FAILED" || got.status === "REFUNDED";
          if (bad) throw new Error(`custodial purchase ${p.id} is ${got.status}`);
        }
      });
    if (want("custodial")) {
      await compare(chain, "chain alone: relayer purchaseFor, VRF fulfil", raw, custodialRaw);
      await compare(chain, "mystery custodial purchase→FULFILLED", raw, custodial);
    }
    // The goal's baseline (issue 38 goal 7): the same transactions sent straight to the node.
    await compare(chain, "custodial ÷ its transactions sent raw", custodialRaw, custodial);
  }

  if (want("instant")) {
    const packs = (await api(emu, "GET", "/api/v1/instant/catalog", key)).packs as Array<{ packet_type_id: number }>;
    const type = packs[0]!.packet_type_id;
    await api(emu, "POST", "/_emulator/instant/restock", null, { packet_type_id: type, count: 1000 });
    await compare(chain, "instant prepare→submit→FULFILLED", raw, () =>
      timed(chain, DURATION, async (i) => {
        const user = users[i % users.length]!;
        const order = { packet_type_id: type, wallet_address: user.address };
        const prep = await api(emu, "POST", "/api/v1/instant/purchase/prepare", key, order);
        const receipt = await send(chain, user, prep.calls as Call[]);
        const [requestId] = vrfRequestIdsFromLogs(receipt.logs);
        const body = { ...order, transaction_hash: receipt.transactionHash, request_id: String(requestId) };
        const sub = await api(emu, "POST", "/api/v1/instant/purchase/submit", key, body);
        await emu.clock.advance(5_000);
        const got = await api(emu, "GET", `/api/v1/instant/purchase/${sub.id}`, key);
        if (got.status !== "FULFILLED") throw new Error(`instant purchase ${sub.id} is ${got.status}`);
      }),
    );
  }

  if (want("redemption") && revealed.length) {
    await compare(chain, "redemption prepare→burn→submit", raw, () =>
      timed(chain, DURATION, async () => {
        const next = revealed.shift();
        if (!next) return false;
        const [purchaseId, user] = next;
        const body = { purchase_id: purchaseId, shipping_address: US, shipping_payer: "end_user" };
        const idem = { "Idempotency-Key": `bench-r-${++seq}` };
        const ready = await api(emu, "POST", "/api/v1/mystery/redemption/prepare", key, body, idem);
        const [burn, ...payment] = ready.unsigned.calls as Call[];
        const burnReceipt = await send(chain, user, [burn!]);
        await send(chain, user, payment);
        const submit = { redemption_id: ready.redemption_id, tx_hash: burnReceipt.transactionHash };
        const sub = await api(emu, "POST", "/api/v1/mystery/redemption/submit", key, submit);
        if (sub.status !== "BURN_SUBMITTED") throw new Error(`redemption ${ready.redemption_id} is ${sub.status}`);
      }),
    );
  }

  if (want("webhooks")) await webhooks(emu, chain, key);
  await emu.close();
  if (want("restart")) await restart();

  console.log("\n| path | raw transfers/s | subject ops/s | tx per op | ratio | p50 | p99 |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.path} | ${f1(r.baseline)} | ${f1(r.subject)} | ${f2(r.txPerOp)} | ${f2(r.ratio)} | ` +
        `${f1(r.p50)} ms | ${f1(r.p99)} ms |`,
    );
}

// ---------------------------------------------------------------- webhooks

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}/hook` };
}

/** Deliveries per second (one event, one webhook, a receiver answering 200 at once) against plain POSTs to it. */
async function webhooks(emu: Emulator, chain: Chain, key: string): Promise<void> {
  let received = 0;
  const rx = await listen((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200).end("ok");
    });
  });
  await api(emu, "POST", "/api/v1/webhooks", key, { url: rx.url, event_types: ["purchase.fulfilled"] });
  const body = JSON.stringify({ event: "purchase.fulfilled", id: "x", data: { purchase_id: 1 } });
  const plain = () =>
    timed(chain, DURATION, async () => {
      const res = await fetch(rx.url, { method: "POST", headers: { "content-type": "application/json" }, body });
      await res.text();
    });
  const deliveries = () =>
    timed(chain, DURATION, async () => {
      const d = await api(emu, "POST", "/_emulator/events", null, { type: "purchase.fulfilled", key });
      if (d.deliveries[0]?.status !== "DELIVERED") throw new Error(`delivery ${JSON.stringify(d.deliveries[0])}`);
    });
  const ratios: number[] = [];
  let last = { b: 0, s: 0 };
  const lat: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const b = await plain();
    const s = await deliveries();
    ratios.push(rate(s) / rate(b));
    lat.push(...s.lat);
    last = { b: rate(b), s: rate(s) };
  }
  rx.server.close();
  console.log(
    `${"webhook deliveries (trigger → DELIVERED)".padEnd(44)} plain POST ${f1(last.b).padStart(6)}/s | ` +
      `${f1(last.s).padStart(6)} deliveries/s | ratio ${f2(median(ratios))} | ` +
      `p50 ${f1(q(lat, 0.5))} ms p99 ${f1(q(lat, 0.99))} ms (${received} received)`,
  );
  const path = "webhook deliveries (baseline: plain POSTs/s)";
  const tail = { p50: q(lat, 0.5), p99: q(lat, 0.99), ops: lat.length };
  rows.push({ path, baseline: last.b, subject: last.s, txPerOp: 0, ratio: median(ratios), ...tail });
}

// ---------------------------------------------------------------- restart

/**
 * A state file with BUILT revealed purchases (each as restart.ts makes them, 30 s of clock between) and
 * INFLIGHT submitted but unrevealed ones; then the journal replay alone, and a restart from the file with a
 * realtime clock and VRF auto (1 ms delay, so what is timed is the emulator's work, not the reveal delay).
 */
async function restart(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-commerce-"));
  const file = join(dir, "state.json");
  const emu = await createEmulator({ ...emulatorOpts, chain: { rpcPort: false, vrf: "manual" }, stateFile: file });
  const chain = emu.chain!;
  const key = await benchKey(emu);
  const deployed = emu.exportState().chain!; // the deployment alone: what every replay costs before the purchases
  const buy = async (i: number) => {
    const user = chain.endUsers[i % chain.endUsers.length]!;
    const order = { wallet_address: user.address, tier_id: 1 };
    const prep = await api(emu, "POST", "/api/v1/mystery/purchase/prepare", key, order);
    const receipt = await send(chain, user, prep.calls as Call[]);
    const [requestId] = vrfRequestIdsFromLogs(receipt.logs);
    const body = { ...order, transaction_hash: receipt.transactionHash, request_id: String(requestId) };
    return api(emu, "POST", "/api/v1/mystery/purchase/submit", key, body);
  };
  let t0 = performance.now();
  for (let i = 0; i < BUILT; i++) {
    const sub = await buy(i);
    await api(emu, "POST", "/_emulator/vrf/fulfill", null, { request_id: sub.onchain_request_id });
    await emu.clock.advance(30_000);
  }
  const built = emu.exportState().chain!;
  for (let i = 0; i < INFLIGHT; i++) await buy(i);
  const buildMs = performance.now() - t0;
  await emu.close(); // writes the file
  const doc = JSON.parse(readFileSync(file, "utf8")) as { chain: typeof built };

  const replay = async (doc: typeof built) => {
    const t = performance.now();
    await (await startChain({ seed: 1, startTime: 0, rpcPort: false, restore: doc })).close();
    return performance.now() - t;
  };
  const baseMs = Math.min(await replay(deployed), await replay(deployed));
  const replayMs = await replay(built);
  const perThousand = ((replayMs - baseMs) * 1000) / BUILT;

  t0 = performance.now();
  const chainOpts = { rpcPort: false as const, vrf: "auto" as const, vrfDelayMs: 1 };
  const again = await createEmulator({ clock: "realtime", ipRateLimitPerMin: 1e9, chain: chainOpts, stateFile: file });
  const readyMs = performance.now() - t0;
  // The operator overview reads the rows as they are (no settling from the chain, unlike the partner GETs).
  const fulfilled = async () =>
    ((await api(again, "GET", "/_emulator/mystery?limit=1000", null)).purchases as Json[]).filter(
      (p) => p.status === "FULFILLED",
    ).length;
  const target = BUILT + INFLIGHT;
  let n = await fulfilled();
  while (n < target && performance.now() - t0 < 120_000) {
    await new Promise((r) => setTimeout(r, 100)); // each look formats every row: not too often, it competes
    n = await fulfilled();
  }
  const landedMs = performance.now() - t0 - readyMs;
  await again.close();
  rmSync(dir, { recursive: true, force: true });
  const buildTime = `built in ${(buildMs / 1000).toFixed(1)} s`;
  const journal = `journal ${doc.chain.journal.length} entries`;
  console.log(`\nstate: ${BUILT} revealed + ${INFLIGHT} in-flight purchases (${buildTime}), ${journal}`);
  const entries = built.journal.length - deployed.journal.length;
  console.log(
    `journal replay of ${BUILT} revealed purchases (${entries} entries past the deployment): ` +
      `${replayMs.toFixed(0)} ms, ` +
      `of which ${baseMs.toFixed(0)} ms network + deployment → ` +
      `${(perThousand / 1000).toFixed(2)} s per 1,000 purchases (target ≤ 2 s)`,
  );
  const landed = `${INFLIGHT} in-flight reveals landed ${(landedMs / 1000).toFixed(2)} s after ready`;
  const ready = `ready in ${readyMs.toFixed(0)} ms`;
  console.log(`restart with --state: ${ready}; ${landed} (${n - BUILT}/${INFLIGHT}; target ≤ 5 s)`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
