import type { WalletBalance } from "../../../../contract/index.ts";
import { custodyAddress } from "./addresses.ts";
import type { Services } from "../../../pipeline/services.ts";
import { own, setOwn } from "../../../state/own.ts";
import { mystery, type EndUserRow } from "../state.ts";
import { usdc } from "../../../../contract/money.ts";
import { COUNTERS } from "../../../state/ids.ts";

// Custodial end users and their USDC balance: auto-provisioned on first
// reference (by external_user_id, or by wallet), shown as the wallet view of
// GET /wallet/balance and the custodial fund control action.

/** An end user as endUser returns it: with the service's numeric id. */
export type KnownEndUser = EndUserRow & { id: number };

export function endUser(
  s: Services,
  accountId: string,
  who: { external_user_id: string | null; wallet_address: string | null },
): KnownEndUser {
  const row = findOrProvision(s, accountId, who);
  // Numbered on first reference (seeded users and rows of older state files have none yet).
  row.id ??= s.store.nextId(COUNTERS.mysteryEndUser);
  return row as KnownEndUser;
}

function findOrProvision(
  s: Services,
  accountId: string,
  who: { external_user_id: string | null; wallet_address: string | null },
): EndUserRow {
  const slice = mystery(s);
  // The ids are the partner's own (`constructor`, `__proto__` are ids like any other): own entries only.
  const users = own(slice.end_users, accountId) ?? setOwn(slice.end_users, accountId, {});
  const known = who.external_user_id ? own(users, who.external_user_id) : undefined;
  if (known) return known;
  if (!who.external_user_id && who.wallet_address) {
    const found = Object.values(users).find(
      (u) => u.wallet_address.toLowerCase() === who.wallet_address!.toLowerCase(),
    );
    if (found) return found;
  }
  const id = who.external_user_id ?? `wallet:${who.wallet_address!.toLowerCase()}`;
  const row: EndUserRow = {
    external_user_id: id,
    wallet_address: who.wallet_address ?? custodyAddress(accountId, id),
    balance_micros: "0",
    reserved_micros: "0",
  };
  return setOwn(users, id, row);
}

export function walletView(u: KnownEndUser): WalletBalance {
  const balance = BigInt(u.balance_micros);
  const reserved = BigInt(u.reserved_micros);
  return {
    end_user: {
      id: u.id,
      external_user_id: u.external_user_id.startsWith("wallet:") ? null : u.external_user_id,
      wallet_address: u.wallet_address,
    },
    wallet: {
      currency: "USDC",
      available: String(balance - reserved),
      reserved: String(reserved),
      balance: String(balance),
      available_usdc: usdc(balance - reserved),
      reserved_usdc: usdc(reserved),
      balance_usdc: usdc(balance),
    },
  };
}
