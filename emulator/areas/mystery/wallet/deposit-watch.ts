import { generation, replaced } from "../../../pipeline/generation.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import type { Services } from "../../../pipeline/services.ts";
import { tupleParts } from "../../../state/tuple-key.ts";
import { runtimeSlot } from "../../../pipeline/runtime.ts";
import {
  blockHashAt,
  chainOf,
  contentKey,
  headBlock,
  historyKey,
  transactionBlockHash,
  usdcTransfersTo,
} from "../chain-io.ts";
import { endUser } from "./end-users.ts";
import { books, creditDeposit, undoDeposit, type DepositAddressRow, type DepositRow } from "./ledger.ts";

// Deposits that arrive on chain (docs/mystery.md "Deposits"): USDC sent to an end user's dedicated deposit address
// is credited to the custodial balance once mined (CONFIRMED at one block; the live service also shows PENDING and
// SEEN while it waits for confirmations and bridges). The scan resumes after the last block read (its number and
// hash kept in the books, so a restart, a snapshot or a reset agrees with the chain, and a chain gone back is
// noticed), and a transfer is credited once: its transaction hash and log index are the deposit's identity. The
// books follow the chain they were scanned from: a chain gone back undoes the credits of blocks it no longer
// holds, and an address added after the scan moved on is looked up from the deployment once.

/** Whether any deposit address exists (the worker then watches new blocks for transfers to it). */
export const watchingDeposits = (s: Services): boolean => Object.keys(books(s).addresses).length > 0;

/** Whose a deposit address is: its row says (a user id may hold the key's separator); older rows, the key. */
function ownerOf(key: string, a: DepositAddressRow): [string, string] {
  if (a.account_id !== undefined && a.user_id !== undefined) return [a.account_id, a.user_id];
  const [account, user] = tupleParts(key, 2);
  return [account!, user!];
}

/** Credits every USDC transfer to a deposit address mined since the last scan; one scan at a time. */
export function creditChainDeposits(s: Services): Promise<void> {
  if (!s.chainHost || !watchingDeposits(s)) return Promise.resolve();
  return withKeyLock(s, "mystery:deposit-scan", () => scan(s));
}

async function scan(s: Services): Promise<void> {
  // A reset, restore or import while this scan reads the chain: what it read belongs to the chain replaced.
  const since = generation(s);
  const chain = chainOf(s);
  const before = books(s);
  const entries = Object.entries(before.addresses);
  const unscanned = entries.filter(([, a]) => a.scanned !== true);
  const scannedAt = contentKey(chain);
  // Read before the head, as the content key: a revert after it moves it, and the next scan checks by a call.
  const past = historyKey(chain);
  const head = await headBlock(chain);
  // Nothing mined since the last scan and no new address (the common read): one call, no scan.
  if (head.hash === before.deposit_scan_hash && unscanned.length === 0) return;
  // Only blocks without a transaction since the last scan (the clock's), on the chain it scanned: no transfer in
  // them and nothing taken back; the scan moves to the head without a call.
  const memo = s.runtime.of(SCANNED);
  const now = contentKey(chain);
  if (now !== null && now === memo.key && memo.hash === before.deposit_scan_hash && unscanned.length === 0) {
    if (replaced(s, since)) return;
    const b = books(s);
    b.deposit_scan_block = memo.block = String(head.number);
    b.deposit_scan_hash = memo.hash = head.hash;
    return;
  }
  // Resume after the last block scanned, unless the chain no longer holds it (a snapshot reverted over JSON-RPC):
  // then its heights were reused, every credit is checked against the chain, and everything is scanned again.
  // The block this process last saw as the head, on a chain nothing took back since, is still there: no call.
  const last = before.deposit_scan_block === undefined ? null : BigInt(before.deposit_scan_block);
  const seen =
    past !== null &&
    memo.past === past &&
    memo.block === before.deposit_scan_block &&
    memo.hash === (before.deposit_scan_hash ?? null);
  const same = last !== null && (seen || (await blockHashAt(chain, last)) === (before.deposit_scan_hash ?? null));
  const gone = same || last === null ? [] : await creditsOffChain(s, before.deposits);
  const from = (same && last !== null ? last : chain.deployBlock) + 1n;
  const watched = entries.filter(([, a]) => a.scanned === true).map(([, a]) => a.address as `0x${string}`);
  const fresh = unscanned.map(([, a]) => a.address as `0x${string}`);
  const logs = [
    ...(watched.length ? await usdcTransfersTo(chain, watched, from, head.number) : []),
    ...(fresh.length ? await usdcTransfersTo(chain, fresh, chain.deployBlock + 1n, head.number) : []),
  ];
  if (replaced(s, since)) return;
  const b = books(s);
  for (const id of gone) {
    const row = b.deposits.find((d) => d.id === id);
    if (!row || row.status !== "CONFIRMED") continue;
    undoDeposit(s, row, endUser(s, row.account_id, { external_user_id: row.user_id, wallet_address: null }));
  }
  const owners = new Map(Object.entries(b.addresses).map(([key, a]) => [a.address.toLowerCase(), ownerOf(key, a)]));
  for (const log of logs) {
    const owner = owners.get(String(log.args.to).toLowerCase());
    const amount = log.args.value ?? 0n;
    if (!owner || amount === 0n) continue;
    const known = (d: DepositRow) =>
      d.status === "CONFIRMED" && d.tx_hash === log.transactionHash && d.log_index === log.logIndex;
    if (b.deposits.some(known)) continue;
    const [acct, userId] = owner;
    const user = endUser(s, acct, { external_user_id: userId, wallet_address: null });
    creditDeposit(s, acct, user, amount, {
      txHash: log.transactionHash,
      logIndex: log.logIndex,
      blockHash: log.blockHash,
    });
  }
  // Only the rows this scan looked up: one added while it read is looked up by the next.
  for (const [key] of unscanned) if (b.addresses[key]) b.addresses[key].scanned = true;
  b.deposit_scan_block = String(head.number);
  b.deposit_scan_hash = head.hash;
  Object.assign(memo, { key: scannedAt, past, block: String(head.number), hash: head.hash });
}

/**
 * The last scan's head (number and hash) and the chain's contents and past (`contentKey`, `historyKey`) read before
 * that head: while the past key stays, that block is still in the chain.
 */
const SCANNED = runtimeSlot(
  "mystery deposit scan",
  (): { key: string | null; past: string | null; block: string | null; hash: string | null } => ({
    key: null,
    past: null,
    block: null,
    hash: null,
  }),
);

/** The confirmed on-chain deposits whose transaction is no longer in the block that credited it (or at all). */
async function creditsOffChain(s: Services, deposits: readonly DepositRow[]): Promise<number[]> {
  const chain = chainOf(s);
  const gone: number[] = [];
  for (const d of deposits) {
    if (d.status !== "CONFIRMED" || d.log_index === undefined) continue;
    const at = await transactionBlockHash(chain, d.tx_hash as `0x${string}`);
    // Rows of older state files lack the block: the transaction still mined counts as still there.
    if (at === null || (d.block_hash !== undefined && at !== d.block_hash)) gone.push(d.id);
  }
  return gone;
}
