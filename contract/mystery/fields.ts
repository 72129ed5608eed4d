import { evmAddress, type EvmAddress } from "../input-fields.ts";
import { offsetPageQuery } from "../paging.ts";
import { identifier, later, withCode, within, z, type IssueParams } from "../zod.ts";

export { address, isoTime, micros, signedMicros, usdcString } from "../primitives.ts";

// Field formats the mystery reads share (docs/mystery.md): USDC as a 6-place
// decimal string beside its integer micros, instants as ISO-8601, 0x addresses,
// the end user a request names. Imported by the contract's mystery files only
// (not re-exported by the index).

/** A wallet a request names (contract/input-fields.ts), 400 invalid_wallet_address otherwise. */
export const walletField = (missing?: string) => withCode(evmAddress(missing), "invalid_wallet_address");

const blankIsAbsent = (v: unknown) => (v === "" ? undefined : v);

/** An end user's own id: a string or number, at most 255 characters (empty: absent); 400 invalid_value otherwise. */
export const endUserId = withCode(
  z
    .union([z.string(), z.number()], { error: "must be a string" })
    .nullish()
    .transform((v) => (v === undefined || v === null || v === "" ? null : String(v)))
    .pipe(identifier().nullable())
    .describe("The end user (this and/or wallet_address)"),
  "invalid_value",
);

/** The end user's wallet, when named (empty: absent). */
export const endUserWallet = withCode(
  z
    .preprocess(blankIsAbsent, evmAddress().nullish())
    .transform((v): EvmAddress | null => v ?? null)
    .describe("The end user's wallet"),
  "invalid_wallet_address",
);

/** Who a request names: external_user_id and/or wallet_address (each null when absent). */
export interface EndUser {
  external_user_id: string | null;
  wallet_address: EvmAddress | null;
}

const WHICH_USER = "Send external_user_id and/or wallet_address to say which end user";

/** At least one of the two, else 400 missing_user_identifier with `message`. */
export const oneOfUser = (message = WHICH_USER) => ({
  error: message,
  params: { code: "missing_user_identifier" } satisfies IssueParams,
});
export const namesUser = (b: EndUser) => b.external_user_id !== null || b.wallet_address !== null;

/** The end user's two fields (a body's or a query's). */
export const userFields = { external_user_id: endUserId, wallet_address: endUserWallet };

/** The end user of a query or body: external_user_id and/or wallet_address. */
export const userOf = (message = WHICH_USER) => z.object(userFields).refine(namesUser, oneOfUser(message));

/** A query's paging, read after its end user (a `later` field of the query). */
export const userPage = z.object(offsetPageQuery());
const pageFields = userPage.shape;

/** userQuery with its page: the user is checked first, then the page (read by the server with `userPage`). */
export const userPageQuery = z
  .object({
    ...userFields,
    limit: later(pageFields.limit.describe("Page size (default 50, at most 100)")),
    offset: later(pageFields.offset.describe("Rows to skip (default 0)")),
  })
  .superRefine((q, ctx) => {
    if (!namesUser(q)) ctx.addIssue({ code: "custom", input: q, message: WHICH_USER, params: oneOfUser().params });
    else {
      within(ctx, ["limit"], pageFields.limit, q.limit);
      within(ctx, ["offset"], pageFields.offset, q.offset);
    }
  });

export const USER_CODES = [
  "missing_user_identifier",
  "invalid_wallet_address",
  "invalid_value",
  "identifier_too_long",
] as const;
