import {
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  http as viemHttp,
  type Hex,
  type TransactionReceipt,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { waitForReceipt } from "../chain/index.ts";

// A test wallet that signs the calldata the API returns (approve, purchase,
// burn …) and sends it over JSON-RPC, as an end user's wallet does: against the
// emulator's chain, or with the partner's funded test wallet against the
// sandbox's chain. Conformance commerce checks spend with it.

export interface Call {
  to: `0x${string}`;
  data: Hex;
  value?: string;
  kind?: string;
}

export interface TestWallet {
  address: `0x${string}`;
  /** Its key, for off-chain signatures (x402 authorizations, typed data); never sent to the target. */
  privateKey: Hex;
  rpcUrl: string;
  /** Signs and sends each call in order, waiting for each receipt; throws naming the call that reverted. */
  send(calls: readonly Call[]): Promise<TransactionReceipt>;
  /** ERC-20 balance in atomic units. */
  tokenBalance(token: `0x${string}`): Promise<bigint>;
}

export async function openWallet(privateKey: Hex, rpcUrl: string): Promise<TestWallet> {
  const probe = createPublicClient({ transport: viemHttp(rpcUrl) });
  const chainId = await probe.getChainId();
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const account = privateKeyToAccount(privateKey);
  const wallet = createWalletClient({ account, chain, transport: viemHttp(rpcUrl) });
  const reader = createPublicClient({ chain, transport: viemHttp(rpcUrl) });
  return {
    address: account.address,
    privateKey,
    rpcUrl,
    async send(calls) {
      let receipt: TransactionReceipt | undefined;
      for (const call of calls) {
        const hash = await wallet.sendTransaction({
          to: call.to,
          data: call.data,
          ...(call.value && call.value !== "0" ? { value: BigInt(call.value) } : {}),
        });
        receipt = await waitForReceipt(reader, hash);
        if (receipt.status !== "success") throw new Error(`${call.kind ?? "call"} to ${call.to} reverted (tx ${hash})`);
      }
      if (!receipt) throw new Error("no call to send");
      return receipt;
    },
    tokenBalance: (token) =>
      reader.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [account.address] }),
  };
}
