import { badRequest, notFound } from "../../../pipeline/errors.ts";
import { created, ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, route } from "../access.ts";
import { createOffer, formatOffer, purchaseToken, watchOffers } from "./offers.ts";
import { mystery } from "../state.ts";
import { checkIdLength, intId } from "../../../pipeline/identifiers.ts";
import { tokenIdOf, tokenIdParam } from "../util.ts";

// Buyback offers (POOL model; a TIER key gets 403 not_pool_partner). Offers are
// made on the caller's own tokens only; another partner's token is 404
// token_not_found, like a token that does not exist.

const POOL = ["POOL"] as const;

function ownPurchaseId(c: HandlerContext, raw: string): number | null {
  const id = intId(raw, "purchase_id");
  const p = id === null ? undefined : mystery(c.services).purchases[id];
  return p && p.account_id === c.key!.account_id ? p.id : null;
}

async function offersFor(c: HandlerContext, match: (o: { token_id: string; purchase_id: number | null }) => boolean) {
  await watchOffers(c.services);
  return Object.values(mystery(c.services).offers)
    .filter((o) => o.account_id === c.key!.account_id && match(o))
    .sort((a, b) => b.offer_id - a.offer_id)
    .map((o) => formatOffer(c.services, o));
}

export const buybackRoutes: RouteSpec[] = [
  route("POST", "/mystery/buyback", partner("packs:buyback", POOL), "partner_write", async (c) => {
    const b = await c.object();
    if (b.token_id === undefined || b.token_id === null || b.token_id === "") throw badRequest("token_required", "token_id is required");
    const tokenId = tokenIdParam(b.token_id);
    if (tokenId === null) throw notFound(`No token ${String(b.token_id)}`, "token_not_found");
    const { offer, idempotent } = await createOffer(c, tokenId, b.offer_price_usdc);
    return created(formatOffer(c.services, offer, { idempotent }));
  }),

  route("GET", "/mystery/buyback", partner("packs:read", POOL), "partner_read", async (c) => {
    const raw = c.query.get("token_id");
    if (!raw) throw badRequest("token_required", "token_id is required");
    checkIdLength(raw, "token_id");
    // A filter: a string that is no token id matches no offer.
    const tokenId = tokenIdOf(raw);
    return ok({ offers: tokenId === null ? [] : await offersFor(c, (o) => o.token_id === tokenId) });
  }),

  route("POST", "/mystery/buyback/:purchase_id", partner("packs:buyback", POOL), "partner_write", async (c) => {
    const b = await c.object();
    const raw = c.params.purchase_id!;
    // A purchase id of this account wins; otherwise the segment is an on-chain token id.
    const purchaseId = ownPurchaseId(c, raw);
    let tokenId: string;
    if (purchaseId !== null) tokenId = purchaseToken(c, purchaseId, b.token_id);
    else {
      const t = tokenIdOf(raw);
      if (t === null) throw notFound(`No purchase or token ${raw}`);
      tokenId = t;
    }
    const { offer, idempotent } = await createOffer(c, tokenId, b.offer_price_usdc);
    return created(formatOffer(c.services, offer, { idempotent }));
  }),

  route("GET", "/mystery/buyback/:purchase_id", partner("packs:read", POOL), "partner_read", async (c) => {
    const raw = c.params.purchase_id!;
    const purchaseId = ownPurchaseId(c, raw);
    const tokenId = tokenIdOf(raw);
    const offers = await offersFor(c, (o) => (purchaseId !== null ? o.purchase_id === purchaseId : o.token_id === tokenId));
    if (offers.length === 0) throw notFound(`No buyback offers for ${raw}`);
    return ok({ offers });
  }),
];
