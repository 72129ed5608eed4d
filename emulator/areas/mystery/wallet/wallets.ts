import type { Services } from "../../../pipeline/services.ts";
import { own, setOwn } from "../../../state/own.ts";
import { mystery, type WalletRow } from "../state.ts";

// The partner's wallets: the buyback pool wallet (where bought-back cards are
// forwarded) and the revenue payout wallet. Setting one deactivates the
// previous (kept as audit trail).

export type WalletKind = "pool_wallets" | "payout_wallets";

export function activeWallet(s: Services, kind: WalletKind, accountId: string): WalletRow | undefined {
  return own(mystery(s)[kind], accountId)?.find((w) => w.is_active);
}

export function setWallet(s: Services, kind: WalletKind, accountId: string, chain: string, address: string): WalletRow {
  const wallets = mystery(s)[kind];
  const list = own(wallets, accountId) ?? setOwn(wallets, accountId, []);
  for (const w of list) w.is_active = false;
  const row: WalletRow = { chain, address, is_active: true, created_at: s.clock.nowIso() };
  list.push(row);
  return row;
}
