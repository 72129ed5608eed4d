import { badRequest } from "../../pipeline/errors.ts";
import { optIdentifier, walletParam, type Body } from "./util.ts";

// End-user identity of the purchase, wallet and collection routes:
// external_user_id and/or wallet_address, at least one (400
// missing_user_identifier, with the route's own message); a bad wallet is 400
// invalid_wallet_address, an id over 255 chars identifier_too_long.

export interface Identity {
  external_user_id: string | null;
  wallet_address: `0x${string}` | null;
}

const WHICH_USER = "Send external_user_id and/or wallet_address to say which end user";

export function identityOf(b: Body, missing = WHICH_USER): Identity {
  const external_user_id = optIdentifier(b, "external_user_id");
  const raw = b.wallet_address;
  const wallet_address = raw === undefined || raw === null || raw === "" ? null : walletParam(raw);
  if (!external_user_id && !wallet_address) throw badRequest("missing_user_identifier", missing);
  return { external_user_id, wallet_address };
}
