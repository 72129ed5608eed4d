import { notFound } from "../../../pipeline/errors.ts";
import { intId } from "../../../pipeline/identifiers.ts";
import { created, ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, schemaRoute as typed } from "../access.ts";
import { tokenIdOf } from "../util.ts";
import { prepareAccept, relayAccept } from "./accept.ts";
import { accountPurchaseId, createOffer, formatOffer, offersOf, purchaseToken } from "./offers.ts";
import { acceptPrepareRoute, acceptRoute, createForPurchaseRoute, createRoute, listByTokenRoute, listForPurchaseRoute } from "./schemas.ts";

// Buyback offers and their relayed accept (POOL model; a TIER key gets 403
// not_pool_partner). Offers are made on the caller's own tokens only; another
// partner's token is 404 token_not_found, like a token that does not exist.

const POOL = ["POOL"] as const;

const ownPurchaseId = (c: HandlerContext, raw: string) => accountPurchaseId(c.services, c.key!.account_id, intId(raw, "purchase_id"));

async function offersFor(c: HandlerContext, match: (o: { token_id: string; purchase_id: number | null }) => boolean) {
  return (await offersOf(c.services, c.key!.account_id, match)).map((o) => formatOffer(c.services, o));
}

export const buybackRoutes: RouteSpec[] = [
  typed("POST", "/mystery/buyback/:token_id/accept/prepare", partner("packs:read", POOL), "partner_read", acceptPrepareRoute, async (c) =>
    // The body (item_type?) may be {} or absent: the token in the path decides.
    ok(await prepareAccept(c.services, c.key!.account_id, c.input.params.token_id)),
  ),

  typed("POST", "/mystery/buyback/:token_id/accept", partner("packs:buyback", POOL), "partner_write", acceptRoute, async (c) =>
    ok(await relayAccept(c.services, c.key!.account_id, c.input.params.token_id, c.input.body.receiver_signature)),
  ),

  typed("POST", "/mystery/buyback", partner("packs:buyback", POOL), "partner_write", createRoute, async (c) => {
    const b = c.input.body;
    const { offer, idempotent } = await createOffer(c.services, c.key!.account_id, b.token_id, b.offer_price_usdc);
    return created(formatOffer(c.services, offer, { idempotent }));
  }),

  typed("GET", "/mystery/buyback", partner("packs:read", POOL), "partner_read", listByTokenRoute, async (c) => {
    const tokenId = c.input.query.token_id;
    return ok({ offers: tokenId === null ? [] : await offersFor(c, (o) => o.token_id === tokenId) });
  }),

  typed("POST", "/mystery/buyback/:purchase_id", partner("packs:buyback", POOL), "partner_write", createForPurchaseRoute, async (c) => {
    const b = c.input.body;
    const raw = c.input.params.purchase_id;
    // A purchase id of this account wins; otherwise the segment is an on-chain token id.
    const purchaseId = ownPurchaseId(c, raw);
    let tokenId: string;
    if (purchaseId !== null) {
      const token = b.token_id === undefined || b.token_id === null || b.token_id === "" ? null : { raw: b.token_id, id: tokenIdOf(b.token_id) };
      tokenId = purchaseToken(c.services, purchaseId, token);
    } else {
      const t = tokenIdOf(raw);
      if (t === null) throw notFound(`No purchase or token ${raw}`);
      tokenId = t;
    }
    const { offer, idempotent } = await createOffer(c.services, c.key!.account_id, tokenId, b.offer_price_usdc);
    return created(formatOffer(c.services, offer, { idempotent }));
  }),

  typed("GET", "/mystery/buyback/:purchase_id", partner("packs:read", POOL), "partner_read", listForPurchaseRoute, async (c) => {
    const raw = c.input.params.purchase_id;
    const purchaseId = ownPurchaseId(c, raw);
    const tokenId = tokenIdOf(raw);
    const offers = await offersFor(c, (o) => (purchaseId !== null ? o.purchase_id === purchaseId : o.token_id === tokenId));
    if (offers.length === 0) throw notFound(`No buyback offers for ${raw}`);
    return ok({ offers });
  }),
];
