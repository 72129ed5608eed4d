import type { UserWalletPort } from "../../../pipeline/user-wallet-port.ts";
import type { Services } from "../../../pipeline/services.ts";
import { endUser } from "./end-users.ts";
import { applyMove } from "./ledger.ts";

// The custodial wallet as other areas charge it (pipeline/user-wallet-port.ts): the
// same balances, reservations and ledger as the area's own custodial purchases,
// each change one ledger entry naming its source.

export function userWalletPort(s: Services): UserWalletPort {
  const user = (accountId: string, externalUserId: string) =>
    endUser(s, accountId, { external_user_id: externalUserId, wallet_address: null });
  return {
    wallet: (accountId, externalUserId) => user(accountId, externalUserId).wallet_address as `0x${string}`,
    available(accountId, externalUserId) {
      const u = user(accountId, externalUserId);
      return BigInt(u.balance_micros) - BigInt(u.reserved_micros);
    },
    move(accountId, externalUserId, type, micros, ref) {
      // The caller answers 402 insufficient_funds in its own words before it writes anything (see available).
      if (type === "HOLD" && this.available(accountId, externalUserId) < micros)
        throw new Error(`custody: ${ref.label} holds more than the available balance`);
      applyMove(s, accountId, user(accountId, externalUserId), type, micros, ref);
    },
  };
}
