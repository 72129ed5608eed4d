import { badRequest } from "../../../pipeline/errors.ts";
import { offsetPageQuery } from "../../../pipeline/pagination.ts";
import { parsePart, z, type RouteSchema } from "../../../pipeline/schema.ts";
import { identityOf, type Identity } from "../identity.ts";
import { checksummed } from "../util.ts";

// What the wallet routes take and answer (service-facts §4.3, SDK cardos.wallet).
// The end user (external_user_id and/or wallet_address) is checked before the
// paging, as it always was, so the handler reads both with userPageInput.

const usdcString = z.string().regex(/^-?\d+\.\d{6}$/).describe('USDC, 6 places ("12.500000")');
const signedMicros = z.string().regex(/^-?\d+$/).describe("USDC micros");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const isoTime = z.iso.datetime();

const userQuery = {
  external_user_id: z.string().optional().describe("The end user (this and/or wallet_address)"),
  wallet_address: z.string().optional().describe("The end user's wallet"),
};
const userPageQuery = {
  ...userQuery,
  limit: z.string().optional().describe("Page size (default 50, at most 100)"),
  offset: z.string().optional().describe("Rows to skip (default 0)"),
};
const USER_CODES = ["missing_user_identifier", "invalid_wallet_address", "invalid_value", "identifier_too_long"] as const;

const pageQuery = z.object(offsetPageQuery());

/** The user, then the page (in that order, as the routes always checked them). */
export function userPageInput(q: { external_user_id?: string; wallet_address?: string; limit?: string; offset?: string }) {
  return { who: identityOf(q), page: parsePart("query", pageQuery, { limit: q.limit, offset: q.offset }) };
}

// --- GET /wallet/balance --------------------------------------------------------------

const walletViewSchema = z.strictObject({
  // id: the service's numeric id; the caller's own id is external_user_id (null for a wallet-only user).
  end_user: z.strictObject({ id: z.number().int(), external_user_id: z.string().nullable(), wallet_address: address.nullable() }),
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

export const balanceRoute = {
  query: z.object(userQuery),
  responses: {
    200: { description: "The end user's custodial USDC balance (the user is provisioned on first reference)", data: walletViewSchema },
    400: { description: "No or invalid end user", codes: USER_CODES },
  },
} satisfies RouteSchema;

// --- GET /wallet/ledger ----------------------------------------------------------------

const ledgerEntrySchema = z.strictObject({
  id: z.number().int(),
  entry_type: z.enum(["DEPOSIT_CREDIT", "HOLD", "HOLD_RELEASE", "HOLD_SETTLE", "BUYBACK_CREDIT", "REFUND_CREDIT", "ADJUSTMENT"]),
  amount: signedMicros,
  amount_usdc: usdcString,
  balance_after: signedMicros.nullable(),
  reserved_after: signedMicros.nullable(),
  source: z.string().nullable(),
  source_id: z.string().nullable(),
  description: z.string().nullable(),
  created_at: isoTime,
});
export type LedgerEntryWire = z.output<typeof ledgerEntrySchema>;

export const ledgerRoute = {
  query: z.object(userPageQuery),
  responses: {
    200: { description: "The end user's ledger, newest first", data: z.strictObject({ entries: z.array(ledgerEntrySchema) }) },
    400: { description: "No or invalid end user, or invalid paging", codes: [...USER_CODES, "invalid_pagination"] },
  },
} satisfies RouteSchema;

// --- GET /wallet/deposits --------------------------------------------------------------

const depositSchema = z.strictObject({
  id: z.number().int(),
  chain_in: z.string(),
  token_in: z.string(),
  amount: usdcString,
  tx_hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/).nullable(),
  status: z.enum(["PENDING", "SEEN", "PROCESSING", "CONFIRMED", "FAILED", "CANCELLED"]),
  expected_output: usdcString.nullable(),
  created_at: isoTime,
  confirmed_at: isoTime.nullable(),
});
export type DepositWire = z.output<typeof depositSchema>;

export const depositsRoute = {
  query: z.object(userPageQuery),
  responses: {
    200: {
      description: "The end user's deposits, newest first",
      data: z.strictObject({ wallet_id: z.number().int(), linked_internal_user: z.boolean(), deposits: z.array(depositSchema) }),
    },
    400: { description: "No or invalid end user, or invalid paging", codes: [...USER_CODES, "invalid_pagination"] },
  },
} satisfies RouteSchema;

// --- POST /wallet/deposit-address ----------------------------------------------------------

export const depositAddressRoute = {
  body: z
    .object({
      external_user_id: z.unknown().optional().meta({ type: "string", description: "The end user (this and/or wallet_address)" }),
      wallet_address: z.unknown().optional().meta({ type: "string", description: "The end user's wallet" }),
    })
    .transform((b): Identity => identityOf(b)),
  responses: {
    200: {
      description: "The end user's dedicated USDC deposit address on Base",
      data: z.strictObject({ chain: z.literal("base"), address, currency: z.literal("USDC"), dedicated: z.literal(true), note: z.string() }),
    },
    400: { description: "No or invalid end user", codes: USER_CODES },
  },
} satisfies RouteSchema;

// --- pool and payout wallets ---------------------------------------------------------------

/** chain: only "base" (absent or empty means base). */
const chainOf = (v: unknown): "base" => {
  if (v === undefined || v === null || v === "") return "base";
  if (v !== "base") throw badRequest("invalid_chain", 'chain must be "base"');
  return "base";
};

const walletRowSchema = z.strictObject({ chain: z.string(), address, is_active: z.boolean(), created_at: isoTime });

export const putWalletRoute = {
  // The address (wallet_address, else address) is checked before the chain, as it always was: one transform.
  body: z
    .object({
      wallet_address: z.unknown().optional().meta({ type: "string", description: "0x EVM address (EIP-55 checksum when mixed-case)" }),
      address: z.unknown().optional().meta({ type: "string", description: "The same, under its older name" }),
      chain: z.unknown().optional().meta({ type: "string", enum: ["base"], description: 'Only "base" (the default)' }),
    })
    .transform((b) => {
      const addr = checksummed(b.wallet_address ?? b.address);
      if (!addr) throw badRequest("invalid_address", "Send wallet_address (or address): a 0x-prefixed 20-byte EVM address, EIP-55 checksummed when mixed-case");
      return { address: addr, chain: chainOf(b.chain) };
    }),
  responses: {
    200: { description: "The wallet now in force (the previous one is kept inactive)", data: walletRowSchema },
    400: { description: "Invalid address or chain", codes: ["invalid_address", "invalid_chain"] },
  },
} satisfies RouteSchema;

export const getWalletRoute = (code: string) =>
  ({
    query: z.object({ chain: z.string().optional().transform(chainOf).meta({ description: 'Only "base" (the default)' }) }),
    responses: {
      200: { description: "The wallet in force", data: walletRowSchema },
      400: { description: "Invalid chain", codes: ["invalid_chain"] },
      404: { description: "No wallet is set", codes: [code] },
    },
  }) satisfies RouteSchema;
