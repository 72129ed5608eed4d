import { offsetPageQuery } from "../../../../contract/index.ts";
import { badRequest } from "../../../pipeline/errors.ts";
import { parsePart, z } from "../../../pipeline/schema.ts";
import { identityOf } from "../identity.ts";
import { checksummed } from "../util.ts";

// The emulator's own reading of the wallet requests (contract/mystery/wallet.ts
// documents them): the area's identity and address checks (EIP-55), with its
// messages and order of checks.

const pageQuery = z.object(offsetPageQuery());

type UserPage = {
  external_user_id?: string | undefined;
  wallet_address?: string | undefined;
  limit?: string | undefined;
  offset?: string | undefined;
};

/** The end user, then the page: the user is checked first, as it always was. */
export function userPageInput(q: UserPage) {
  return { who: identityOf(q), page: parsePart("query", pageQuery, { limit: q.limit, offset: q.offset }) };
}

/** The deposit address body: the end user, as identityOf reads it. */
export const userBody = z
  .object({ external_user_id: z.unknown().optional(), wallet_address: z.unknown().optional() })
  .transform((b) => identityOf(b));

/** chain: only "base" (absent or empty means base). */
const chainName = (v: unknown): "base" => {
  if (v === undefined || v === null || v === "") return "base";
  if (v !== "base") throw badRequest("invalid_chain", 'chain must be "base"');
  return "base";
};

// The address (wallet_address, else address) is checked before the chain, as it always was: one transform.
export const setWalletBody = z
  .object({ wallet_address: z.unknown().optional(), address: z.unknown().optional(), chain: z.unknown().optional() })
  .transform((b) => {
    const addr = checksummed(b.wallet_address ?? b.address);
    if (!addr)
      throw badRequest(
        "invalid_address",
        "Send wallet_address (or address): a 0x-prefixed 20-byte EVM address, EIP-55 checksummed when mixed-case",
      );
    return { address: addr, chain: chainName(b.chain) };
  });

export const walletQuery = z.object({ chain: z.string().optional().transform(chainName) });
