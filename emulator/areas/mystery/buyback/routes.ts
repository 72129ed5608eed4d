import { BUYBACK } from "../../../../contract/index.ts";
import { notFound } from "../../../pipeline/errors.ts";
import { intId } from "../../../pipeline/identifiers.ts";
import { created, ok, serve, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { parseUsdc } from "../../../../contract/money.ts";
import { tokenIdText } from "../../../../contract/index.ts";
import { prepareAccept, relayAccept } from "./accept.ts";
import { accountPurchaseId, createOffer, formatOffer, offersOf, purchaseToken, type OfferPrice } from "./offers.ts";

// Buyback offers and their relayed accept (contract/mystery/buyback.ts; POOL
// model). Offers are made on the caller's own tokens only; another partner's
// token is 404 token_not_found, like a token that does not exist.

const acct = (c: HandlerContext) => c.key!.account_id;
const ownPurchaseId = (c: HandlerContext, raw: string) =>
  accountPurchaseId(c.services, acct(c), intId(raw, "purchase_id"));

/** offer_price_usdc as the offer rules read it (they answer a bad one once the token is known eligible). */
const offerPriceOf = (v: unknown): OfferPrice | null =>
  v === undefined || v === null ? null : { micros: parseUsdc(v) };

function offersFor(c: HandlerContext, match: (o: { token_id: string; purchase_id: number | null }) => boolean) {
  return offersOf(c.services, acct(c), match).map((o) => formatOffer(c.services, o));
}

export const buybackRoutes: RouteSpec[] = [
  serve(BUYBACK.acceptPrepare, {
    gate: "partner_read",
    // The body ({item_type?}) may be {} or absent: the token in the path decides.
    handle: async (c) =>
      ok(await prepareAccept(c.services, acct(c), c.input.params.token_id, c.input.body.item_type ?? null)),
  }),

  serve(BUYBACK.accept, {
    gate: "partner_write",
    handle: async (c) =>
      ok(
        await relayAccept(
          c.services,
          acct(c),
          c.input.params.token_id,
          c.input.body.receiver_signature,
          c.input.body.item_type ?? null,
        ),
      ),
  }),

  serve(BUYBACK.create, {
    gate: "partner_write",
    handle: async (c) => {
      const b = c.input.body;
      // A token_id that is no token id names no token.
      const tokenId = tokenIdText(b.token_id);
      if (tokenId === null) throw notFound(`No token ${String(b.token_id)}`, "token_not_found");
      const { offer, idempotent } = await createOffer(
        c.services,
        acct(c),
        tokenId,
        offerPriceOf(b.offer_price_usdc),
        b.item_type ?? null,
      );
      return created(formatOffer(c.services, offer, { idempotent }));
    },
  }),

  serve(BUYBACK.offers, {
    gate: "partner_read",
    handle: (c) => {
      // A filter: a string that is no token id matches no offer.
      const tokenId = tokenIdText(c.input.query.token_id);
      return ok({ offers: tokenId === null ? [] : offersFor(c, (o) => o.token_id === tokenId) });
    },
  }),

  serve(BUYBACK.createForPurchase, {
    gate: "partner_write",
    handle: async (c) => {
      const b = c.input.body;
      const raw = c.input.params.purchase_id;
      // A purchase id of this account wins; otherwise the segment is an on-chain token id.
      const purchaseId = ownPurchaseId(c, raw);
      let tokenId: string;
      if (purchaseId !== null) {
        const token =
          b.token_id === undefined || b.token_id === null || b.token_id === ""
            ? null
            : { raw: b.token_id, id: tokenIdText(b.token_id) };
        tokenId = purchaseToken(c.services, purchaseId, token);
      } else {
        const t = tokenIdText(raw);
        if (t === null) throw notFound(`No purchase or token ${raw}`);
        tokenId = t;
      }
      const { offer, idempotent } = await createOffer(
        c.services,
        acct(c),
        tokenId,
        offerPriceOf(b.offer_price_usdc),
        null,
      );
      return created(formatOffer(c.services, offer, { idempotent }));
    },
  }),

  serve(BUYBACK.purchaseOffers, {
    gate: "partner_read",
    handle: (c) => {
      const raw = c.input.params.purchase_id;
      const purchaseId = ownPurchaseId(c, raw);
      const tokenId = tokenIdText(raw);
      const offers = offersFor(c, (o) => (purchaseId !== null ? o.purchase_id === purchaseId : o.token_id === tokenId));
      if (offers.length === 0) throw notFound(`No buyback offers for ${raw}`);
      return ok({ offers });
    },
  }),
];
