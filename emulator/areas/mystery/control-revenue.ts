import { keccak256, toHex } from "viem";
import { optString } from "../../control/body.ts";
import type { ControlContext, ControlSpec } from "../../control/route.ts";
import { badRequest, conflict, notFound } from "../../pipeline/errors.ts";
import { withKeyLock } from "../../pipeline/key-lock.ts";
import { ok } from "../../pipeline/route.ts";
import type { Services } from "../../pipeline/services.ts";
import { accountModel, byProduct, figures, openPeriodStart, pct, revenueState, TIER_SHARE_BPS, type PayoutStatement } from "./revenue/revenue.ts";
import { mystery } from "./state.ts";
import { intId } from "../../pipeline/identifiers.ts";
import { emit, isTxHash, usdc } from "./util.ts";
import { own, setOwn } from "../../state/own.ts";

// Operator actions for revenue share: close the open period of a TIER account
// into a frozen PENDING statement (payout.statement_ready), and pay a statement
// (PAID with a tx hash, payout.paid). With the chain up, paying mints the USDC
// to the payout wallet so the hash is a real transaction.

function payoutWallet(s: Services, accountId: string) {
  return own(mystery(s).payout_wallets, accountId)?.find((w) => w.is_active) ?? null;
}

function close(s: Services, accountId: string): PayoutStatement {
  const from = openPeriodStart(s, accountId);
  const to = s.clock.now();
  if (from >= to) throw conflict("period_empty", `The open period of ${accountId} started at ${new Date(from).toISOString()}; advance the clock before closing it`);
  const f = figures(s, accountId, from, to, TIER_SHARE_BPS);
  const wallet = payoutWallet(s, accountId);
  const statement: PayoutStatement = {
    payout_id: s.store.nextId("mystery-payout", 4001),
    period: { kind: "QUARTERLY", from: new Date(from).toISOString(), to: new Date(to).toISOString() },
    qualifying_packs: f.packs,
    gross_usdc: usdc(f.gross),
    sellback_count: f.sellbackCount,
    sellback_usdc: usdc(f.sellback),
    net_usdc: usdc(f.net),
    revenue_share_bps: TIER_SHARE_BPS,
    revenue_share_pct: pct(TIER_SHARE_BPS),
    revenue_share_usdc: usdc(f.share),
    fees_usdc: usdc(f.fees),
    rip_retained_usdc: usdc(f.net - f.share),
    by_product: byProduct(f),
    payout_usdc: usdc(f.share),
    payout_micros: String(f.share),
    status: "PENDING",
    payout_address: wallet?.address ?? null,
    chain: wallet?.chain ?? "base",
    tx_hash: null,
    paid_at: null,
    created_at: s.clock.nowIso(),
  };
  const rev = revenueState(s);
  rev.statements[statement.payout_id] = { account_id: accountId, statement };
  setOwn(rev.period_start, accountId, statement.period.to);
  emit(s, accountId, "payout.statement_ready", String(statement.payout_id), structuredClone(statement) as unknown as Record<string, unknown>);
  return statement;
}

export const revenueControl: ControlSpec[] = [
  {
    method: "POST",
    path: "/mystery/payouts/close",
    describe: "Close the open revenue period into a PENDING payout statement {account_id?} (omitted: every TIER account with a non-empty period); payout.statement_ready",
    handle: (c) => {
      const acct = optString(c.body, "account_id");
      if (acct !== undefined) {
        const model = accountModel(c.services, acct);
        if (model === null) throw notFound(`No partner account ${acct}`);
        if (model !== "TIER") throw conflict("not_tier_partner", `${acct} is a POOL-model account: no revenue share`);
        return ok({ payouts: [close(c.services, acct)] });
      }
      const accounts = [...new Set(Object.values(c.services.store.state.keys).map((k) => k.account_id))].sort();
      const payouts = accounts
        .filter((a) => accountModel(c.services, a) === "TIER" && openPeriodStart(c.services, a) < c.services.clock.now())
        .map((a) => close(c.services, a));
      return ok({ payouts });
    },
  },
  {
    method: "POST",
    path: "/mystery/payouts/:id/pay",
    describe: "Pay a PENDING payout statement {tx_hash?} → PAID (payout.paid); needs a payout wallet (at close or now)",
    // Check PENDING → pay on chain → mark PAID is exclusive per payout: a parallel second call waits and answers 409.
    handle: (c) => withKeyLock(c.services.store, `mystery:payout:${String(intId(c.params.id) ?? c.params.id)}`, () => pay(c)),
  },
];

/** Pays a PENDING statement: with the chain up, mints the USDC to the payout wallet so the hash is a real transaction. */
async function pay(c: ControlContext) {
  const id = intId(c.params.id);
  const row = id === null ? undefined : revenueState(c.services).statements[id];
  if (!row) throw notFound(`No payout ${c.params.id}`);
  if (row.statement.status !== "PENDING") throw conflict("invalid_status", `Payout ${id} is ${row.statement.status}; only PENDING can be paid`);
  const given = optString(c.body, "tx_hash");
  if (given !== undefined && !isTxHash(given)) throw badRequest("invalid_tx_hash", "tx_hash must be 0x followed by 64 hex characters");
  const wallet = payoutWallet(c.services, row.account_id);
  const address = row.statement.payout_address ?? wallet?.address ?? null;
  if (!address) throw conflict("payout_wallet_not_set", `Account ${row.account_id} has no payout wallet (PUT /api/v1/mystery/payout-wallet)`);
  let hash = given ?? null;
  const amount = BigInt(row.statement.payout_micros);
  if (!hash && c.services.chain && amount > 0n) hash = (await c.services.chain.chain.faucet(address as `0x${string}`, { usdc: amount })).usdcTx ?? null;
  hash ??= keccak256(toHex(`payout:${row.account_id}:${id}`));
  // Re-read after the await: restore/reset may have replaced the state.
  const now = revenueState(c.services).statements[id!];
  if (!now || now.statement.status !== "PENDING") throw conflict("invalid_status", `Payout ${id} changed while it was being paid`);
  Object.assign(now.statement, { status: "PAID", payout_address: address, chain: now.statement.chain ?? "base", tx_hash: hash, paid_at: c.services.clock.nowIso() });
  emit(c.services, now.account_id, "payout.paid", String(id), structuredClone(now.statement) as unknown as Record<string, unknown>);
  return ok(now.statement);
}
