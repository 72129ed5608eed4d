import { paginate, parseOffsetPage } from "../../../pipeline/pagination.ts";
import { ok, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, route } from "../access.ts";
import { identityOf, queryIdentity } from "../identity.ts";
import { endUser } from "../purchases/purchases.ts";
import {} from "../util.ts";
import { books, depositAddress, formatDeposit, formatLedger, walletId } from "./ledger.ts";

// Custodial wallet reads and the deposit address (service-facts §4.3, SDK
// cardos.wallet): the ledger (newest first, key `entries`), deposits (key
// `deposits` beside wallet_id and linked_internal_user) and a dedicated
// per-user deposit address on Base. End users are auto-provisioned on first
// reference, as for /wallet/balance.

export const walletLedgerRoutes: RouteSpec[] = [
  route("GET", "/wallet/ledger", partner("wallet:read"), "wallet_read", (c) => {
    const who = queryIdentity(c);
    const page = parseOffsetPage(c.query);
    const acct = c.key!.account_id;
    const user = endUser(c.services, acct, who);
    const rows = books(c.services)
      .entries.filter((e) => e.account_id === acct && e.user_id === user.external_user_id)
      .sort((a, b) => b.id - a.id);
    const { items, pagination } = paginate(rows, page);
    return ok({ entries: items.map(formatLedger) }, { pagination });
  }),

  route("GET", "/wallet/deposits", partner("wallet:read"), "wallet_read", (c) => {
    const who = queryIdentity(c);
    const page = parseOffsetPage(c.query);
    const acct = c.key!.account_id;
    const user = endUser(c.services, acct, who);
    const b = books(c.services);
    const rows = b.deposits.filter((d) => d.account_id === acct && d.user_id === user.external_user_id).sort((x, y) => y.id - x.id);
    // Linked once the user has a deposit identity: a dedicated address or a credited deposit.
    const linked = rows.length > 0 || `${acct}\u0000${user.external_user_id}` in b.addresses;
    const { items, pagination } = paginate(rows, page);
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
