import { MYSTERY_CATALOG } from "../../../../contract/index.ts";
import { badRequest } from "../../../pipeline/errors.ts";
import { checkIdLength } from "../../../pipeline/identifiers.ts";
import { z } from "../../../pipeline/schema.ts";
import { tierParam, tokenIdParam } from "../util.ts";

// The emulator's own reading of the catalog requests (contract/mystery/catalog.ts
// documents them): the same fields, with the area's messages and order of
// checks; fields checked together are read by the handler.

/** The odds path: a tier id as tierParam reads it. */
export const oddsParams = z.object({ tier_id: z.string().transform((v) => tierParam(v)) });

export const priceQuery = MYSTERY_CATALOG.price.schema.query.extend({
  item_type: z
    .string()
    .optional()
    .transform((v): "CARD" | "GRADED_CARD" | null => {
      if (v === undefined || v === "") return null;
      if (v === "CARD" || v === "GRADED_CARD") return v;
      throw badRequest("invalid_price_query", `item_type must be CARD or GRADED_CARD (got "${v.slice(0, 80)}")`);
    }),
});

// Scope is read first, as it always was (a bad scope answers before bad paging).
export const feedQuery = MYSTERY_CATALOG.feedRecent.schema.query.extend({
  scope: z
    .string()
    .optional()
    .transform((v): "all" | "mine" => {
      if (v === undefined || v === "" || v === "all") return "all";
      if (v === "mine") return "mine";
      throw badRequest("invalid_value", 'scope must be "mine" (or omitted for every partner\'s reveals)');
    }),
});

/** The one of card_id / token_id a price query names (checked together, so by the handler). */
export function priceTarget(q: {
  card_id?: string | undefined;
  token_id?: string | undefined;
}): { token_id: string } | { card_id: string } {
  const cardId = q.card_id ?? "";
  const tokenId = q.token_id ?? "";
  if ((cardId === "") === (tokenId === ""))
    throw badRequest("invalid_price_query", "Send exactly one of card_id or token_id");
  if (tokenId) {
    // Checked before the chain is asked: viem throws on values past uint256.
    const id = tokenIdParam(tokenId, "token_id");
    if (id === null)
      throw badRequest(
        "invalid_price_query",
        `token_id must be a token id: a uint256 in plain decimal (got "${tokenId.slice(0, 80)}")`,
      );
    return { token_id: id };
  }
  checkIdLength(cardId, "card_id");
  return { card_id: cardId };
}
