/**
 * Chain micro-benchmark: start + deploy time, and purchase → reveal latency
 * (approve + purchase + VRF fulfil, in-process provider and over HTTP JSON-RPC).
 *
 *   npx tsx bench/chain.ts [iterations=20]
 */
import { createWalletClient, encodeFunctionData, http, parseEventLogs } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { mysteryPoolAbi, startChain, usdStablecoinAbi, type Chain } from "../chain/index.ts";

const iterations = Number(process.argv[2] ?? 20);

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `median ${q(0.5).toFixed(1)} ms  p90 ${q(0.9).toFixed(1)} ms  min ${s[0]!.toFixed(1)} ms  max ${s.at(-1)!.toFixed(1)} ms`;
}

async function purchaseReveal(chain: Chain, i: number, overHttp: boolean): Promise<number> {
  const user = chain.endUsers[i % chain.endUsers.length]!;
  const wallet = overHttp
    ? createWalletClient({
        account: privateKeyToAccount(user.privateKey),
        chain: chain.viemChain,
        transport: http(chain.rpcUrl!),
      })
    : chain.walletClientFor(user);
  const t0 = performance.now();
  const approve = await wallet.sendTransaction({
    to: chain.addresses.stablecoin,
    data: encodeFunctionData({
      abi: usdStablecoinAbi,
      functionName: "approve",
      args: [chain.addresses.mysteryPool, 25_000_000n],
    }),
    chain: chain.viemChain,
    account: wallet.account!,
  });
  await chain.publicClient.waitForTransactionReceipt({ hash: approve });
  const hash = await wallet.sendTransaction({
    to: chain.addresses.mysteryPool,
    data: encodeFunctionData({ abi: mysteryPoolAbi, functionName: "purchase", args: [1] }),
    chain: chain.viemChain,
    account: wallet.account!,
  });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  const [req] = parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRequested", logs: receipt.logs });
  const { success } = await chain.fulfillVrf(req!.args.requestId);
  if (!success) throw new Error("reveal failed");
  return performance.now() - t0;
}

const startTimes: number[] = [];
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  const c = await startChain({ seed: i, startTime: Date.UTC(2025, 0, 1), rpcPort: 0 });
  startTimes.push(performance.now() - t0);
  await c.close();
}
console.log(
  `chain start + deploy (3 runs, first includes module load): ${startTimes.map((t) => t.toFixed(0)).join(" / ")} ms`,
);

const chain = await startChain({ seed: 1, startTime: Date.UTC(2025, 0, 1), rpcPort: 0 });
const inProc: number[] = [];
const overHttp: number[] = [];
for (let i = 0; i < iterations; i++) inProc.push(await purchaseReveal(chain, i, false));
for (let i = 0; i < iterations; i++) overHttp.push(await purchaseReveal(chain, i, true));
console.log(`purchase → reveal, in-process viem (${iterations}x): ${stats(inProc)}`);
console.log(`purchase → reveal, HTTP JSON-RPC wallet (${iterations}x): ${stats(overHttp)}`);
const t0 = performance.now();
await chain.setTime(Date.UTC(2025, 0, 2));
console.log(`setTime (mines one block): ${(performance.now() - t0).toFixed(1)} ms`);
await chain.close();
