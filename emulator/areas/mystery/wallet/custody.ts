import { ApiError } from "../../../pipeline/errors.ts";
import type { CustodyPort, CustodyRef } from "../../../pipeline/custody-port.ts";
import type { Services } from "../../../pipeline/services.ts";
import { usdc } from "../util.ts";
import { endUser } from "./end-users.ts";
import { recordLedger } from "./ledger.ts";

// The custodial wallet as other areas charge it (pipeline/custody-port.ts): the
// same balances, reservations and ledger as the area's own custodial purchases,
// each change one ledger entry naming its source.

export function custodyPort(s: Services): CustodyPort {
  const user = (accountId: string, externalUserId: string) => endUser(s, accountId, { external_user_id: externalUserId, wallet_address: null });
  const move = (accountId: string, externalUserId: string, kind: "HOLD" | "HOLD_SETTLE" | "HOLD_RELEASE", micros: bigint, ref: CustodyRef) => {
    const u = user(accountId, externalUserId);
    const balanceDelta = kind === "HOLD_SETTLE" ? -micros : 0n;
    const reservedDelta = kind === "HOLD" ? micros : -micros;
    u.balance_micros = String(BigInt(u.balance_micros) + balanceDelta);
    u.reserved_micros = String(BigInt(u.reserved_micros) + reservedDelta);
    const description = { HOLD: `Hold for ${ref.label}`, HOLD_SETTLE: `Hold settled: ${ref.label} sent on chain`, HOLD_RELEASE: `Hold released: ${ref.label} failed` }[kind];
    recordLedger(s, accountId, u, { type: kind, amount: kind === "HOLD_RELEASE" ? micros : -micros, balanceDelta, reservedDelta, source: ref.source, sourceId: ref.id, description });
  };
  return {
    wallet: (accountId, externalUserId) => user(accountId, externalUserId).wallet_address as `0x${string}`,
    available(accountId, externalUserId) {
      const u = user(accountId, externalUserId);
      return BigInt(u.balance_micros) - BigInt(u.reserved_micros);
    },
    hold(accountId, externalUserId, micros, ref) {
      const available = this.available(accountId, externalUserId);
      if (available < micros)
        throw new ApiError(402, "insufficient_funds", `The end user's available balance is ${usdc(available)} USDC; ${ref.label} holds ${usdc(micros)}`, {
          details: { available_usdc: usdc(available), hold_usdc: usdc(micros) },
        });
      move(accountId, externalUserId, "HOLD", micros, ref);
    },
    settle: (accountId, externalUserId, micros, ref) => move(accountId, externalUserId, "HOLD_SETTLE", micros, ref),
    release: (accountId, externalUserId, micros, ref) => move(accountId, externalUserId, "HOLD_RELEASE", micros, ref),
  };
}
