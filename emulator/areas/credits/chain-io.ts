import type { FacilitatorEvmSigner } from "@x402/evm";
import type { TransactionReceipt } from "viem";
import { publicActions } from "../../../chain/viem-late.ts";
import type { Chain } from "../../../chain/index.ts";

// The credits area's reach into the chain: the x402 facilitator signs and settles as the relayer.

/** x402's EVM facilitator signer over the relayer's wallet (with read actions): it verifies and settles with it. */
export async function relayerSigner(chain: Chain): Promise<FacilitatorEvmSigner> {
  // Loaded with the x402 kit, not with the emulator (see x402.ts).
  const { toFacilitatorEvmSigner } = await import("@x402/evm");
  // Transactions go through the chain's provider, which mines them at the virtual clock's time.
  const client = chain.walletClientFor(chain.relayer).extend(publicActions);
  return toFacilitatorEvmSigner({ ...client, address: chain.relayer.address } as unknown as Parameters<
    typeof toFacilitatorEvmSigner
  >[0]);
}

/** The receipt of a settlement transaction (throws when the node does not know it). */
export function settlementReceipt(chain: Chain, hash: `0x${string}`): Promise<TransactionReceipt> {
  return chain.publicClient.getTransactionReceipt({ hash });
}
