import { afterEach, describe, expect, it } from "vitest";
import request from "supertest";
import { createWalletClient, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startChain, usdStablecoinAbi, type Chain, type ChainStateExport } from "../../chain/index.ts";
import { RPC_GUARD } from "../chain/helpers.ts";

// The chain's journal (chain/journal.ts) records what wallets and scripts do
// over the served JSON-RPC too: mining with and without a timestamp, several
// blocks at once, balance and code edits, automine off with a mempool,
// snapshots and reverts. A fresh network replaying it ends on the same block
// (hash, hence state root) with the same balances.

const START = Date.UTC(2026, 0, 15, 12);
const open: Chain[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function start(restore?: ChainStateExport): Promise<Chain> {
  let now = START;
  const chain = await startChain({
    seed: 5,
    startTime: START,
    rpcPort: 0,
    rpcGuard: RPC_GUARD,
    now: () => (now += 1500),
    restore,
  });
  open.push(chain);
  return chain;
}

async function rpc(chain: Chain, method: string, params: unknown[] = []): Promise<any> {
  const res = await request(chain.rpcUrl!).post("/").send({ jsonrpc: "2.0", id: 1, method, params });
  const body = res.body as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

async function facts(chain: Chain) {
  const head = await chain.publicClient.getBlock();
  const who = [
    chain.endUsers[0]!.address,
    chain.endUsers[1]!.address,
    "0x000000000000000000000000000000000000bEEF" as const,
  ];
  return {
    number: head.number,
    hash: head.hash,
    stateRoot: head.stateRoot,
    eth: await Promise.all(who.map((address) => chain.publicClient.getBalance({ address }))),
    usdc: await Promise.all(
      who.map((a) =>
        chain.publicClient.readContract({
          address: chain.addresses.stablecoin,
          abi: usdStablecoinAbi,
          functionName: "balanceOf",
          args: [a],
        }),
      ),
    ),
    code: await rpc(chain, "eth_getCode", ["0x000000000000000000000000000000000000c0de", "latest"]),
    nonce: await chain.publicClient.getTransactionCount({ address: chain.endUsers[1]!.address }),
  };
}

describe("chain journal", () => {
  it("JSON-RPC from outside (mine, hardhat_mine, set balance/code, automine off, snapshot/revert) replays to the same block and balances", async () => {
    const chain = await start();
    const user = chain.endUsers[1]!;
    const wallet = createWalletClient({
      account: privateKeyToAccount(user.privateKey),
      chain: chain.viemChain,
      transport: http(chain.rpcUrl!),
    });
    const transfer = (to: Hex, amount: bigint) =>
      wallet.writeContract({
        address: chain.addresses.stablecoin,
        abi: usdStablecoinAbi,
        functionName: "transfer",
        args: [to, amount],
      });

    await transfer(chain.endUsers[0]!.address, 5_000_000n);
    await rpc(chain, "evm_mine"); // no timestamp: the block's time is recorded
    await rpc(chain, "evm_increaseTime", [3600]);
    await rpc(chain, "hardhat_mine", ["0x5", "0x3c"]); // five blocks, a minute apart
    await rpc(chain, "hardhat_setBalance", ["0x000000000000000000000000000000000000bEEF", "0xde0b6b3a7640000"]);
    await rpc(chain, "hardhat_setCode", ["0x000000000000000000000000000000000000c0de", "0x6001600055"]);
    // A snapshot, changes, a revert: the reverted changes leave the journal.
    const snap = await rpc(chain, "evm_snapshot");
    await transfer(chain.endUsers[0]!.address, 1_000_000n);
    await rpc(chain, "hardhat_setBalance", [user.address, "0x1"]);
    expect(await rpc(chain, "evm_revert", [snap])).toBe(true);
    // Automine off: two transactions wait in the mempool and are mined together.
    await rpc(chain, "evm_setAutomine", [false]);
    await transfer(chain.endUsers[0]!.address, 2n);
    await wallet.sendTransaction({
      to: "0x000000000000000000000000000000000000bEEF",
      value: parseEther("0.5"),
      nonce: (await chain.publicClient.getTransactionCount({ address: user.address })) + 1,
    });
    await rpc(chain, "evm_mine");
    await rpc(chain, "evm_setAutomine", [true]);
    await chain.faucet(user.address, { usdc: 9n, eth: 1n });

    const before = await facts(chain);
    const doc = JSON.parse(JSON.stringify(chain.exportState())) as ChainStateExport;
    expect(doc.head).toMatchObject({ number: Number(before.number), hash: before.hash });
    expect(doc.journal.some(([method]) => method === "evm_revert" || method === "evm_snapshot")).toBe(false);

    const again = await start(doc);
    expect(await facts(again)).toEqual(before);
    expect(again.addresses).toEqual(chain.addresses);
    expect((await again.publicClient.getBlock({ blockNumber: before.number - 1n })).hash).toBe(
      (await chain.publicClient.getBlock({ blockNumber: before.number - 1n })).hash,
    );
  });

  it("interval mining is refused (wall-time blocks could not be restored); a journal that does not replay to its head is refused", async () => {
    const chain = await start();
    await expect(rpc(chain, "evm_setIntervalMining", [1000])).rejects.toThrow(/evm_setIntervalMining is not supported/);
    expect(await rpc(chain, "evm_setIntervalMining", [0])).toBe(true);
    await chain.faucet(chain.endUsers[0]!.address, { usdc: 1n });
    const doc = chain.exportState()!;
    await expect(start({ ...doc, journal: doc.journal.slice(0, -1) })).rejects.toThrow(
      /replayed from the state ends on block/,
    );
    await expect(
      start({ ...doc, journal: [["eth_call", []], ...doc.journal] } as unknown as ChainStateExport),
    ).rejects.toThrow(/malformed \(journal entry 0\)/);
    await expect(start({ ...doc, journal: [["eth_sendRawTransaction", ["0x00"]], ...doc.journal] })).rejects.toThrow(
      /chain journal entry 0 \(eth_sendRawTransaction\) failed on replay/,
    );
  });
});
