import { MYSTERY_WALLET, type DepositAddress, type PayoutWallet } from "../../../../contract/index.ts";
import { notFound } from "../../../pipeline/errors.ts";
import { paginate } from "../../../pipeline/pagination.ts";
import { ok, serve, type RouteSpec } from "../../../pipeline/route.ts";
import { noteChainChange } from "../../../pipeline/reconcile.ts";
import { userPageInput } from "../end-user.ts";
import { endUser, walletView } from "./end-users.ts";
import { depositAddress, formatDeposit, formatLedger, userDeposits, userLedger, walletId } from "./ledger.ts";
import { activeWallet, setWallet, type WalletKind } from "./wallets.ts";

// Wallet endpoints (contract/mystery/wallet.ts). The custodial wallet of an
// end user: balance, ledger (newest first, key `entries`), deposits (key
// `deposits` beside wallet_id and linked_internal_user) and a dedicated
// per-user deposit address on Base; end users are auto-provisioned on first
// reference. The partner's buyback pool wallet (pool:manage) and revenue
// payout wallet (payout:manage).

type SetOp = typeof MYSTERY_WALLET.setPoolWallet;
type GetOp = typeof MYSTERY_WALLET.getPoolWallet;

const putWallet = (op: SetOp, kind: WalletKind): RouteSpec =>
  serve(op, {
    gate: "partner_write",
    handle: (c) => {
      const { address, chain } = c.input.body;
      return ok({ ...setWallet(c.services, kind, c.key!.account_id, chain, address) } satisfies PayoutWallet);
    },
  });

const getWallet = (op: GetOp, kind: WalletKind, code: string, what: string): RouteSpec =>
  serve(op, {
    gate: "partner_read",
    handle: (c) => {
      const row = activeWallet(c.services, kind, c.key!.account_id);
      if (!row) throw notFound(`No ${what} is set for this account`, code);
      return ok({ ...row } satisfies PayoutWallet);
    },
  });

export const balanceRoutes: RouteSpec[] = [
  serve(MYSTERY_WALLET.balance, {
    gate: "wallet_read",
    // Deposits mined before the request are credited by then (the reconciler, pipeline/reconcile.ts), not here.
    handle: (c) => {
      const who = c.input.query;
      return ok(walletView(endUser(c.services, c.key!.account_id, who)));
    },
  }),
];

export const walletRoutes: RouteSpec[] = [
  putWallet(MYSTERY_WALLET.setPoolWallet, "pool_wallets"),
  getWallet(MYSTERY_WALLET.getPoolWallet, "pool_wallets", "pool_wallet_not_set", "pool wallet"),
  putWallet(MYSTERY_WALLET.setPayoutWallet, "payout_wallets"),
  putWallet(MYSTERY_WALLET.setPayoutWalletLegacy, "payout_wallets"),
  getWallet(MYSTERY_WALLET.getPayoutWallet, "payout_wallets", "payout_wallet_not_set", "payout wallet"),
  getWallet(MYSTERY_WALLET.getPayoutWalletLegacy, "payout_wallets", "payout_wallet_not_set", "payout wallet"),
];

export const walletLedgerRoutes: RouteSpec[] = [
  serve(MYSTERY_WALLET.ledger, {
    gate: "wallet_read",
    handle: (c) => {
      const { who, page } = userPageInput(c.input.query);
      const acct = c.key!.account_id;
      const user = endUser(c.services, acct, who);
      const { items, pagination } = paginate(userLedger(c.services, acct, user.external_user_id), page);
      return ok({ entries: items.map(formatLedger) }, { pagination });
    },
  }),

  serve(MYSTERY_WALLET.deposits, {
    gate: "wallet_read",
    handle: (c) => {
      const { who, page } = userPageInput(c.input.query);
      const acct = c.key!.account_id;
      const user = endUser(c.services, acct, who);
      const { deposits, linked } = userDeposits(c.services, acct, user.external_user_id);
      const { items, pagination } = paginate(deposits, page);
      return ok(
        {
          wallet_id: walletId(c.services, acct, user.external_user_id),
          linked_internal_user: linked,
          deposits: items.map(formatDeposit),
        },
        { pagination },
      );
    },
  }),

  serve(MYSTERY_WALLET.depositAddress, {
    gate: "partner_write",
    handle: (c) => {
      const acct = c.key!.account_id;
      const user = endUser(c.services, acct, c.input.body);
      const { address, scanned } = depositAddress(c.services, acct, user.external_user_id);
      // A new address is looked up on chain from the deployment on (a transfer sent to it before it was asked
      // for counts): the reconciler's next pass does it.
      if (scanned !== true) noteChainChange(c.services);
      return ok({
        chain: "base",
        address,
        currency: "USDC",
        dedicated: true,
        note: "Dedicated to this end user: USDC sent here on Base is credited to the custodial balance",
      } satisfies DepositAddress);
    },
  }),
];
