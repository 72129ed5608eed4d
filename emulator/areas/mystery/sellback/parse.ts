import { MAX_SELLBACK_BATCH } from "../../../../contract/index.ts";
import { badRequest } from "../../../pipeline/errors.ts";
import { intIn } from "../../../pipeline/identifiers.ts";
import { firstRepeat, z } from "../../../pipeline/schema.ts";
import { isTxHash, optIdentifier, parseUsdc, tokenIdParam, walletParam } from "../util.ts";

// How the sell-back routes read what contract/mystery/sellback.ts declares.
// Every body field is read by the area's own parser inside a transform, which
// THROWS its coded 400: zod ends the parse at the first throw, so the first
// wrong field in declaration order answers — the order the routes always
// checked them in. min_total_usdc / slippage_bps are read by the handler: a
// batch that cannot be sold (409) answers before a wrong minimum.

/** A body field read by `parse` (which throws the field's coded 400). */
const read = <T>(parse: (v: unknown) => T) => z.unknown().optional().transform(parse);

const tokenIds = read((v): string[] => {
  if (!Array.isArray(v) || v.length === 0)
    throw badRequest("invalid_token_ids", "token_ids must be a non-empty array of token ids");
  if (v.length > MAX_SELLBACK_BATCH)
    throw badRequest("too_many_tokens", `At most ${MAX_SELLBACK_BATCH} tokens per sell-back batch (got ${v.length})`);
  const ids = v.map((x) => tokenIdParam(x, "token_ids[]"));
  if (ids.some((x) => x === null))
    throw badRequest(
      "invalid_token_ids",
      "Every token id must be a uint256 in plain decimal (string or number; no sign, fraction, exponent, hex or leading zeros)",
    );
  const again = firstRepeat(ids);
  if (again !== undefined) throw badRequest("invalid_token_ids", `token_ids names token ${again} twice`);
  return ids as string[];
});

const wallet = read((v) => walletParam(v));

/** min_total_usdc, checked once the batch is known sellable. */
export const minTotalSchema = z
  .unknown()
  .optional()
  .transform((v) => {
    if (v === undefined || v === null) return null;
    const m = parseUsdc(v);
    if (m === null)
      throw badRequest(
        "invalid_amount",
        "min_total_usdc must be a non-negative decimal USDC amount with at most 6 places",
      );
    return m;
  });
/** slippage_bps (default 100), checked once the batch is known sellable. */
export const slippageSchema = z
  .unknown()
  .optional()
  .transform((v) => {
    const bps = v === undefined || v === null ? 100 : intIn(v, 0, 10_000);
    if (bps === null) throw badRequest("invalid_amount", "slippage_bps must be an integer between 0 and 10000");
    return bps;
  });

export const quoteBody = z.object({ token_ids: tokenIds, wallet_address: wallet });

export const prepareBody = z.object({
  token_ids: tokenIds,
  wallet_address: wallet,
  min_total_usdc: z.unknown().optional(),
  slippage_bps: z.unknown().optional(),
});

const txHash = (v: unknown): `0x${string}` => {
  if (v === undefined || v === null || v === "") throw badRequest("missing_tx_hash", "transaction_hash is required");
  if (!isTxHash(v)) throw badRequest("tx_unverified", "transaction_hash must be 0x followed by 64 hex characters");
  return v;
};

/** Read as a whole: the hash (transaction_hash or its alias tx_hash) is checked first, as it always was. */
export const submitBody = z
  .object({
    transaction_hash: z.unknown().optional(),
    tx_hash: z.unknown().optional(),
    external_user_id: z.unknown().optional(),
    wallet_address: z.unknown().optional(),
  })
  .transform((b) => {
    const hash = txHash(b.transaction_hash ?? b.tx_hash);
    optIdentifier(b, "external_user_id");
    const claimed = b.wallet_address === undefined || b.wallet_address === null ? null : walletParam(b.wallet_address);
    return { hash, claimed };
  });
