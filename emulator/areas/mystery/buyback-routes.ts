import { badRequest, notFound } from "../../pipeline/errors.ts";
import { created, ok, type HandlerContext, type RouteSpec } from "../../pipeline/route.ts";
import { partner, route } from "./access.ts";
import { createOffer, formatOffer, purchaseToken, watchOffers } from "./buyback.ts";
import { mystery } from "./state.ts";
import { body, tokenIdOf } from "./util.ts";

// Buyback offers (POOL model; a TIER key gets 403 not_pool_partner).

const POOL = ["POOL"] as const;

function ownPurchaseId(c: HandlerContext, raw: string): number | null {
  if (!/^\d{1,15}$/.test(raw)) return null;
  const p = mystery(c.services).purchases[Number(raw)];
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
    const b = await body(c);
    if (b.token_id === undefined || b.token_id === null || b.token_id === "") throw badRequest("token_required", "token_id is required");
    const tokenId = tokenIdOf(b.token_id);
    if (tokenId === null) throw notFound(`No token ${String(b.token_id)}`, "token_not_found");
    const purchase = Object.values(mystery(c.services).purchases).find((p) => p.account_id === c.key!.account_id && p.items?.some((i) => i.token_id === tokenId));
    const { offer, idempotent } = await createOffer(c, tokenId, purchase?.id ?? null, b.offer_price_usdc);
    return created(formatOffer(c.services, offer, { idempotent }));
  }),

  route("GET", "/mystery/buyback", partner("packs:read", POOL), "partner_read", async (c) => {
    const raw = c.query.get("token_id");
    if (!raw) throw badRequest("token_required", "token_id is required");
    return ok({ offers: await offersFor(c, (o) => o.token_id === (tokenIdOf(raw) ?? raw)) });
  }),

  route("POST", "/mystery/buyback/:purchase_id", partner("packs:buyback", POOL), "partner_write", async (c) => {
    const b = await body(c);
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
    const { offer, idempotent } = await createOffer(c, tokenId, purchaseId, b.offer_price_usdc);
    return created(formatOffer(c.services, offer, { idempotent }));
  }),

  route("GET", "/mystery/buyback/:purchase_id", partner("packs:read", POOL), "partner_read", async (c) => {
    const raw = c.params.purchase_id!;
    const purchaseId = ownPurchaseId(c, raw);
    const offers = await offersFor(c, (o) => (purchaseId !== null ? o.purchase_id === purchaseId : o.token_id === raw));
    if (offers.length === 0) throw notFound(`No buyback offers for ${raw}`);
    return ok({ offers });
  }),
];
