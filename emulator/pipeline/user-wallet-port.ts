import { portSlot } from "./runtime.ts";
import type { WalletMove } from "../../contract/lifecycles/purchases.ts";
import type { Services } from "./services.ts";

// The end users' custodial USDC wallet as other areas may charge it. The mystery
// area keeps the wallet (its `/wallet` resource, ledger and deposits) and
// provides this port when it starts; the instant area charges custodial instant
// purchases through it. A port rather than an import: the mystery area already
// reads the instant area's sales, and areas must not import each other in a circle.

/** What a hold is for, as the wallet's ledger names it (`source`, `source_id`). */
export interface UserWalletRef {
  source: string;
  id: number;
  label: string;
}

export interface UserWalletPort {
  /** The end user's custodial wallet address (provisioned on first use). */
  wallet(accountId: string, externalUserId: string): `0x${string}`;
  /** The end user's available balance (balance less what is held), micros. */
  available(accountId: string, externalUserId: string): bigint;
  /**
   * A movement of the end user's balance (contract/lifecycles/purchases.ts `WalletMove`): HOLD takes `micros`
   * of the available balance (the caller checks `available` first and answers its 402), HOLD_SETTLE spends
   * it, HOLD_RELEASE returns it, REFUND_CREDIT credits what the chain paid back to the relayer that bought.
   */
  move(accountId: string, externalUserId: string, type: WalletMove, micros: bigint, ref: UserWalletRef): void;
}

/** Provided by the mystery area when it starts, in each emulator's runtime. */
const USER_WALLET = portSlot<UserWalletPort>("user wallet port (the mystery area's end-user USDC wallets)");

export function provideUserWallet(s: Services, port: UserWalletPort): void {
  s.runtime.provide(USER_WALLET, port);
}

export function userWalletOf(s: Services): UserWalletPort {
  return s.runtime.of(USER_WALLET);
}
