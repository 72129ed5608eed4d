import { CachedDeploymentFailed, EmulatorChain } from "./emulator-chain.ts";
import { ChainJournal, JournalError, type Eip1193Like } from "./journal.ts";
import { createInProcessProvider, rebuildNetwork } from "./provider.ts";
import { parseChainExport } from "./state.ts";
import type { Chain, ChainOptions } from "./types.ts";
import { viem } from "./viem-late.ts";

// Starting a chain: attach to a node, rebuild one from a state export, or deploy on a fresh network.

export async function startChain(options: ChainOptions): Promise<Chain> {
  const progress = (step: string) => options.onProgress?.(step);
  progress("starting network");
  let chain: EmulatorChain;
  if (options.rpcUrl) {
    if (options.restore)
      throw new JournalError(
        "an attached chain cannot load a chain from a state export; start the emulator with a chain of its own",
      );
    const transport = viem().http(options.rpcUrl, { retryCount: 0, timeout: 30_000 })({});
    const inner: Eip1193Like = { request: (args) => transport.request(args as any) };
    chain = new EmulatorChain(options, inner, false);
    chain.rpcUrl = options.rpcUrl;
  } else if (options.restore) {
    const doc = parseChainExport(options.restore);
    const built = await rebuildNetwork(doc, progress);
    chain = new EmulatorChain(options, built.journal, true);
    try {
      await chain.init(options);
      if (doc.chain_id !== chain.chainId)
        throw new JournalError(`the state's chain has chain id ${doc.chain_id}, this chain ${chain.chainId}`);
      chain.restored(doc, built);
      // Served only once rebuilt: a wallet never sees the chain half replayed.
      const port = options.rpcPort === undefined ? 0 : options.rpcPort;
      if (port !== false) await chain.serve(port, options.rpcGuard);
    } catch (err) {
      await chain.close().catch(() => undefined);
      throw err;
    }
    progress("ready");
    return chain;
  } else {
    const journal = await ChainJournal.over(await createInProcessProvider(options.startTime));
    chain = new EmulatorChain(options, journal, true);
    chain.startedAt(options.startTime);
    const port = options.rpcPort === undefined ? 0 : options.rpcPort;
    if (port !== false) await chain.serve(port, options.rpcGuard);
  }
  try {
    await chain.init(options);
    await chain.deployAll(progress);
  } catch (err) {
    await chain.close().catch(() => undefined);
    // Dropped from the cache: the next network deploys (chain/deploy-cache.ts).
    if (err instanceof CachedDeploymentFailed) return startChain(options);
    throw err;
  }
  progress("ready");
  return chain;
}
