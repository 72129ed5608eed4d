import { keccak256, toHex } from "../../../../chain/evm.ts";
import { conflict, notFound } from "../../../pipeline/errors.ts";
import type { Services } from "../../../pipeline/services.ts";
import { setOwn } from "../../../state/own.ts";
import { usdc } from "../../../../contract/money.ts";
import { publishBuilt } from "../../../events/publish.ts";
import { PAYOUT_PAYLOADS } from "../payloads.ts";
import { PAYOUT_STATEMENT, type PayoutEvent } from "../../../../contract/lifecycles/payout-statement.ts";
import { begin, startState, transition } from "../../../pipeline/lifecycle.ts";
import { activeWallet } from "../wallet/wallets.ts";
import {
  accountModel,
  byProduct,
  figures,
  openPeriodStart,
  pct,
  revenueState,
  REVENUE_SHARE_BPS,
  totals,
  type PayoutStatement,
} from "./revenue.ts";
import { isoOf } from "../../../../contract/time.ts";
import { COUNTERS } from "../../../state/ids.ts";

// Payout statements (the operator's side of revenue share): the open period of
// a TIER account closes into a frozen PENDING statement (payout.statement_ready),
// and a statement is paid (PAID with a tx hash, payout.paid). With the chain up,
// paying mints the USDC to the payout wallet so the hash is a real transaction.

function close(s: Services, accountId: string): PayoutStatement {
  const from = openPeriodStart(s, accountId);
  const to = s.clock.now();
  if (from >= to)
    throw conflict(
      "period_empty",
      `The open period of ${accountId} started at ${isoOf(from)}; advance the clock before closing it`,
    );
  const f = figures(s, accountId, from, to, REVENUE_SHARE_BPS);
  const t = totals(f);
  const wallet = activeWallet(s, "payout_wallets", accountId);
  const statement: PayoutStatement = {
    payout_id: s.store.nextId(COUNTERS.mysteryPayout),
    period: { kind: "QUARTERLY", from: isoOf(from), to: isoOf(to) },
    qualifying_packs: f.packs,
    gross_usdc: usdc(t.gross),
    sellback_count: f.sellbackCount,
    sellback_usdc: usdc(f.sellback),
    net_usdc: usdc(t.net),
    revenue_share_bps: REVENUE_SHARE_BPS,
    revenue_share_pct: pct(REVENUE_SHARE_BPS),
    revenue_share_usdc: usdc(t.share),
    fees_usdc: usdc(f.fees),
    rip_retained_usdc: usdc(t.retained),
    by_product: byProduct(f, true),
    payout_usdc: usdc(t.share),
    payout_micros: String(t.share),
    status: startState(PAYOUT_STATEMENT, "close"),
    payout_address: wallet?.address ?? null,
    chain: wallet?.chain ?? "base",
    tx_hash: null,
    paid_at: null,
    created_at: s.clock.nowIso(),
  };
  const rev = revenueState(s);
  rev.statements[statement.payout_id] = { account_id: accountId, statement };
  setOwn(rev.period_start, accountId, statement.period.to);
  begin(PAYOUT_STATEMENT, statement, "close", { now: s.clock.now(), emit: publish(s, accountId, statement) });
  return statement;
}

/** Closes the open period of one TIER account (404 unknown account, 409 POOL account or empty period). */
export function closeAccountPeriod(s: Services, accountId: string): PayoutStatement {
  const model = accountModel(s, accountId);
  if (model === null) throw notFound(`No partner account ${accountId}`);
  if (model !== "TIER") throw conflict("not_tier_partner", `${accountId} is a POOL-model account: no revenue share`);
  return close(s, accountId);
}

/** Closes the open period of every TIER account whose period is not empty. */
export function closeAllPeriods(s: Services): PayoutStatement[] {
  const accounts = [...new Set(Object.values(s.store.state.keys).map((k) => k.account_id))].sort();
  return accounts
    .filter((a) => accountModel(s, a) === "TIER" && openPeriodStart(s, a) < s.clock.now())
    .map((a) => close(s, a));
}

/** The statement a payment is for: 404 when there is none, 409 unless PENDING. */
export function pendingStatement(s: Services, id: number | null, raw: string | undefined): PayoutStatement {
  const row = id === null ? undefined : revenueState(s).statements[id];
  if (!row) throw notFound(`No payout ${raw}`);
  if (row.statement.status !== "PENDING")
    throw conflict("invalid_status", `Payout ${id} is ${row.statement.status}; only PENDING can be paid`);
  return row.statement;
}

/** Pays a PENDING statement (see pendingStatement): with the chain up, mints the USDC to the payout wallet so the hash is a real transaction. */
export async function payStatement(
  s: Services,
  id: number,
  given: `0x${string}` | undefined,
): Promise<PayoutStatement> {
  const row = revenueState(s).statements[id]!;
  const wallet = activeWallet(s, "payout_wallets", row.account_id);
  const address = row.statement.payout_address ?? wallet?.address ?? null;
  if (!address)
    throw conflict(
      "payout_wallet_not_set",
      `Account ${row.account_id} has no payout wallet (PUT /api/v1/mystery/payout-wallet)`,
    );
  let hash: string | null = given ?? null;
  const amount = BigInt(row.statement.payout_micros);
  if (!hash && s.chainHost && amount > 0n)
    hash = (await s.chainHost.gateway.faucet(address as `0x${string}`, { usdc: amount })).usdcTx ?? null;
  hash ??= keccak256(toHex(`payout:${row.account_id}:${id}`));
  // Re-read after the await: restore/reset may have replaced the state.
  const now = revenueState(s).statements[id];
  const changed = () => conflict("invalid_status", `Payout ${id} changed while it was being paid`);
  if (!now) throw changed();
  transition(PAYOUT_STATEMENT, now.statement, "pay", {
    now: s.clock.now(),
    refuse: changed,
    patch: { payout_address: address, chain: now.statement.chain ?? "base", tx_hash: hash, paid_at: s.clock.nowIso() },
    emit: publish(s, now.account_id, now.statement),
  });
  return now.statement;
}

/** A statement's event, carrying the statement as it is after the move (../payloads.ts). */
const publish = (s: Services, accountId: string, statement: PayoutStatement) => (event: PayoutEvent) =>
  publishBuilt(s, accountId, PAYOUT_PAYLOADS, event, statement);
