import { z } from "../zod.ts";

export { address, isoTime, micros, signedMicros, usdcString } from "../primitives.ts";

// Field formats the mystery reads share (docs/mystery.md): USDC as a 6-place
// decimal string beside its integer micros, instants as ISO-8601, 0x addresses,
// the end user a request names. Imported by the contract's mystery files only
// (not re-exported by the index).

/** The end user of a query: external_user_id and/or wallet_address (checked by the handler, before any paging). */
export const userQuery = {
  external_user_id: z.string().optional().describe("The end user (this and/or wallet_address)"),
  wallet_address: z.string().optional().describe("The end user's wallet"),
};

/** userQuery with its page, read as sent (the handler checks the user first, then the page). */
export const userPageQuery = {
  ...userQuery,
  limit: z.string().optional().describe("Page size (default 50, at most 100)"),
  offset: z.string().optional().describe("Rows to skip (default 0)"),
};

export const USER_CODES = [
  "missing_user_identifier",
  "invalid_wallet_address",
  "invalid_value",
  "identifier_too_long",
] as const;
