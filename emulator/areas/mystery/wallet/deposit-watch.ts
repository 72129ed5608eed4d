import type { Services } from "../../../pipeline/services.ts";
import { blockHashAt, chainOf, headBlock, usdcTransfersTo } from "../chain-io.ts";
import { endUser } from "./end-users.ts";
import { books, creditDeposit, type DepositAddressRow } from "./ledger.ts";

// Deposits that arrive on chain (docs/mystery.md "Deposits"): USDC sent to an end user's dedicated deposit address
// is credited to the custodial balance once mined (CONFIRMED at one block; the live service also shows PENDING and
// SEEN while it waits for confirmations and bridges). The scan resumes after the last block read (its number and
// hash kept in the books, so a restart, a snapshot or a reset agrees with the chain, and a chain gone back is
// noticed), and a transfer is credited once: its transaction hash and log index are the deposit's identity.

/** Whether any deposit address exists (the worker then watches new blocks for transfers to it). */
export const watchingDeposits = (s: Services): boolean => Object.keys(books(s).addresses).length > 0;

/** Whose a deposit address is: its row says (a user id may hold the key's separator); older rows, the key's first part. */
function ownerOf(key: string, a: DepositAddressRow): [string, string] {
  if (a.account_id !== undefined && a.user_id !== undefined) return [a.account_id, a.user_id];
  const cut = key.indexOf("\u0000");
  return [key.slice(0, cut), key.slice(cut + 1)];
}

/** Credits every USDC transfer to a deposit address mined since the last scan. */
export async function creditChainDeposits(s: Services): Promise<void> {
  if (!s.chain || !watchingDeposits(s)) return;
  const chain = chainOf(s);
  const before = books(s);
  const addresses = Object.values(before.addresses).map((a) => a.address as `0x${string}`);
  // Resume after the last block scanned, unless the chain no longer holds it (a snapshot reverted over JSON-RPC):
  // then its heights were reused, and everything is scanned again (a credited transfer is skipped by its identity).
  const head = await headBlock(chain);
  // Nothing mined since the last scan (the common read): one call, no scan.
  if (head.hash === before.deposit_scan_hash) return;
  const last = before.deposit_scan_block === undefined ? null : BigInt(before.deposit_scan_block);
  const same = last !== null && (await blockHashAt(chain, last)) === (before.deposit_scan_hash ?? null);
  const from = (same && last !== null ? last : chain.deployBlock) + 1n;
  const logs = await usdcTransfersTo(chain, addresses, from, head.number);
  // Read again after the wait: the state may have been replaced (reset, import) meanwhile.
  const b = books(s);
  const owners = new Map(Object.entries(b.addresses).map(([key, a]) => [a.address.toLowerCase(), ownerOf(key, a)]));
  for (const log of logs) {
    const owner = owners.get(String(log.args.to).toLowerCase());
    const amount = log.args.value ?? 0n;
    if (!owner || amount === 0n) continue;
    if (b.deposits.some((d) => d.tx_hash === log.transactionHash && d.log_index === log.logIndex)) continue;
    const [acct, userId] = owner;
    const user = endUser(s, acct, { external_user_id: userId, wallet_address: null });
    creditDeposit(s, acct, user, amount, { txHash: log.transactionHash, logIndex: log.logIndex });
  }
  b.deposit_scan_block = String(head.number);
  b.deposit_scan_hash = head.hash;
}
