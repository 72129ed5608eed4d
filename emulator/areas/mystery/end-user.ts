import { USER_PAGE, type EndUser } from "../../../contract/index.ts";
import { parsePart } from "../../pipeline/schema.ts";

// The end user of the purchase, wallet and collection routes: external_user_id
// and/or wallet_address, at least one. The contract checks it
// (contract/mystery/fields.ts: 400 missing_user_identifier,
// invalid_wallet_address, identifier_too_long); the area only reads it.

/** The end user and the page of a user-paged query (both checked by the contract, the user first). */
export function userPageInput(q: EndUser & { limit?: unknown; offset?: unknown }) {
  return {
    who: { external_user_id: q.external_user_id, wallet_address: q.wallet_address },
    page: parsePart("query", USER_PAGE, { limit: q.limit, offset: q.offset }),
  };
}
