import { badRequest, notFound } from "../../../pipeline/errors.ts";
import { paginate, parseOffsetPage } from "../../../pipeline/pagination.ts";
import { ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, route } from "../access.ts";
import { identityOf, queryIdentity } from "../identity.ts";
import { checksummed } from "../util.ts";
import { endUser, walletView } from "./end-users.ts";
import { depositAddress, formatDeposit, formatLedger, userDeposits, userLedger, walletId } from "./ledger.ts";
import { activeWallet, setWallet, type WalletKind } from "./wallets.ts";

// Wallet endpoints. The custodial wallet (service-facts §4.3, SDK
// cardos.wallet): balance, ledger (newest first, key `entries`), deposits
// (key `deposits` beside wallet_id and linked_internal_user) and a dedicated
// per-user deposit address on Base; end users are auto-provisioned on first
// reference. The partner's buyback pool wallet (pool:manage) and revenue
// payout wallet (payout:manage).

function chainParam(v: unknown): string {
  if (v === undefined || v === null || v === "") return "base";
  if (v !== "base") throw badRequest("invalid_chain", 'chain must be "base"');
  return "base";
}

async function put(c: HandlerContext, kind: WalletKind) {
  const b = await c.object();
  const address = checksummed(b.wallet_address ?? b.address);
  if (!address) throw badRequest("invalid_address", "Send wallet_address (or address): a 0x-prefixed 20-byte EVM address, EIP-55 checksummed when mixed-case");
  const chain = chainParam(b.chain);
  return ok({ ...setWallet(c.services, kind, c.key!.account_id, chain, address) });
}

function get(c: HandlerContext, kind: WalletKind, code: string, what: string) {
  chainParam(c.query.get("chain"));
  const row = activeWallet(c.services, kind, c.key!.account_id);
  if (!row) throw notFound(`No ${what} is set for this account`, code);
  return ok({ ...row });
}

export const balanceRoutes: RouteSpec[] = [
  route("GET", "/wallet/balance", partner("wallet:read"), "wallet_read", (c) => {
    const who = queryIdentity(c, "Send external_user_id and/or wallet_address");
    return ok(walletView(endUser(c.services, c.key!.account_id, who)));
  }),
];

export const walletRoutes: RouteSpec[] = [
  route("PUT", "/mystery/pool-wallet", partner("pool:manage"), "partner_write", (c) => put(c, "pool_wallets")),
  route("GET", "/mystery/pool-wallet", partner("pool:manage"), "partner_read", (c) => get(c, "pool_wallets", "pool_wallet_not_set", "pool wallet")),
  route("PUT", "/mystery/payout-wallet", partner("payout:manage"), "partner_write", (c) => put(c, "payout_wallets")),
  route("PUT", "/payout-wallet", partner("payout:manage"), "partner_write", (c) => put(c, "payout_wallets")),
  route("GET", "/mystery/payout-wallet", partner("payout:manage"), "partner_read", (c) => get(c, "payout_wallets", "payout_wallet_not_set", "payout wallet")),
  route("GET", "/payout-wallet", partner("payout:manage"), "partner_read", (c) => get(c, "payout_wallets", "payout_wallet_not_set", "payout wallet")),
];

export const walletLedgerRoutes: RouteSpec[] = [
  route("GET", "/wallet/ledger", partner("wallet:read"), "wallet_read", (c) => {
    const who = queryIdentity(c);
    const page = parseOffsetPage(c.query);
    const acct = c.key!.account_id;
    const user = endUser(c.services, acct, who);
    const { items, pagination } = paginate(userLedger(c.services, acct, user.external_user_id), page);
    return ok({ entries: items.map(formatLedger) }, { pagination });
  }),

  route("GET", "/wallet/deposits", partner("wallet:read"), "wallet_read", (c) => {
    const who = queryIdentity(c);
    const page = parseOffsetPage(c.query);
    const acct = c.key!.account_id;
    const user = endUser(c.services, acct, who);
    const { deposits, linked } = userDeposits(c.services, acct, user.external_user_id);
    const { items, pagination } = paginate(deposits, page);
    return ok({ wallet_id: walletId(c.services, acct, user.external_user_id), linked_internal_user: linked, deposits: items.map(formatDeposit) }, { pagination });
  }),

  route("POST", "/wallet/deposit-address", partner("wallet:deposit"), "partner_write", async (c) => {
    const who = identityOf(await c.object());
    const acct = c.key!.account_id;
    const user = endUser(c.services, acct, who);
    const { address } = depositAddress(c.services, acct, user.external_user_id);
    return ok({ chain: "base", address, currency: "USDC", dedicated: true, note: "Dedicated to this end user: USDC sent here on Base is credited to the custodial balance" });
  }),
];
