import {
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  http as viemHttp,
  BaseError,
  decodeErrorResult,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { chainErrorsAbi, paddedGas, waitForReceipt } from "../chain/index.ts";

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
        const tx = {
          to: call.to,
          data: call.data,
          ...(call.value && call.value !== "0" ? { value: BigInt(call.value) } : {}),
        };
        const hash = await wallet.sendTransaction({ ...tx, gas: await paddedGas(reader, { ...tx, account }) });
        receipt = await waitForReceipt(reader, hash);
        if (receipt.status !== "success")
          throw new Error(
            `${call.kind ?? "call"} to ${call.to} reverted: ${await whyReverted(reader, account.address, call, receipt)} (tx ${hash})`,
          );
      }
      if (!receipt) throw new Error("no call to send");
      return receipt;
    },
    tokenBalance: (token) =>
      reader.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [account.address] }),
  };
}

/** Why a mined call reverted: out of gas (all of its limit used), else the error the call raises when replayed on the state before its block. */
export async function whyReverted(
  reader: Pick<PublicClient, "getTransaction" | "call">,
  from: `0x${string}`,
  call: Call,
  receipt: TransactionReceipt,
): Promise<string> {
  const tx = await reader.getTransaction({ hash: receipt.transactionHash });
  if (receipt.gasUsed >= tx.gas) return `out of gas (used all ${tx.gas} of its limit)`;
  try {
    await reader.call({
      account: from,
      to: call.to,
      data: call.data,
      gas: tx.gas,
      ...(call.value && call.value !== "0" ? { value: BigInt(call.value) } : {}),
      blockNumber: receipt.blockNumber - 1n,
    });
    return `no error when replayed before its block (gas used ${receipt.gasUsed} of ${tx.gas})`;
  } catch (err) {
    const data =
      err instanceof BaseError
        ? (err.walk((e) => typeof (e as { data?: unknown }).data === "string") as { data?: Hex } | null)?.data
        : undefined;
    if (data)
      try {
        const d = decodeErrorResult({ abi: chainErrorsAbi, data });
        return `${d.errorName}(${(d.args ?? []).map(String).join(", ")})`;
      } catch {
        return `error data ${data.slice(0, 10)}`;
      }
    return err instanceof BaseError ? err.shortMessage : String(err);
  }
}
