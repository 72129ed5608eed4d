import { isTestValue } from "../../../pipeline/test-values.ts";
import type { Hex } from "viem";
import { hashTypedData, encodeFunctionData } from "../../../../chain/viem-late.ts";
import {
  buybackMarketplaceAbi,
  cardNftAbi,
  marketplaceDomain,
  offerRequestTypes,
  type Chain,
} from "../../../../chain/index.ts";
import type {
  BuybackCall,
  BuybackItemType,
  BuybackOfferSummary,
  BuybackTypedData,
} from "../../../../contract/index.ts";
import { ApiError, badRequest, conflict, notFound } from "../../../pipeline/errors.ts";
import { checkIdLength } from "../../../pipeline/identifiers.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import type { Services } from "../../../pipeline/services.ts";
import { groupOf } from "../shop/items.ts";
import { burnState, chainOf, ownerOf, signAs, tokenRecord, usdcBalance } from "../chain-io.ts";
import { settleFromChain } from "../purchases/purchases.ts";
import { isRevealed, mystery, type OfferRow, type PurchaseRow } from "../state.ts";
import { tokenLockKey } from "../locks.ts";
import { usdc } from "../../../../contract/money.ts";
import { isoOf } from "../../../../contract/time.ts";
import { refreshOffer } from "./forwarding.ts";
import { beginOffer } from "./lifecycle.ts";
import { buybackPrice, ELIGIBLE_MAX, ELIGIBLE_MIN, marketplaceFee } from "./pricing.ts";
import { COUNTERS } from "../../../state/ids.ts";

// POOL-model buyback: the service signs a BuybackMarketplace offer (EIP-712
// OfferRequest, requester = the pool signer) at 85% of the card's value; the
// holder accepts on chain (accept.ts relays it); the card lands at the pool
// signer and forwarding.ts sends it on to the partner's active pool wallet.

export const OFFER_TTL_S = 24 * 60 * 60;

const OFFER_TYPES = offerRequestTypes;

/** The marketplace's EIP-712 domain (offers and relayed acceptances). */
export const domainOf = (chain: Chain) => marketplaceDomain(chain);

export function offerMessage(chain: Chain, o: OfferRow) {
  const price = BigInt(o.price_micros);
  return {
    tokenContractAddress: chain.addresses.cardNft,
    tokenId: BigInt(o.token_id),
    price,
    acceptedCurrency: chain.addresses.stablecoin,
    deadline: BigInt(o.deadline),
    requester: chain.poolSigner.address,
    chainId: BigInt(chain.chainId),
    minSellerAmount: price - BigInt(o.fee_micros),
  };
}

/** The OfferRequest as the wire carries it: uint256 fields as decimal strings (eth_signTypedData_v4 takes them so). */
export function offerTypedDataWire(chain: Chain, o: OfferRow): BuybackTypedData {
  const m = offerMessage(chain, o);
  return {
    domain: domainOf(chain),
    types: OFFER_TYPES,
    primaryType: "OfferRequest",
    message: {
      tokenContractAddress: m.tokenContractAddress,
      tokenId: m.tokenId.toString(),
      price: m.price.toString(),
      acceptedCurrency: m.acceptedCurrency,
      deadline: m.deadline.toString(),
      requester: m.requester,
      chainId: m.chainId.toString(),
      minSellerAmount: m.minSellerAmount.toString(),
    },
  };
}

/** The offer's deadline on the wire: unix seconds in the row (and the signed message), an ISO time in answers. */
export const deadlineIso = (o: OfferRow) => isoOf(o.deadline * 1000);

/** The holder's own acceptOffer (pays gas; no receiver signature needed). */
export function acceptOfferCall(chain: Chain, o: OfferRow, description: string): BuybackCall {
  return {
    kind: "accept-offer",
    to: chain.addresses.marketplace,
    data: encodeFunctionData({
      abi: buybackMarketplaceAbi,
      functionName: "acceptOffer",
      args: [offerMessage(chain, o), o.offer_signature as Hex],
    }),
    value: "0",
    description,
  };
}

/** The one-time setApprovalForAll that lets the marketplace move the holder's cards (it cannot be relayed). */
export const approveMarketplaceCall = (chain: Chain, description: string): BuybackCall => ({
  kind: "set-approval-for-all",
  to: chain.addresses.cardNft,
  data: encodeFunctionData({
    abi: cardNftAbi,
    functionName: "setApprovalForAll",
    args: [chain.addresses.marketplace, true],
  }),
  value: "0",
  description,
});

/** The only item types an offer is made on (signOffer refuses others). */
export const offerItemType = (o: OfferRow): BuybackItemType => (o.item_type === "GRADED_CARD" ? "GRADED_CARD" : "CARD");

export function formatOffer(s: Services, o: OfferRow, extra: { idempotent?: boolean } = {}): BuybackOfferSummary {
  const chain = chainOf(s);
  const price = BigInt(o.price_micros);
  const fee = BigInt(o.fee_micros);
  return {
    offer_id: o.offer_id,
    offer_signature: o.offer_signature,
    signature: o.offer_signature,
    offer_hash: o.offer_hash,
    purchase_id: o.purchase_id,
    token_id: o.token_id,
    item_type: offerItemType(o),
    contract_address: chain.addresses.cardNft,
    requester: chain.poolSigner.address,
    target: o.target,
    chain_id: chain.chainId,
    deadline: deadlineIso(o),
    status: o.status,
    price: o.price_micros,
    price_usdc: usdc(price),
    seller_receives_usdc: usdc(price - fee),
    marketplace_fee_usdc: usdc(fee),
    value_usdc: usdc(o.value_micros),
    value_source: "buyback_oracle",
    accepted_at: o.accepted_at,
    created_at: o.created_at,
    typed_data: offerTypedDataWire(chain, o),
    calls: [
      approveMarketplaceCall(chain, "One-time: let the marketplace move the holder's cards"),
      acceptOfferCall(chain, o, `Sell token ${o.token_id} for ${usdc(price - fee)} USDC (net of the marketplace fee)`),
    ],
    note: "The holder accepts on chain (acceptOffer); buyback.confirmed follows, then the card is forwarded to the pool wallet.",
    ...extra,
  };
}

/** offer_price_usdc as sent: `micros` is null when it is no USDC amount. */
export interface OfferPrice {
  micros: bigint | null;
}

/** token_id as sent: `id` is null when it is no token id (its length is checked where the old route did). */
export interface TokenInput {
  raw: unknown;
  id: string | null;
}

/**
 * The caller's purchase the token was revealed from (reveals not yet read are
 * read from the chain first), or null. Offers are only made on a partner's own
 * tokens: a token of another partner's purchase is answered like a token that
 * does not exist (404 token_not_found), so its existence does not leak.
 */
async function ownTokenPurchase(s: Services, acct: string, tokenId: string): Promise<PurchaseRow | null> {
  const find = () =>
    Object.values(mystery(s).purchases).find(
      (p) => p.account_id === acct && p.items?.some((i) => i.token_id === tokenId),
    ) ?? null;
  const found = find();
  if (found || !s.chainHost) return found;
  const waiting = Object.values(mystery(s).purchases)
    .filter((p) => p.account_id === acct && p.status === "SUBMITTED")
    .map((p) => p.id);
  for (const id of waiting) await settleFromChain(s, id);
  return find();
}

/**
 * Creates (or returns the active) offer for one of the caller's tokens; every
 * pre-flight error is a 4xx. Idempotent per (partner, token): parallel calls
 * take turns on that key, so there is never more than one active offer.
 */
export async function createOffer(
  s: Services,
  acct: string,
  tokenId: string,
  offerPrice: OfferPrice | null,
  itemType: BuybackItemType | null,
): Promise<{ offer: OfferRow; idempotent: boolean }> {
  return withKeyLock(s, tokenLockKey("offer", acct, tokenId), async () => {
    const existing = Object.values(mystery(s).offers).find(
      (o) => o.account_id === acct && o.token_id === tokenId && o.status === "active",
    );
    if (existing) {
      // A replay answers what the chain says now: an offer accepted, expired or on a burned token is
      // no longer active (creation's checks then run), and a frozen token is refused as at creation.
      await refreshOffer(s, existing.offer_id);
      const now = mystery(s).offers[existing.offer_id];
      if (now?.status === "active") {
        if (itemType !== null && now.item_type !== itemType) throw noTokenOfType(tokenId, itemType);
        refuseFrozen(await burnState(chainOf(s), BigInt(tokenId)), tokenId);
        return { offer: now, idempotent: true };
      }
    }
    const purchase = await ownTokenPurchase(s, acct, tokenId);
    if (!purchase) throw notFound(`No token ${tokenId} from this account's purchases`, "token_not_found");
    return signOffer(s, acct, tokenId, purchase.id, offerPrice, itemType);
  });
}

/** item_type names the kind of token: a token of another kind is not the one asked for. */
const noTokenOfType = (tokenId: string, itemType: BuybackItemType) =>
  notFound(`No ${itemType} token ${tokenId} from this account's purchases`, "token_not_found");

const notEligible = (tokenId: string, reason: string, message: string) =>
  conflict("not_eligible", message, { details: { token_id: tokenId, reason } });

/** A pending burn (redemption or grading) freezes transfers: no offer is made or replayed then. */
function refuseFrozen(burn: { pending: boolean }, tokenId: string): void {
  if (burn.pending) throw notEligible(tokenId, "frozen", `Token ${tokenId} has a pending burn (redemption or grading)`);
}

async function signOffer(
  s: Services,
  acct: string,
  tokenId: string,
  purchaseId: number,
  offerPrice: OfferPrice | null,
  itemType: BuybackItemType | null,
): Promise<{ offer: OfferRow; idempotent: boolean }> {
  const chain = chainOf(s);
  const id = BigInt(tokenId);
  const holder = await ownerOf(chain, id);
  const burn = await burnState(chain, id);
  if (!holder && burn.burned) throw notEligible(tokenId, "burned", `Token ${tokenId} was burned (redeemed)`);
  if (!holder) throw notFound(`No token ${tokenId} on chain`, "token_not_found");
  const rec = await tokenRecord(chain, id);
  const type = groupOf(rec.groupId)?.itemType;
  if (!type) throw notEligible(tokenId, "not_whitelisted", `Token ${tokenId} was not minted by the mystery pool`);
  if (itemType !== null && type !== itemType) throw noTokenOfType(tokenId, itemType);
  if (type !== "CARD" && type !== "GRADED_CARD")
    throw notEligible(tokenId, "item_type", `Only cards are bought back; token ${tokenId} is a ${type}`);
  refuseFrozen(burn, tokenId);
  if (holder.toLowerCase() === chain.poolSigner.address.toLowerCase())
    throw notEligible(tokenId, "already_bought_back", `Token ${tokenId} was already bought back`);
  const value = rec.oracleValue;
  if (value === 0n) throw conflict("value_unknown", `Token ${tokenId}'s group has no oracle price`);
  if (value < ELIGIBLE_MIN || value > ELIGIBLE_MAX)
    throw notEligible(
      tokenId,
      "value_out_of_range",
      `Only cards valued $10–$100 are bought back; token ${tokenId} is worth ${usdc(value)} USDC`,
    );
  let price = buybackPrice(value);
  if (offerPrice) {
    const o = offerPrice.micros;
    if (o === null || o === 0n)
      throw badRequest("invalid_amount", "offer_price_usdc must be a positive decimal USDC amount");
    if (isTestValue(s, "rejected_buyback_price", usdc(o).replace(/\.?0+$/, "")))
      throw notEligible(
        tokenId,
        "marketplace_rejected",
        `The marketplace rejected the offer (test value ${usdc(o)} USDC)`,
      );
    if (o > price)
      throw badRequest("price_too_high", `offer_price_usdc may only lower the offer (default ${usdc(price)} USDC)`);
    price = o;
  }
  const liquidity = await usdcBalance(chain, chain.poolSigner.address);
  if (liquidity < price)
    throw conflict(
      "insufficient_liquidity",
      `The buyback float holds ${usdc(liquidity)} USDC; this offer needs ${usdc(price)}`,
    );
  const now = s.clock.now();
  const row: OfferRow = {
    offer_id: s.store.nextId(COUNTERS.mysteryOffer),
    account_id: acct,
    purchase_id: purchaseId,
    token_id: tokenId,
    item_type: type,
    offer_hash: "",
    offer_signature: "",
    target: holder,
    price_micros: price.toString(),
    fee_micros: marketplaceFee(price).toString(),
    value_micros: value.toString(),
    deadline: Math.floor(now / 1000) + OFFER_TTL_S,
    status: "active",
    accepted_at: null,
    accept_tx_hash: null,
    created_at: s.clock.nowIso(),
  };
  const msg = offerMessage(chain, row);
  row.offer_signature = await signAs(chain, chain.poolSigner, {
    domain: domainOf(chain),
    types: OFFER_TYPES,
    primaryType: "OfferRequest",
    message: msg,
  });
  row.offer_hash = hashTypedData({
    domain: domainOf(chain),
    types: OFFER_TYPES,
    primaryType: "OfferRequest",
    message: msg,
  });
  mystery(s).offers[row.offer_id] = beginOffer(s, row);
  return { offer: row, idempotent: false };
}

/** The id of a purchase of the account, or null (the path segment may be a token id instead). */
export function accountPurchaseId(s: Services, acct: string, id: number | null): number | null {
  const p = id === null ? undefined : mystery(s).purchases[id];
  return p && p.account_id === acct ? p.id : null;
}

/** Purchase-path resolution for POST /mystery/buyback/:purchase_id: the named card, or the purchase's only card. */
export function purchaseToken(s: Services, purchaseId: number, token: TokenInput | null): string {
  const p = mystery(s).purchases[purchaseId]!;
  if (!isRevealed(p.status) || !p.items)
    throw conflict("not_fulfilled", `Purchase ${purchaseId} is ${p.status}; offers need a revealed purchase`);
  const cards = p.items.filter((i) => i.item_type === "CARD" || i.item_type === "GRADED_CARD");
  if (!token) {
    if (cards.length === 1) return cards[0]!.token_id;
    if (cards.length === 0)
      throw conflict("not_eligible", `Purchase ${purchaseId} has no cards to buy back`, {
        details: { reason: "no_cards" },
      });
    throw badRequest("token_required", `Purchase ${purchaseId} has ${cards.length} cards; send token_id`, {
      details: { token_ids: cards.map((i) => i.token_id) },
    });
  }
  checkIdLength(token.raw, "token_id");
  const item = token.id === null ? undefined : p.items.find((i) => i.token_id === token.id);
  if (!item)
    throw new ApiError(404, "token_not_found", `Token ${String(token.raw)} is not an item of purchase ${purchaseId}`);
  return item.token_id;
}

/** The account's offers, newest first, as the books hold them (acceptances mined are the reconciler's: pipeline/reconcile.ts). */
export function offersOf(s: Services, acct: string, match: (o: OfferRow) => boolean): OfferRow[] {
  return Object.values(mystery(s).offers)
    .filter((o) => o.account_id === acct && match(o))
    .sort((a, b) => b.offer_id - a.offer_id);
}
