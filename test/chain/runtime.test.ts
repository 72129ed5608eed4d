import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { createPublicClient, createWalletClient, http, parseEther, parseEventLogs } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  FIXTURE_ACCOUNTS,
  MULTICALL3_ADDRESS,
  mysteryPoolAbi,
  startChain,
  usdStablecoinAbi,
  type Chain,
} from "../../chain/index.ts";
import { blockTime, buyAndReveal, START, start, usdcBalance, write } from "./helpers.ts";

let chain: Chain;
const steps: string[] = [];

beforeAll(async () => {
  // How long this takes is measured by bench/chain.ts, not asserted (no wall-time budgets in tests).
  chain = await start({ rpcPort: 0, onProgress: (s) => steps.push(s) });
});
afterAll(async () => {
  await chain?.close();
});

describe("startChain", () => {
  it("starts, deploys and funds, reporting progress", async () => {
    expect(steps[0]).toBe("starting network");
    expect(steps).toContain("deploying USDStablecoin");
    expect(steps.at(-1)).toBe("ready");
    expect(chain.chainId).toBe(31337);
    for (const address of Object.values(chain.addresses)) {
      expect((await chain.publicClient.getCode({ address }))?.length ?? 0).toBeGreaterThan(2);
    }
    expect(chain.addresses.multicall3).toBe(MULTICALL3_ADDRESS);
    // genesis time = startTime
    const genesis = await chain.publicClient.getBlock({ blockNumber: 0n });
    expect(genesis.timestamp).toBe(BigInt(START / 1000));
  });

  it("uses the Hardhat mnemonic accounts with the documented roles and funding", async () => {
    expect(FIXTURE_ACCOUNTS).toHaveLength(20);
    for (const a of FIXTURE_ACCOUNTS) expect(privateKeyToAccount(a.privateKey).address).toBe(a.address);
    expect(chain.operator.address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect([chain.relayer.label, chain.poolSigner.label, chain.treasury.label, chain.vrfNode.label]).toEqual([
      "relayer",
      "poolSigner",
      "treasury",
      "vrfNode",
    ]);
    expect(chain.endUsers.length).toBeGreaterThanOrEqual(5);
    for (const u of chain.endUsers) {
      expect(await usdcBalance(chain, u.address)).toBe(10_000_000_000n);
      expect(await chain.publicClient.getBalance({ address: u.address })).toBeGreaterThan(parseEther("9999"));
    }
    expect(
      await chain.publicClient.readContract({
        address: chain.addresses.mysteryPool,
        abi: mysteryPoolAbi,
        functionName: "isRelayer",
        args: [chain.relayer.address],
      }),
    ).toBe(true);
    expect(
      await chain.publicClient.readContract({
        address: chain.addresses.stablecoin,
        abi: usdStablecoinAbi,
        functionName: "allowance",
        args: [chain.poolSigner.address, chain.addresses.marketplace],
      }),
    ).toBeGreaterThan(10n ** 30n);
    expect(
      await chain.publicClient.readContract({
        address: chain.addresses.mysteryPool,
        abi: mysteryPoolAbi,
        functionName: "tierIds",
      }),
    ).toEqual([1n, 2n, 3n]);
  });

  it("serves JSON-RPC on 127.0.0.1 and Multicall3 answers at its canonical address", async () => {
    expect(new URL(chain.rpcUrl!).hostname).toBe("127.0.0.1");
    const res = await request(chain.rpcUrl!)
      .post("/")
      .send({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
    expect(res.body.result).toBe("0x7a69");
    const rpc = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl!) });
    const [balance, name] = await rpc.multicall({
      contracts: [
        {
          address: chain.addresses.stablecoin,
          abi: usdStablecoinAbi,
          functionName: "balanceOf",
          args: [chain.endUsers[0]!.address],
        },
        { address: chain.addresses.stablecoin, abi: usdStablecoinAbi, functionName: "name" },
      ],
      allowFailure: false,
    });
    expect(balance).toBe(10_000_000_000n);
    expect(name).toBe("USD Coin");
    const mc = [
      {
        type: "function",
        name: "getEthBalance",
        stateMutability: "view",
        inputs: [{ name: "addr", type: "address" }],
        outputs: [{ name: "balance", type: "uint256" }],
      },
      {
        type: "function",
        name: "getCurrentBlockTimestamp",
        stateMutability: "view",
        inputs: [],
        outputs: [{ name: "timestamp", type: "uint256" }],
      },
    ] as const;
    expect(
      await rpc.readContract({
        address: MULTICALL3_ADDRESS,
        abi: mc,
        functionName: "getEthBalance",
        args: [chain.endUsers[0]!.address],
      }),
    ).toBeGreaterThan(0n);
    expect(
      await rpc.readContract({ address: MULTICALL3_ADDRESS, abi: mc, functionName: "getCurrentBlockTimestamp" }),
    ).toBeGreaterThanOrEqual(BigInt(START / 1000));
  });

  it("can run without an HTTP server", async () => {
    const quiet = await start({ rpcPort: false, seed: 1 });
    try {
      expect(quiet.rpcUrl).toBeNull();
      expect(await usdcBalance(quiet, quiet.endUsers[0]!.address)).toBe(10_000_000_000n);
    } finally {
      await quiet.close();
    }
  });
});

describe("time", () => {
  it("setTime moves block.timestamp to the emulator clock and never errors going backwards", async () => {
    const now = await blockTime(chain);
    const target = Number(now + 86_400n) * 1000 + 999;
    await chain.setTime(target);
    expect(await blockTime(chain)).toBe(now + 86_400n);
    // the next transaction's block carries (about) the same time
    const r = await write(chain, chain.endUsers[0]!, chain.addresses.stablecoin, usdStablecoinAbi, "approve", [
      chain.relayer.address,
      1n,
    ]);
    const txBlock = await chain.publicClient.getBlock({ blockNumber: r.blockNumber });
    expect(Number(txBlock.timestamp - (now + 86_400n))).toBeLessThanOrEqual(1);
    // calling again with the same time does not mine
    const head = await chain.publicClient.getBlockNumber();
    await chain.setTime(Number(txBlock.timestamp) * 1000);
    expect(await chain.publicClient.getBlockNumber()).toBe(head);
    // backwards: clamped to the latest block time, no error
    await chain.setTime(START);
    expect(await blockTime(chain)).toBe(txBlock.timestamp);
  });
});

describe("contentKey", () => {
  it("stays over blocks mined without a transaction and changes with a transaction, a state edit and a revert", async () => {
    const key = chain.contentKey();
    expect(key).not.toBeNull();
    const head = await chain.publicClient.getBlockNumber();
    await chain.setTime(Number((await blockTime(chain)) + 60n) * 1000); // the clock's empty block
    await chain.request("evm_mine");
    expect(await chain.publicClient.getBlockNumber()).toBe(head + 2n);
    expect(chain.contentKey()).toBe(key);
    expect((await chain.head()).number).toBe(head + 2n);
    const id = await chain.snapshot();
    await write(chain, chain.endUsers[1]!, chain.addresses.stablecoin, usdStablecoinAbi, "approve", [
      chain.relayer.address,
      2n,
    ]);
    const afterTx = chain.contentKey();
    expect(afterTx).not.toBe(key);
    await chain.request("hardhat_setBalance", [chain.treasury.address, "0x1"]);
    const afterEdit = chain.contentKey();
    expect(afterEdit).not.toBe(afterTx);
    await chain.revert(id);
    expect([key, afterTx, afterEdit]).not.toContain(chain.contentKey());
  });

  it("historyKey stays over blocks and transactions and changes with a revert, through the chain or its JSON-RPC", async () => {
    const past = chain.historyKey();
    expect(past).not.toBeNull();
    const send = () =>
      write(chain, chain.endUsers[1]!, chain.addresses.stablecoin, usdStablecoinAbi, "approve", [
        chain.relayer.address,
        3n,
      ]);
    await send();
    await chain.setTime(Number((await blockTime(chain)) + 60n) * 1000);
    expect(chain.historyKey()).toBe(past);
    // contentAt: the content key and the head's hash, together.
    expect(chain.contentAt()).toEqual({ key: chain.contentKey(), head: (await chain.head()).hash });
    const id = await chain.snapshot();
    await send();
    await chain.revert(id);
    const reverted = chain.historyKey();
    expect(reverted).not.toBe(past);
    const raw = (await chain.request("evm_snapshot")) as string;
    await send();
    expect(chain.historyKey()).toBe(reverted);
    expect(await chain.request("evm_revert", [raw])).toBe(true);
    expect([past, reverted]).not.toContain(chain.historyKey());
  });
});

describe("time with ChainOptions.now", () => {
  it("mines every transaction at exactly the emulator clock (clamped, never backwards)", async () => {
    let clock = START;
    const pinned = await start({ now: () => clock, rpcPort: 0 });
    try {
      const user = pinned.endUsers[0]!;
      const send = async () => {
        const r = await write(pinned, user, pinned.addresses.stablecoin, usdStablecoinAbi, "approve", [
          pinned.relayer.address,
          1n,
        ]);
        return (await pinned.publicClient.getBlock({ blockNumber: r.blockNumber })).timestamp;
      };
      clock = START + 5 * 86_400_000 + 250;
      expect(await send()).toBe(BigInt((START + 5 * 86_400_000) / 1000));
      await new Promise((r) => setTimeout(r, 1100)); // wall time passes, the manual clock does not
      expect(await send()).toBe(BigInt((START + 5 * 86_400_000) / 1000));
      clock = START; // backwards: clamped to the latest block
      expect(await send()).toBe(BigInt((START + 5 * 86_400_000) / 1000));
      // transactions arriving over the served JSON-RPC are pinned as well
      clock = START + 6 * 86_400_000;
      const httpWallet = createWalletClient({
        account: privateKeyToAccount(user.privateKey),
        chain: pinned.viemChain,
        transport: http(pinned.rpcUrl!),
      });
      const hash = await httpWallet.sendTransaction({ to: pinned.treasury.address, value: 1n });
      const receipt = await pinned.publicClient.waitForTransactionReceipt({ hash });
      expect((await pinned.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp).toBe(
        BigInt((START + 6 * 86_400_000) / 1000),
      );
    } finally {
      await pinned.close();
    }
  });
});

describe("snapshot / revert", () => {
  it("restores state, can be reused, invalidates later snapshots, and keeps nonces working", async () => {
    const user = chain.endUsers[3]!;
    const id = await chain.snapshot();
    const blockAtSnap = await chain.publicClient.getBlockNumber();
    await chain.faucet(user.address, { usdc: 1_000_000n });
    const later = await chain.snapshot();
    expect(await usdcBalance(chain, user.address)).toBe(10_001_000_000n);
    await chain.revert(id);
    expect(await usdcBalance(chain, user.address)).toBe(10_000_000_000n);
    expect(await chain.publicClient.getBlockNumber()).toBe(blockAtSnap);
    await expect(chain.revert(later)).rejects.toThrow(/unknown or invalidated snapshot/);
    // nonces were rolled back too: sending again works
    await write(chain, user, chain.addresses.stablecoin, usdStablecoinAbi, "transfer", [chain.treasury.address, 5n]);
    await chain.faucet(user.address, { usdc: 7n });
    await chain.revert(id); // same id again
    expect(await usdcBalance(chain, user.address)).toBe(10_000_000_000n);
    expect(await usdcBalance(chain, chain.treasury.address)).toBe(0n);
  });
});

describe("faucet", () => {
  it("mints USDC and sends ETH to any address", async () => {
    const fresh = "0x000000000000000000000000000000000000bEEF" as const;
    const { usdcTx, ethTx } = await chain.faucet(fresh, { usdc: 42_000_000n, eth: parseEther("1.5") });
    expect(usdcTx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(ethTx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await usdcBalance(chain, fresh)).toBe(42_000_000n);
    expect(await chain.publicClient.getBalance({ address: fresh })).toBe(parseEther("1.5"));
    expect(await chain.faucet(fresh, {})).toEqual({});
  });

  it("serialises concurrent sends from one account (automine rejects nonce gaps)", async () => {
    const targets = Array.from(
      { length: 6 },
      (_, i) => `0x${(0xf00d00 + i).toString(16).padStart(40, "0")}` as `0x${string}`,
    );
    const results = await Promise.all(targets.map((a) => chain.faucet(a, { usdc: 3n, eth: 1n })));
    expect(new Set(results.map((r) => r.usdcTx)).size).toBe(6);
    for (const a of targets) expect(await usdcBalance(chain, a)).toBe(3n);
  });
});

describe("attach (rpcUrl)", () => {
  it("deploys a second contract set on an existing node and drives purchases through it", async () => {
    const attached = await startChain({ seed: 9, startTime: START, rpcUrl: chain.rpcUrl! });
    try {
      expect(attached.rpcUrl).toBe(chain.rpcUrl);
      expect(attached.addresses.mysteryPool).not.toBe(chain.addresses.mysteryPool);
      expect(attached.addresses.multicall3).toBe(MULTICALL3_ADDRESS);
      const seen: bigint[] = [];
      const off = attached.onVrfRequested((id) => seen.push(id));
      const { tokenIds, requestId } = await buyAndReveal(attached, attached.endUsers[4]!, 1);
      expect(tokenIds).toHaveLength(2);
      await expect.poll(() => seen, { timeout: 60_000, interval: 50 }).toContain(requestId);
      off();
    } finally {
      await attached.close();
    }
  });

  it("blocks mined on the node by others are found by poll(), never by a wall-time timer", async () => {
    const attached = await startChain({ seed: 10, startTime: START, rpcUrl: chain.rpcUrl! });
    try {
      expect(attached.attached).toBe(true);
      let blocks = 0;
      const off = attached.onBlocks(() => blocks++);
      await attached.poll(); // learns the current head
      blocks = 0;
      // Another client mines on the same node: this process sees nothing until it polls.
      await chain.faucet("0x000000000000000000000000000000000000dEaD", { usdc: 1n });
      await new Promise((r) => setImmediate(r));
      expect(blocks).toBe(0);
      await attached.poll();
      expect(blocks).toBe(1);
      await attached.poll(); // nothing new
      expect(blocks).toBe(1);
      // Blocks mined through this chain itself are reported at once.
      await attached.faucet("0x000000000000000000000000000000000000dEaD", { usdc: 1n });
      expect(blocks).toBe(2);
      off();
      expect(chain.attached).toBe(false);
    } finally {
      await attached.close();
    }
  });

  it("attaches to a separately started `hardhat node --hostname 127.0.0.1`", async () => {
    const require = createRequire(import.meta.url);
    const root = path.resolve(path.dirname(require.resolve("../../package.json")));
    let child: ChildProcess | undefined;
    try {
      child = spawn(
        process.execPath,
        [require.resolve("hardhat/internal/cli/bootstrap.js"), "node", "--hostname", "127.0.0.1", "--port", "0"],
        {
          cwd: root,
          env: {
            ...process.env,
            HARDHAT_CONFIG: path.join(root, "chain/hardhat.config.cjs"),
            HARDHAT_DISABLE_TELEMETRY_PROMPT: "true",
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        const timer = setTimeout(() => reject(new Error(`hardhat node did not start: ${out}`)), 120_000);
        child!.stdout!.on("data", (d) => {
          out += d;
          const m = /Started HTTP and WebSocket JSON-RPC server at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child!.on("exit", (code) => reject(new Error(`hardhat node exited ${code}: ${out}`)));
      });
      const attached = await startChain({ seed: 3, startTime: Date.now(), rpcUrl: url });
      try {
        const { tokenIds, purchaseReceipt } = await buyAndReveal(attached, attached.endUsers[0]!, 2);
        expect(tokenIds).toHaveLength(3);
        expect(
          parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRequested", logs: purchaseReceipt.logs }),
        ).toHaveLength(1);
      } finally {
        await attached.close();
      }
    } finally {
      child?.kill();
    }
  });
});
