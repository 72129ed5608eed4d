import { notFound } from "../../../pipeline/errors.ts";
import { paginate } from "../../../pipeline/pagination.ts";
import { ok, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, schemaRoute as typed } from "../access.ts";
import { identityOf } from "../identity.ts";
import { endUser, walletView } from "./end-users.ts";
import { depositAddress, formatDeposit, formatLedger, userDeposits, userLedger, walletId } from "./ledger.ts";
import { balanceRoute, depositAddressRoute, depositsRoute, getWalletRoute, ledgerRoute, putWalletRoute, userPageInput } from "./schemas.ts";
import { activeWallet, setWallet, type WalletKind } from "./wallets.ts";

// Wallet endpoints. The custodial wallet (service-facts §4.3, SDK
// cardos.wallet): balance, ledger (newest first, key `entries`), deposits
// (key `deposits` beside wallet_id and linked_internal_user) and a dedicated
// per-user deposit address on Base; end users are auto-provisioned on first
// reference. The partner's buyback pool wallet (pool:manage) and revenue
// payout wallet (payout:manage).

const putWallet = (path: string, scope: string, kind: WalletKind): RouteSpec =>
  typed("PUT", path, partner(scope), "partner_write", putWalletRoute, (c) => {
    const { address, chain } = c.input.body;
    return ok({ ...setWallet(c.services, kind, c.key!.account_id, chain, address) });
  });

const getWallet = (path: string, scope: string, kind: WalletKind, code: string, what: string): RouteSpec =>
  typed("GET", path, partner(scope), "partner_read", getWalletRoute(code), (c) => {
    const row = activeWallet(c.services, kind, c.key!.account_id);
    if (!row) throw notFound(`No ${what} is set for this account`, code);
    return ok({ ...row });
  });

export const balanceRoutes: RouteSpec[] = [
  typed("GET", "/wallet/balance", partner("wallet:read"), "wallet_read", balanceRoute, (c) => {
    const who = identityOf(c.input.query, "Send external_user_id and/or wallet_address");
    return ok(walletView(endUser(c.services, c.key!.account_id, who)));
  }),
];

export const walletRoutes: RouteSpec[] = [
  putWallet("/mystery/pool-wallet", "pool:manage", "pool_wallets"),
  getWallet("/mystery/pool-wallet", "pool:manage", "pool_wallets", "pool_wallet_not_set", "pool wallet"),
  putWallet("/mystery/payout-wallet", "payout:manage", "payout_wallets"),
  putWallet("/payout-wallet", "payout:manage", "payout_wallets"),
  getWallet("/mystery/payout-wallet", "payout:manage", "payout_wallets", "payout_wallet_not_set", "payout wallet"),
  getWallet("/payout-wallet", "payout:manage", "payout_wallets", "payout_wallet_not_set", "payout wallet"),
];

export const walletLedgerRoutes: RouteSpec[] = [
  typed("GET", "/wallet/ledger", partner("wallet:read"), "wallet_read", ledgerRoute, (c) => {
    const { who, page } = userPageInput(c.input.query);
    const acct = c.key!.account_id;
    const user = endUser(c.services, acct, who);
    const { items, pagination } = paginate(userLedger(c.services, acct, user.external_user_id), page);
    return ok({ entries: items.map(formatLedger) }, { pagination });
  }),

  typed("GET", "/wallet/deposits", partner("wallet:read"), "wallet_read", depositsRoute, (c) => {
    const { who, page } = userPageInput(c.input.query);
    const acct = c.key!.account_id;
    const user = endUser(c.services, acct, who);
    const { deposits, linked } = userDeposits(c.services, acct, user.external_user_id);
    const { items, pagination } = paginate(deposits, page);
    return ok({ wallet_id: walletId(c.services, acct, user.external_user_id), linked_internal_user: linked, deposits: items.map(formatDeposit) }, { pagination });
  }),

  typed("POST", "/wallet/deposit-address", partner("wallet:deposit"), "partner_write", depositAddressRoute, (c) => {
    const who = c.input.body;
    const acct = c.key!.account_id;
    const user = endUser(c.services, acct, who);
    const { address } = depositAddress(c.services, acct, user.external_user_id);
    return ok({ chain: "base", address, currency: "USDC", dedicated: true, note: "Dedicated to this end user: USDC sent here on Base is credited to the custodial balance" });
  }),
];
