import { operation, partnerScoped } from "../operation.ts";
import { EVM_ADDRESS_RULE, evmAddress } from "../input-fields.ts";
import { later, withCode, within, z } from "../zod.ts";
import { txHash } from "../primitives.ts";
import { address, isoTime, signedMicros, USER_CODES, usdcString, userOf, userPageQuery } from "./fields.ts";

// The custodial wallet of an end user (docs/mystery.md, SDK cardos.wallet):
// balance, ledger, deposits and a dedicated deposit address on Base (end users
// are provisioned on first reference); and the partner's buyback pool wallet
// and revenue payout wallet. Every address a request names follows the one
// wallet rule (contract/input-fields.ts).

export const LEDGER_ENTRY_TYPES = [
  "DEPOSIT_CREDIT",
  "HOLD",
  "HOLD_RELEASE",
  "HOLD_SETTLE",
  "BUYBACK_CREDIT",
  "REFUND_CREDIT",
  "ADJUSTMENT",
] as const;
export const DEPOSIT_STATUSES = ["PENDING", "SEEN", "PROCESSING", "CONFIRMED", "FAILED", "CANCELLED"] as const;
/** The one chain wallets live on. */
export const WALLET_CHAIN = "base";

export const WalletBalance = z.strictObject({
  // id: the service's numeric id; the caller's own id is external_user_id (null for a wallet-only user).
  end_user: z.strictObject({
    id: z.number().int(),
    external_user_id: z.string().nullable(),
    wallet_address: address.nullable(),
  }),
  wallet: z.strictObject({
    currency: z.literal("USDC"),
    available: signedMicros,
    reserved: signedMicros,
    balance: signedMicros,
    available_usdc: usdcString,
    reserved_usdc: usdcString,
    balance_usdc: usdcString,
  }),
});
export type WalletBalance = z.output<typeof WalletBalance>;

export const LedgerEntry = z.strictObject({
  id: z.number().int(),
  entry_type: z.enum(LEDGER_ENTRY_TYPES),
  amount: signedMicros,
  amount_usdc: usdcString,
  balance_after: signedMicros.nullable(),
  reserved_after: signedMicros.nullable(),
  source: z.string().nullable(),
  source_id: z.string().nullable(),
  description: z.string().nullable(),
  created_at: isoTime,
});
export type LedgerEntry = z.output<typeof LedgerEntry>;

export const Deposit = z.strictObject({
  id: z.number().int(),
  chain_in: z.string(),
  token_in: z.string(),
  amount: usdcString,
  tx_hash: txHash.nullable(),
  status: z.enum(DEPOSIT_STATUSES),
  expected_output: usdcString.nullable(),
  created_at: isoTime,
  confirmed_at: isoTime.nullable(),
});
export type Deposit = z.output<typeof Deposit>;

export const DepositPage = z.strictObject({
  wallet_id: z.number().int(),
  linked_internal_user: z.boolean(),
  deposits: z.array(Deposit),
});
export type DepositPage = z.output<typeof DepositPage>;

export const DepositAddress = z.strictObject({
  chain: z.literal(WALLET_CHAIN),
  address,
  currency: z.literal("USDC"),
  dedicated: z.literal(true),
  note: z.string(),
});
export type DepositAddress = z.output<typeof DepositAddress>;

/** A pool or payout wallet: the one in force (earlier ones are kept inactive). */
export const PayoutWallet = z.strictObject({ chain: z.string(), address, is_active: z.boolean(), created_at: isoTime });
export type PayoutWallet = z.output<typeof PayoutWallet>;

// --- requests ---------------------------------------------------------------------

/** The end user of a deposit address: external_user_id and/or wallet_address (each null when absent). */
const userBody = userOf();

/** chain: only "base" (absent or empty means base). */
const chainOf = <T extends z.ZodType>(given: T) =>
  withCode(
    given.transform((): typeof WALLET_CHAIN => WALLET_CHAIN).describe('Only "base" (the default)'),
    "invalid_chain",
  );
const chainQuery = chainOf(z.enum([WALLET_CHAIN, ""]).optional());

const addressField = withCode(evmAddress(`Send wallet_address (or address): ${EVM_ADDRESS_RULE}`), "invalid_address");
const chainBody = chainOf(z.enum([WALLET_CHAIN, ""]).nullish());
// The address first, then the chain. A wallet_address that is given wins over address (an invalid one is not
// replaced by it, and an address beside it is not read).
const setWalletBody = z
  .object({
    wallet_address: later(addressField.describe(`${EVM_ADDRESS_RULE}`)),
    address: later(addressField.describe("The same, under its older name")),
    chain: later(chainBody),
  })
  .transform((b, ctx) => {
    const given = b.wallet_address ?? b.address;
    const address = within(ctx, [b.wallet_address != null ? "wallet_address" : "address"], addressField, given);
    return { address, chain: within(ctx, ["chain"], chainBody, b.chain) };
  });

export { userPage as USER_PAGE, type EndUser } from "./fields.ts";

const setWallet = (id: string, path: string, scope: string, summary: string) =>
  operation({
    id,
    method: "PUT",
    path,
    summary,
    ...partnerScoped(scope),
    schema: {
      body: setWalletBody,
      responses: {
        200: { description: "The wallet now in force (the previous one is kept inactive)", data: PayoutWallet },
        400: { description: "Invalid address or chain", codes: ["invalid_address", "invalid_chain"] },
      },
    },
  });

const getWallet = (id: string, path: string, scope: string, code: string, summary: string) =>
  operation({
    id,
    method: "GET",
    path,
    summary,
    ...partnerScoped(scope),
    schema: {
      query: z.object({ chain: chainQuery }),
      responses: {
        200: { description: "The wallet in force", data: PayoutWallet },
        400: { description: "Invalid chain", codes: ["invalid_chain"] },
        404: { description: "No wallet is set", codes: [code] },
      },
    },
  });

const walletRead = partnerScoped("wallet:read");

export const MYSTERY_WALLET = {
  balance: operation({
    id: "wallet.balance",
    method: "GET",
    path: "/wallet/balance",
    summary: "An end user's custodial USDC balance: available, reserved and total",
    ...walletRead,
    schema: {
      query: userOf("Send external_user_id and/or wallet_address"),
      responses: {
        200: {
          description: "The end user's custodial USDC balance (the user is provisioned on first reference)",
          data: WalletBalance,
        },
        400: { description: "No or invalid end user", codes: USER_CODES },
      },
    },
  }),
  ledger: operation({
    id: "wallet.ledger",
    method: "GET",
    path: "/wallet/ledger",
    summary: "An end user's custodial ledger, newest first",
    ...walletRead,
    schema: {
      query: userPageQuery,
      responses: {
        200: {
          description: "The end user's ledger, newest first",
          data: z.strictObject({ entries: z.array(LedgerEntry) }),
        },
        400: { description: "No or invalid end user, or invalid paging", codes: [...USER_CODES, "invalid_pagination"] },
      },
    },
  }),
  deposits: operation({
    id: "wallet.deposits",
    method: "GET",
    path: "/wallet/deposits",
    summary: "An end user's USDC deposits, newest first",
    ...walletRead,
    schema: {
      query: userPageQuery,
      responses: {
        200: { description: "The end user's deposits, newest first", data: DepositPage },
        400: { description: "No or invalid end user, or invalid paging", codes: [...USER_CODES, "invalid_pagination"] },
      },
    },
  }),
  depositAddress: operation({
    id: "wallet.depositAddress",
    method: "POST",
    path: "/wallet/deposit-address",
    summary: "The dedicated USDC address on Base that credits an end user's custodial balance",
    ...partnerScoped("wallet:deposit"),
    schema: {
      body: userBody,
      responses: {
        200: { description: "The end user's dedicated USDC deposit address on Base", data: DepositAddress },
        400: { description: "No or invalid end user", codes: USER_CODES },
      },
    },
  }),
  setPoolWallet: setWallet(
    "mystery.poolWallet.set",
    "/mystery/pool-wallet",
    "pool:manage",
    "Set the wallet accepted buybacks are forwarded to",
  ),
  getPoolWallet: getWallet(
    "mystery.poolWallet.get",
    "/mystery/pool-wallet",
    "pool:manage",
    "pool_wallet_not_set",
    "The wallet accepted buybacks are forwarded to",
  ),
  setPayoutWallet: setWallet(
    "revenue.setPayoutWallet",
    "/mystery/payout-wallet",
    "payout:manage",
    "Point revenue-share payouts at a new address",
  ),
  // The older path of the same two operations.
  setPayoutWalletLegacy: setWallet(
    "payoutWallet.set",
    "/payout-wallet",
    "payout:manage",
    "Point revenue-share payouts at a new address (older path of revenue.setPayoutWallet)",
  ),
  getPayoutWallet: getWallet(
    "revenue.getPayoutWallet",
    "/mystery/payout-wallet",
    "payout:manage",
    "payout_wallet_not_set",
    "The address revenue-share payouts are sent to",
  ),
  getPayoutWalletLegacy: getWallet(
    "payoutWallet.get",
    "/payout-wallet",
    "payout:manage",
    "payout_wallet_not_set",
    "The address revenue-share payouts are sent to (older path of revenue.getPayoutWallet)",
  ),
};
