import { z } from "zod";
import { address, count, hash32, int256, isoTime, ownRecord, uint } from "../../../state/fields.ts";
import { defineSlice } from "../../../state/slices.ts";
import { keccak256, toHex } from "../../../../chain/evm.ts";
import { derivedAddress } from "./addresses.ts";
import { tupleKey } from "../../../state/tuple-key.ts";
import type { Services } from "../../../pipeline/services.ts";
import type { UserWalletRef } from "../../../pipeline/user-wallet-port.ts";
import type { EndUserRow } from "../state.ts";
import { usdc } from "../../../../contract/money.ts";
import { publishBuilt } from "../../../events/publish.ts";
import { PURCHASE_SIDE_PAYLOADS } from "../payloads.ts";
import { DEPOSIT_STATUSES, LEDGER_ENTRY_TYPES, type Deposit, type LedgerEntry } from "../../../../contract/index.ts";
import { COUNTERS } from "../../../state/ids.ts";

// The custodial wallet's books (docs/mystery.md): a ledger entry for every
// change of an end user's balance or reservation, the deposits that credited
// it, and per-user deposit addresses. Kept in a store slice of its own
// ("mystery-wallet") so the area's main slice keeps its shape; plain JSON,
// re-read on every use like every slice.

export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

export interface LedgerRow {
  id: number;
  account_id: string;
  /** EndUserRow.external_user_id (a `wallet:0x…` id for wallet-only users). */
  user_id: string;
  entry_type: LedgerEntryType;
  /** Signed micros: the change of the user's available balance (HOLD_SETTLE: of the balance). */
  amount: string;
  balance_after: string;
  reserved_after: string;
  source: string;
  source_id: string | null;
  description: string;
  created_at: string;
}

export interface DepositAddressRow {
  address: string;
  created_at: string;
  account_id?: string;
  user_id?: string;
  /**
   * Whether the chain was scanned for this address from the deployment on: the scan position is shared, so an
   * address added later is looked up from the start once (USDC sent to it before the row existed). Absent: not yet.
   */
  scanned?: boolean;
}

export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

export interface DepositRow {
  id: number;
  account_id: string;
  user_id: string;
  chain_in: string;
  token_in: string;
  amount_micros: string;
  tx_hash: string;
  /** The Transfer log's index in its transaction (deposits seen on chain; the fund control action has none). */
  log_index?: number;
  /** The block that mined it (deposits seen on chain): a chain that no longer holds it undoes the credit. */
  block_hash?: string;
  status: DepositStatus;
  created_at: string;
  confirmed_at: string | null;
}

export interface WalletBooks {
  entries: LedgerRow[];
  deposits: DepositRow[];
  /** userKey(account, user_id) → dedicated deposit address, and whose it is (rows of older state files lack it). */
  addresses: Record<string, DepositAddressRow>;
  /** userKey(account, user_id) → wallet id (assigned on first reference). */
  wallet_ids: Record<string, number>;
  /** The last block scanned for USDC sent to deposit addresses (decimal; absent: none scanned yet). */
  deposit_scan_block?: string;
  /** That block's hash: another hash at that height means the chain went back and the scan starts over. */
  deposit_scan_hash?: string;
}

const BOOKS_SLICE = defineSlice<WalletBooks>({
  name: "mystery-wallet",
  init: () => ({ entries: [], deposits: [], addresses: {}, wallet_ids: {} }),
  // Every field in full (issue 37: a deposit_scan_block "abc" once made every wallet read a 500).
  schema: z.strictObject({
    entries: z.array(
      z.strictObject({
        id: count,
        account_id: z.string(),
        user_id: z.string(),
        entry_type: z.enum(LEDGER_ENTRY_TYPES),
        amount: int256,
        balance_after: int256,
        reserved_after: int256,
        source: z.string(),
        source_id: z.string().nullable(),
        description: z.string(),
        created_at: isoTime,
      }),
    ),
    deposits: z.array(
      z.strictObject({
        id: count,
        account_id: z.string(),
        user_id: z.string(),
        chain_in: z.string(),
        token_in: z.string(),
        amount_micros: uint,
        tx_hash: hash32,
        log_index: count.optional(),
        block_hash: hash32.optional(),
        status: z.enum(DEPOSIT_STATUSES),
        created_at: isoTime,
        confirmed_at: isoTime.nullable(),
      }),
    ),
    addresses: ownRecord(
      z.strictObject({
        address,
        created_at: isoTime,
        account_id: z.string().optional(),
        user_id: z.string().optional(),
        scanned: z.boolean().optional(),
      }),
    ),
    wallet_ids: ownRecord(count),
    deposit_scan_block: uint.optional(),
    deposit_scan_hash: hash32.optional(),
  }),
});

export const books = (s: Services): WalletBooks => s.store.slice(BOOKS_SLICE);

/** The books' key of an end user (state/tuple-key.ts: unambiguous, and the `${account}\u0000${user}` of older files). */
export const userKey = (accountId: string, userId: string): string => tupleKey(accountId, userId);

export interface LedgerChange {
  type: LedgerEntryType;
  /** Signed micros (see LedgerRow.amount). */
  amount: bigint;
  /** How much the balance itself moved (HOLD / HOLD_RELEASE move only the reservation). */
  balanceDelta: bigint;
  /** How much the reservation moved. */
  reservedDelta: bigint;
  source: string;
  sourceId: string | number | null;
  description: string;
}

/**
 * Records a change already applied to `user`. The first entry of a user whose
 * balance did not start at zero (fixture balances) is preceded by an opening
 * ADJUSTMENT, so balance_after always adds up from the entries.
 */
export function recordLedger(s: Services, accountId: string, user: EndUserRow, change: LedgerChange): LedgerRow {
  const b = books(s);
  const now = s.clock.nowIso();
  const hasAny = b.entries.some((e) => e.account_id === accountId && e.user_id === user.external_user_id);
  if (!hasAny) {
    const balanceBefore = BigInt(user.balance_micros) - change.balanceDelta;
    if (balanceBefore !== 0n) {
      const reservedBefore = BigInt(user.reserved_micros) - change.reservedDelta;
      b.entries.push({
        id: s.store.nextId(COUNTERS.mysteryLedger),
        account_id: accountId,
        user_id: user.external_user_id,
        entry_type: "ADJUSTMENT",
        amount: String(balanceBefore),
        balance_after: String(balanceBefore),
        reserved_after: String(reservedBefore),
        source: "opening_balance",
        source_id: null,
        description: "Opening balance (seeded end user)",
        created_at: now,
      });
    }
  }
  const row: LedgerRow = {
    id: s.store.nextId(COUNTERS.mysteryLedger),
    account_id: accountId,
    user_id: user.external_user_id,
    entry_type: change.type,
    amount: String(change.amount),
    balance_after: user.balance_micros,
    reserved_after: user.reserved_micros,
    source: change.source,
    source_id: change.sourceId === null ? null : String(change.sourceId),
    description: change.description,
    created_at: now,
  };
  b.entries.push(row);
  return row;
}

/** What each kind of hold movement does, per micro moved: to the available amount, the balance, the reservation. */
export const MOVES = {
  HOLD: { amount: -1n, balance: 0n, reserved: 1n, text: (what: string) => `Hold for ${what}` },
  HOLD_RELEASE: { amount: 1n, balance: 0n, reserved: -1n, text: (what: string) => `Hold released: ${what} failed` },
  HOLD_SETTLE: {
    amount: -1n,
    balance: -1n,
    reserved: -1n,
    text: (what: string) => `Hold settled: ${what} sent on chain`,
  },
  REFUND_CREDIT: { amount: 1n, balance: 1n, reserved: 0n, text: (what: string) => `Refund of ${what}` },
} as const;
export type Move = keyof typeof MOVES;

/** Records a hold movement of `micros` already applied to `user`, for `ref` (a purchase of this area or another's). */
function ledgerMove(
  s: Services,
  acct: string,
  user: EndUserRow,
  type: Move,
  micros: bigint,
  ref: UserWalletRef,
): LedgerRow {
  const m = MOVES[type];
  return recordLedger(s, acct, user, {
    type,
    amount: m.amount * micros,
    balanceDelta: m.balance * micros,
    reservedDelta: m.reserved * micros,
    source: ref.source,
    sourceId: ref.id,
    description: m.text(ref.label),
  });
}

/** Applies a movement of `micros` to `user`'s balance and reservation and records it: the one way a hold changes. */
export function applyMove(
  s: Services,
  acct: string,
  user: EndUserRow,
  type: Move,
  micros: bigint,
  ref: UserWalletRef,
): LedgerRow {
  user.balance_micros = String(BigInt(user.balance_micros) + MOVES[type].balance * micros);
  user.reserved_micros = String(BigInt(user.reserved_micros) + MOVES[type].reserved * micros);
  return ledgerMove(s, acct, user, type, micros, ref);
}

/** How the ledger names a custodial mystery purchase. */
export const purchaseRef = (id: number): UserWalletRef => ({ source: "purchase", id, label: `purchase ${id}` });

/** An end user's ledger, newest first. */
export function userLedger(s: Services, accountId: string, userId: string): LedgerRow[] {
  return books(s)
    .entries.filter((e) => e.account_id === accountId && e.user_id === userId)
    .sort((a, b) => b.id - a.id);
}

/** An end user's deposits, newest first, and whether the user is linked to a deposit identity yet. */
export function userDeposits(
  s: Services,
  accountId: string,
  userId: string,
): { deposits: DepositRow[]; linked: boolean } {
  const b = books(s);
  const deposits = b.deposits
    .filter((d) => d.account_id === accountId && d.user_id === userId)
    .sort((x, y) => y.id - x.id);
  // Linked once the user has a deposit identity: a dedicated address or a credited deposit.
  return { deposits, linked: deposits.length > 0 || userKey(accountId, userId) in b.addresses };
}

/** Deterministic dedicated deposit address of an end user (created on first request). */
export function depositAddress(s: Services, accountId: string, userId: string): DepositAddressRow {
  const b = books(s);
  const k = userKey(accountId, userId);
  return (b.addresses[k] ??= {
    // Rows of older state files keep the address they were given (derived from `deposit:${account}:${user}`).
    address: derivedAddress("deposit", accountId, userId),
    created_at: s.clock.nowIso(),
    account_id: accountId,
    user_id: userId,
  });
}

export function walletId(s: Services, accountId: string, userId: string): number {
  const b = books(s);
  return (b.wallet_ids[userKey(accountId, userId)] ??= s.store.nextId(COUNTERS.mysteryWalletId));
}

/**
 * A confirmed USDC deposit on Base (the custodial fund control action, or a transfer to the user's deposit
 * address seen on chain, with its transaction and log index): applies
 * the credit to `user`, records the DEPOSIT_CREDIT entry and the CONFIRMED
 * deposit row, and publishes deposit.credited.
 */
export function creditDeposit(
  s: Services,
  accountId: string,
  user: EndUserRow,
  amount: bigint,
  onChain?: { txHash: string; logIndex: number; blockHash: string },
): DepositRow {
  const id = s.store.nextId(COUNTERS.mysteryDeposit);
  const now = s.clock.nowIso();
  const row: DepositRow = {
    id,
    account_id: accountId,
    user_id: user.external_user_id,
    chain_in: "base",
    token_in: "USDC",
    amount_micros: String(amount),
    tx_hash: onChain?.txHash ?? keccak256(toHex(`deposit-tx:${accountId}:${id}`)),
    ...(onChain ? { log_index: onChain.logIndex, block_hash: onChain.blockHash } : {}),
    status: "CONFIRMED",
    created_at: now,
    confirmed_at: now,
  };
  user.balance_micros = String(BigInt(user.balance_micros) + amount);
  books(s).deposits.push(row);
  depositAddress(s, accountId, user.external_user_id);
  recordLedger(s, accountId, user, {
    type: "DEPOSIT_CREDIT",
    amount,
    balanceDelta: amount,
    reservedDelta: 0n,
    source: "deposit",
    sourceId: id,
    description: `USDC deposit ${id} on base`,
  });
  publishBuilt(s, accountId, PURCHASE_SIDE_PAYLOADS, "deposit.credited", row);
  return row;
}

/**
 * Undoes the credit of an on-chain deposit whose block the chain no longer holds (a snapshot reverted over
 * JSON-RPC): the deposit is CANCELLED and an ADJUSTMENT takes its amount back off the balance, which may go
 * below zero when it was already spent (the books say what the chain did).
 */
export function undoDeposit(s: Services, row: DepositRow, user: EndUserRow): void {
  const amount = BigInt(row.amount_micros);
  row.status = "CANCELLED";
  user.balance_micros = String(BigInt(user.balance_micros) - amount);
  recordLedger(s, row.account_id, user, {
    type: "ADJUSTMENT",
    amount: -amount,
    balanceDelta: -amount,
    reservedDelta: 0n,
    source: "deposit_reversal",
    sourceId: row.id,
    description: `USDC deposit ${row.id} undone: its block left the chain`,
  });
}

export function formatLedger(e: LedgerRow): LedgerEntry {
  return {
    id: e.id,
    entry_type: e.entry_type,
    amount: e.amount,
    amount_usdc: usdc(e.amount),
    balance_after: e.balance_after,
    reserved_after: e.reserved_after,
    source: e.source,
    source_id: e.source_id,
    description: e.description,
    created_at: e.created_at,
  };
}

export function formatDeposit(d: DepositRow): Deposit {
  return {
    id: d.id,
    chain_in: d.chain_in,
    token_in: d.token_in,
    amount: usdc(d.amount_micros),
    tx_hash: d.tx_hash,
    status: d.status,
    expected_output: usdc(d.amount_micros),
    created_at: d.created_at,
    confirmed_at: d.confirmed_at,
  };
}
