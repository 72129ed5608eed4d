import {
  publicActions,
  type Account,
  type Chain as ViemChain,
  type PublicActions,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
} from "viem";
import type { Chain } from "../../../chain/index.ts";

// The credits area's reach into the chain: the x402 facilitator signs and settles as the relayer.

export type RelayerClient = WalletClient<Transport, ViemChain, Account> & PublicActions<Transport, ViemChain, Account>;

/** The relayer's wallet with read actions: what x402's EVM facilitator signs and settles with. */
export function relayerClient(chain: Chain): RelayerClient {
  return chain.walletClientFor(chain.relayer).extend(publicActions);
}

/** The receipt of a settlement transaction (throws when the node does not know it). */
export function settlementReceipt(chain: Chain, hash: `0x${string}`): Promise<TransactionReceipt> {
  return chain.publicClient.getTransactionReceipt({ hash });
}
