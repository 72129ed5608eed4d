import type { Hex } from "viem";
import { badRequest, notFound } from "../../../pipeline/errors.ts";
import { checkIdLength, intId } from "../../../pipeline/identifiers.ts";
import { created, ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, route } from "../access.ts";
import { parseUsdc, tokenIdOf, tokenIdParam, type Body } from "../util.ts";
import { prepareAccept, relayAccept } from "./accept.ts";
import { accountPurchaseId, createOffer, formatOffer, offersOf, purchaseToken, type OfferPrice } from "./offers.ts";

// Buyback offers and their relayed accept (POOL model; a TIER key gets 403
// not_pool_partner). Offers are made on the caller's own tokens only; another
// partner's token is 404 token_not_found, like a token that does not exist.

const POOL = ["POOL"] as const;

const isSignature = (v: unknown): v is Hex => typeof v === "string" && /^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/.test(v);

const offerPriceOf = (b: Body): OfferPrice | null => (b.offer_price_usdc === undefined || b.offer_price_usdc === null ? null : { micros: parseUsdc(b.offer_price_usdc) });

const ownPurchaseId = (c: HandlerContext, raw: string) => accountPurchaseId(c.services, c.key!.account_id, intId(raw, "purchase_id"));

async function offersFor(c: HandlerContext, match: (o: { token_id: string; purchase_id: number | null }) => boolean) {
  return (await offersOf(c.services, c.key!.account_id, match)).map((o) => formatOffer(c.services, o));
}

export const buybackRoutes: RouteSpec[] = [
  route("POST", "/mystery/buyback/:token_id/accept/prepare", partner("packs:read", POOL), "partner_read", async (c) =>
    // The body (item_type?) may be {} or absent: the token in the path decides.
    ok(await prepareAccept(c.services, c.key!.account_id, c.params.token_id!)),
  ),

  route("POST", "/mystery/buyback/:token_id/accept", partner("packs:buyback", POOL), "partner_write", async (c) => {
    const b = await c.object();
    const sig = b.receiver_signature;
    if (!isSignature(sig)) throw badRequest("invalid_receiver_signature", "receiver_signature must be the holder's 65-byte (or 64-byte compact) EIP-712 signature, 0x-prefixed hex");
    return ok(await relayAccept(c.services, c.key!.account_id, c.params.token_id!, sig));
  }),

  route("POST", "/mystery/buyback", partner("packs:buyback", POOL), "partner_write", async (c) => {
    const b = await c.object();
    if (b.token_id === undefined || b.token_id === null || b.token_id === "") throw badRequest("token_required", "token_id is required");
    const tokenId = tokenIdParam(b.token_id);
    if (tokenId === null) throw notFound(`No token ${String(b.token_id)}`, "token_not_found");
    const { offer, idempotent } = await createOffer(c.services, c.key!.account_id, tokenId, offerPriceOf(b));
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
    if (purchaseId !== null) {
      const token = b.token_id === undefined || b.token_id === null || b.token_id === "" ? null : { raw: b.token_id, id: tokenIdOf(b.token_id) };
      tokenId = purchaseToken(c.services, purchaseId, token);
    } else {
      const t = tokenIdOf(raw);
      if (t === null) throw notFound(`No purchase or token ${raw}`);
      tokenId = t;
    }
    const { offer, idempotent } = await createOffer(c.services, c.key!.account_id, tokenId, offerPriceOf(b));
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
