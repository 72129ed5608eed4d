import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_ACCOUNTS, startChain, type Chain } from "../../chain/index.ts";
import { clearDeployCacheMemory, DeployCache, deployCacheKey } from "../../chain/deploy-cache.ts";
import { DEFAULT_PACKET_TYPES } from "../../chain/instant.ts";
import { DEFAULT_GROUPS, DEFAULT_TIERS } from "../../chain/tiers.ts";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { buyRevealed, type Ctx } from "../mystery/helpers.ts";
import { RPC_GUARD } from "./helpers.ts";

// A chain started from the cached deployment is the chain a fresh deployment makes, block for block: the
// cache is primed by a deployment at another time, then one emulator deploys afresh and one starts from the
// cache, at the same clock, and everything a user can read of them is compared.

const START = Date.UTC(2025, 2, 3, 4, 5, 6);
const saved = process.env.CARDOS_EMULATOR_DEPLOY_CACHE;
const setCache = (v: string | undefined) => {
  if (v === undefined) delete process.env.CARDOS_EMULATOR_DEPLOY_CACHE;
  else process.env.CARDOS_EMULATOR_DEPLOY_CACHE = v;
};
const fromCache = (chain: Chain) => (chain as Chain & { deployedFromCache: boolean }).deployedFromCache;

let fresh: Ctx;
let cached: Ctx;

async function emulator(): Promise<Ctx> {
  const emu: Emulator = await createEmulator({
    seed: 7,
    clock: "manual",
    startTime: START,
    port: 0,
    chain: { rpcPort: false, vrf: "manual" },
  });
  return {
    emu,
    api: request(emu.url),
    close: () => emu.close(),
    demo: emu.key("demo"),
    revenueShare: emu.key("revenue-share"),
    tenant: emu.key("tenant"),
    events: [],
  };
}

beforeAll(async () => {
  // This process's memory only: the test neither reads nor writes the disk cache.
  setCache("memory");
  clearDeployCacheMemory();
  // Primed a day earlier, by another seed: neither is part of the deployment.
  const primer = await startChain({ seed: 1, startTime: START - 86_400_000, rpcPort: false, rpcGuard: RPC_GUARD });
  expect(fromCache(primer)).toBe(false);
  await primer.close();
  setCache("0");
  fresh = await emulator();
  setCache("memory");
  cached = await emulator();
});

afterAll(async () => {
  setCache(saved);
  clearDeployCacheMemory();
  await fresh?.close();
  await cached?.close();
});

const chainOf = (ctx: Ctx) => ctx.emu.chain!;
const rpc = (ctx: Ctx, method: string, params: unknown[] = []) => chainOf(ctx).request(method, params);

/** Storage slots the deployment wrote: every SSTORE's key in its transactions' traces, by the contract it ran in. */
async function writtenSlots(ctx: Ctx): Promise<Map<string, Set<string>>> {
  const chain = chainOf(ctx);
  const slots = new Map<string, Set<string>>();
  for (let n = 1n; n <= chain.deployBlock; n++) {
    const block = await chain.publicClient.getBlock({ blockNumber: n });
    for (const hash of block.transactions) {
      const receipt = await chain.publicClient.getTransactionReceipt({ hash });
      const trace = (await rpc(ctx, "debug_traceTransaction", [
        hash,
        { disableMemory: true, disableStorage: true },
      ])) as {
        structLogs: Array<{ op: string; depth: number; stack?: string[] }>;
      };
      // The contract at each call depth: the transaction's own target first, then each CALL's.
      const at: string[] = [(receipt.contractAddress ?? receipt.to)!.toLowerCase()];
      for (const log of trace.structLogs) {
        at.length = log.depth;
        const stack = log.stack ?? [];
        if (log.op === "SSTORE") {
          const set = slots.get(at[log.depth - 1]!) ?? new Set<string>();
          set.add(stack.at(-1)!);
          slots.set(at[log.depth - 1]!, set);
        }
        if ((log.op === "CALL" || log.op === "STATICCALL") && stack.length >= 2)
          at[log.depth] = `0x${stack.at(-2)!.slice(-40)}`.toLowerCase();
        if (log.op === "DELEGATECALL" || log.op === "CALLCODE") at[log.depth] = at[log.depth - 1]!; // the caller's storage
      }
    }
  }
  return slots;
}

describe("the cached deployment", () => {
  it("is used for the second emulator, not the first", () => {
    expect(fromCache(chainOf(fresh))).toBe(false);
    expect(fromCache(chainOf(cached))).toBe(true);
  });

  it("makes the same blocks: numbers, hashes, state roots, transactions", async () => {
    const a = chainOf(fresh);
    const b = chainOf(cached);
    expect(b.deployBlock).toBe(a.deployBlock);
    expect(a.deployBlock).toBeGreaterThan(20n);
    const head = await a.publicClient.getBlockNumber();
    expect(await b.publicClient.getBlockNumber()).toBe(head);
    for (let n = 0n; n <= head; n++) {
      const [x, y] = await Promise.all([
        a.publicClient.getBlock({ blockNumber: n }),
        b.publicClient.getBlock({ blockNumber: n }),
      ]);
      expect({ n, hash: y.hash, stateRoot: y.stateRoot, txs: y.transactions, time: y.timestamp }).toEqual({
        n,
        hash: x.hash,
        stateRoot: x.stateRoot,
        txs: x.transactions,
        time: x.timestamp,
      });
    }
  });

  it("has the same code, written storage, balances and nonces", async () => {
    const a = chainOf(fresh);
    const b = chainOf(cached);
    expect(b.addresses).toEqual(a.addresses);
    expect(b.vrf).toEqual(a.vrf);
    const slots = await writtenSlots(fresh);
    // Every contract the deployment configured had storage written (owners, tiers, balances, roles, …).
    for (const address of Object.values(a.addresses).filter((x) => x !== a.addresses.multicall3))
      expect(slots.get(address.toLowerCase())?.size ?? 0).toBeGreaterThan(0);
    let compared = 0;
    for (const [address, keys] of slots)
      for (const key of keys) {
        const args = [address, `0x${BigInt(`0x${key.replace(/^0x/, "")}`).toString(16)}`, "latest"];
        expect(await rpc(cached, "eth_getStorageAt", args)).toBe(await rpc(fresh, "eth_getStorageAt", args));
        compared++;
      }
    expect(compared).toBeGreaterThan(50);
    for (const address of Object.values(a.addresses))
      expect(await b.publicClient.getCode({ address })).toBe(await a.publicClient.getCode({ address }));
    for (const { address } of FIXTURE_ACCOUNTS) {
      expect(await b.publicClient.getBalance({ address })).toBe(await a.publicClient.getBalance({ address }));
      expect(await b.publicClient.getTransactionCount({ address })).toBe(
        await a.publicClient.getTransactionCount({ address }),
      );
    }
  });

  it("exports the same chain state and answers a purchase alike", async () => {
    expect(chainOf(cached).exportState()).toEqual(chainOf(fresh).exportState());
    // The network's own snapshot ids too (a wallet's evm_snapshot on the served JSON-RPC gets the same answer).
    expect(await rpc(cached, "evm_snapshot")).toBe(await rpc(fresh, "evm_snapshot"));
    const user = chainOf(fresh).endUsers[0]!;
    const [x, y] = [await buyRevealed(fresh, fresh.demo, user, 2), await buyRevealed(cached, cached.demo, user, 2)];
    expect(y).toEqual(x);
    expect(x.items.length).toBeGreaterThan(0);
    expect(chainOf(cached).exportState()).toEqual(chainOf(fresh).exportState());
    expect((await fresh.emu.exportState()).chain).toEqual((await cached.emu.exportState()).chain);
  });
});

describe("a cached deployment that does not replay", () => {
  it("is dropped: the chain deploys afresh, with the same result", async () => {
    const key = deployCacheKey({ groups: DEFAULT_GROUPS, tiers: DEFAULT_TIERS, packetTypes: DEFAULT_PACKET_TYPES });
    const good = new DeployCache().load(key)!;
    expect(good).not.toBeNull();
    // A transaction the network refuses, then one that no longer ends on the recorded block.
    for (const bad of [
      { ...good, entries: [["eth_sendRawTransaction", ["0x02"]]] as Array<[string, unknown[]]> },
      { ...good, block: good.block + 1 },
    ]) {
      new DeployCache().save(key, bad);
      const steps: string[] = [];
      const chain = await startChain({
        seed: 1,
        startTime: START,
        rpcPort: false,
        rpcGuard: RPC_GUARD,
        onProgress: (s) => steps.push(s),
      });
      try {
        expect(fromCache(chain)).toBe(false);
        expect(chain.addresses).toEqual(chainOf(fresh).addresses);
        expect(chain.deployBlock).toBe(chainOf(fresh).deployBlock);
        expect(chain.exportState()!.deployment).toEqual(chainOf(fresh).exportState()!.deployment);
        expect(steps.filter((s) => s === "deploying USDStablecoin")).toHaveLength(1);
      } finally {
        await chain.close();
      }
      // The fresh deployment took the bad one's place.
      expect(new DeployCache().load(key)).toEqual(good);
    }
  });
});

describe("the deployment cache on disk", () => {
  const config = { groups: DEFAULT_GROUPS, tiers: DEFAULT_TIERS, packetTypes: DEFAULT_PACKET_TYPES };
  const deployment = {
    entries: [["hardhat_setCode", ["0x00000000000000000000000000000000000000aa", "0x00"]]] as Array<
      [string, unknown[]]
    >,
    steps: ["deploying Multicall3"],
    addresses: { stablecoin: `0x${"11".repeat(20)}` } as never,
    vrf: { subscriptionId: "1", keyHash: "0x01" as const },
    block: 0,
  };

  it("is written whole under its key, read back in another process, ignored when corrupt or for another key", () => {
    const dir = mkdtempSync(join(tmpdir(), "deploy-cache-"));
    const key = deployCacheKey(config);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    // The key follows what the deployment depends on.
    expect(deployCacheKey({ ...config, packetTypes: [] })).not.toBe(key);
    setCache(undefined);
    try {
      new DeployCache(dir).save(key, deployment);
      const files = readdirSync(dir);
      expect(files).toEqual([`deploy-${key.slice(0, 40)}.json`]); // no temp file left behind
      clearDeployCacheMemory(); // as a new process
      expect(new DeployCache(dir).load(key)).toEqual(deployment);
      clearDeployCacheMemory();
      expect(new DeployCache(dir).load(key.replace(/^./, (c) => (c === "0" ? "1" : "0")))).toBeNull();
      const file = join(dir, files[0]!);
      writeFileSync(file, readFileSync(file, "utf8").slice(0, 100));
      expect(new DeployCache(dir).load(key)).toBeNull();
      writeFileSync(
        file,
        JSON.stringify({ ...JSON.parse(JSON.stringify({ format: 1, key, ...deployment })), block: "x" }),
      );
      expect(new DeployCache(dir).load(key)).toBeNull();
    } finally {
      setCache("memory");
      clearDeployCacheMemory();
    }
  });
});
