import { badRequest, notFound } from "../../../pipeline/errors.ts";
import { ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, route } from "../access.ts";
import { mystery, type WalletRow } from "../state.ts";
import { checksummed } from "../util.ts";
import { own, setOwn } from "../../../state/own.ts";

// The buyback pool wallet (pool:manage) and the revenue payout wallet
// (payout:manage): setting one deactivates the previous (kept as audit trail).

type Kind = "pool_wallets" | "payout_wallets";

function chainParam(v: unknown): string {
  if (v === undefined || v === null || v === "") return "base";
  if (v !== "base") throw badRequest("invalid_chain", 'chain must be "base"');
  return "base";
}

export function activeWallet(c: { services: HandlerContext["services"] }, kind: Kind, accountId: string): WalletRow | undefined {
  return own(mystery(c.services)[kind], accountId)?.find((w) => w.is_active);
}

async function put(c: HandlerContext, kind: Kind) {
  const b = await c.object();
  const address = checksummed(b.wallet_address ?? b.address);
  if (!address) throw badRequest("invalid_address", "Send wallet_address (or address): a 0x-prefixed 20-byte EVM address, EIP-55 checksummed when mixed-case");
  const chain = chainParam(b.chain);
  const wallets = mystery(c.services)[kind];
  const list = own(wallets, c.key!.account_id) ?? setOwn(wallets, c.key!.account_id, []);
  for (const w of list) w.is_active = false;
  const row: WalletRow = { chain, address, is_active: true, created_at: c.services.clock.nowIso() };
  list.push(row);
  return ok({ ...row });
}

function get(c: HandlerContext, kind: Kind, code: string, what: string) {
  chainParam(c.query.get("chain"));
  const row = activeWallet(c, kind, c.key!.account_id);
  if (!row) throw notFound(`No ${what} is set for this account`, code);
  return ok({ ...row });
}

export const walletRoutes: RouteSpec[] = [
  route("PUT", "/mystery/pool-wallet", partner("pool:manage"), "partner_write", (c) => put(c, "pool_wallets")),
  route("GET", "/mystery/pool-wallet", partner("pool:manage"), "partner_read", (c) => get(c, "pool_wallets", "pool_wallet_not_set", "pool wallet")),
  route("PUT", "/mystery/payout-wallet", partner("payout:manage"), "partner_write", (c) => put(c, "payout_wallets")),
  route("PUT", "/payout-wallet", partner("payout:manage"), "partner_write", (c) => put(c, "payout_wallets")),
  route("GET", "/mystery/payout-wallet", partner("payout:manage"), "partner_read", (c) => get(c, "payout_wallets", "payout_wallet_not_set", "payout wallet")),
  route("GET", "/payout-wallet", partner("payout:manage"), "partner_read", (c) => get(c, "payout_wallets", "payout_wallet_not_set", "payout wallet")),
];
