import type { CustodyPort, CustodyRef } from "../../../pipeline/custody-port.ts";
import type { Services } from "../../../pipeline/services.ts";
import { endUser } from "./end-users.ts";
import { ledgerMove, MOVES, type Move } from "./ledger.ts";

// The custodial wallet as other areas charge it (pipeline/custody-port.ts): the
// same balances, reservations and ledger as the area's own custodial purchases,
// each change one ledger entry naming its source.

export function custodyPort(s: Services): CustodyPort {
  const user = (accountId: string, externalUserId: string) => endUser(s, accountId, { external_user_id: externalUserId, wallet_address: null });
  /** Applies a hold movement (or a refund credit) to the user's balance and reservation, then records it. */
  const move = (accountId: string, externalUserId: string, type: Move, micros: bigint, ref: CustodyRef) => {
    const u = user(accountId, externalUserId);
    u.balance_micros = String(BigInt(u.balance_micros) + MOVES[type].balance * micros);
    u.reserved_micros = String(BigInt(u.reserved_micros) + MOVES[type].reserved * micros);
    ledgerMove(s, accountId, u, type, micros, ref);
  };
  return {
    wallet: (accountId, externalUserId) => user(accountId, externalUserId).wallet_address as `0x${string}`,
    available(accountId, externalUserId) {
      const u = user(accountId, externalUserId);
      return BigInt(u.balance_micros) - BigInt(u.reserved_micros);
    },
    hold(accountId, externalUserId, micros, ref) {
      // The caller answers 402 insufficient_funds in its own words before it writes anything (see available).
      if (this.available(accountId, externalUserId) < micros) throw new Error(`custody: ${ref.label} holds more than the available balance`);
      move(accountId, externalUserId, "HOLD", micros, ref);
    },
    settle: (accountId, externalUserId, micros, ref) => move(accountId, externalUserId, "HOLD_SETTLE", micros, ref),
    release: (accountId, externalUserId, micros, ref) => move(accountId, externalUserId, "HOLD_RELEASE", micros, ref),
    refund: (accountId, externalUserId, micros, ref) => move(accountId, externalUserId, "REFUND_CREDIT", micros, ref),
  };
}
