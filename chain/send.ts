import type { Account, Chain as ViemChain, Hex, PublicClient, TransactionReceipt, Transport, WalletClient } from "viem";
import type { FixtureAccount } from "./accounts.ts";

// Send-and-wait, one policy for every transaction the project sends (the chain's own deployment,
// the areas' relayer and operator writes, the harness's and scenarios' wallets): the receipt is read
// at once (an automining node has it), else polled every RECEIPT_POLL_MS up to RECEIPT_TIMEOUT_MS.

export const RECEIPT_POLL_MS = 20;
export const RECEIPT_TIMEOUT_MS = 60_000;

export class TxFailedError extends Error {
  constructor(
    message: string,
    readonly receipt?: TransactionReceipt,
  ) {
    super(message);
    this.name = "TxFailedError";
  }
}

type Reader = Pick<PublicClient, "getTransactionReceipt">;

/**
 * A gas limit with a quarter's headroom over the node's estimate, as wallets pad theirs: the state can change
 * between the estimate and the block (a VRF fulfilment mined first makes a purchase's storage writes dearer), and
 * an exact estimate then runs out of gas. Every transaction the project sends takes its limit from here.
 */
export async function paddedGas(
  reader: Pick<PublicClient, "estimateGas">,
  tx: { account: Account | `0x${string}`; to: `0x${string}`; data?: Hex; value?: bigint },
): Promise<bigint> {
  // Unprepared: the gas does not depend on the nonce or the fees, which the send fills in itself (three reads fewer).
  const estimate = await reader.estimateGas({ ...tx, prepare: false });
  return estimate + estimate / 4n;
}

/** A transaction the chain no longer holds: a restore, an import or an `evm_revert` took it back before its receipt was read. */
export class TxUndoneError extends Error {
  constructor(hash: Hex) {
    super(
      `chain: transaction ${hash} was undone: the chain was taken back (a restore, import or revert) before it was read`,
    );
    this.name = "TxUndoneError";
  }
}

/**
 * The mined receipt of `hash` (a reverted one included), waiting by the one policy. `undone` says whether the
 * chain was taken back since the transaction was sent: then no receipt will come, and the wait ends at once
 * instead of running out its 60 s (a VRF fulfilment racing a restore hung that long).
 */
export async function waitForReceipt(
  reader: Reader,
  hash: Hex,
  undone: () => boolean = () => false,
): Promise<TransactionReceipt> {
  // Wall time: this waits on the node's own pace, not on the emulator's virtual clock.
  const deadline = performance.now() + RECEIPT_TIMEOUT_MS;
  for (;;) {
    const receipt = await receiptOf(reader, hash);
    if (receipt) return receipt;
    if (undone()) throw new TxUndoneError(hash);
    if (performance.now() > deadline)
      throw new Error(`chain: no receipt for ${hash} after ${RECEIPT_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
  }
}

/** The mined receipt, or null when the node does not know the hash (no wait). */
export async function receiptOf(
  reader: Pick<PublicClient, "getTransactionReceipt">,
  hash: Hex,
): Promise<TransactionReceipt | null> {
  try {
    return await reader.getTransactionReceipt({ hash });
  } catch {
    return null;
  }
}

/** `receipt` when it succeeded; a reverted one throws TxFailedError naming `label`. */
export function requireSuccess(receipt: TransactionReceipt, label: string): TransactionReceipt {
  if (receipt.status !== "success")
    throw new TxFailedError(`chain: transaction reverted: ${label} (${receipt.transactionHash})`, receipt);
  return receipt;
}

export interface Sender {
  publicClient: Reader & Pick<PublicClient, "estimateGas">;
  viemChain: ViemChain;
  walletClientFor(account: FixtureAccount): WalletClient<Transport, ViemChain, Account>;
  /** How many times the chain was taken back (restore, import, revert): a wait that sees it change ends. */
  rollbacks?(): number;
}

export interface TxRequest {
  to: `0x${string}`;
  data?: Hex;
  value?: bigint;
  gas?: bigint;
}

/** Sends a transaction from a fixture account and waits for it (a reverted tx is returned, not thrown). */
export async function sendAndWait(chain: Sender, from: FixtureAccount, tx: TxRequest): Promise<TransactionReceipt> {
  const wallet = chain.walletClientFor(from);
  const since = chain.rollbacks?.();
  // Only the request's own fields: a prepare answer's call carries more (a decimal `value`, a description).
  const call = { to: tx.to, data: tx.data, ...(tx.value ? { value: tx.value } : {}) };
  const gas = tx.gas ?? (await paddedGas(chain.publicClient, { ...call, account: wallet.account }));
  const hash = await wallet.sendTransaction({ ...call, gas, account: wallet.account, chain: chain.viemChain });
  return waitForReceipt(chain.publicClient, hash, () => chain.rollbacks?.() !== since);
}
