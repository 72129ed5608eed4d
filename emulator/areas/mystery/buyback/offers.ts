import { encodeFunctionData, hashTypedData, type Hex } from "viem";
import { buybackMarketplaceAbi, cardNftAbi, type Chain } from "../../../../chain/index.ts";
import { ApiError, badRequest, conflict, notFound } from "../../../pipeline/errors.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import type { HandlerContext } from "../../../pipeline/route.ts";
import type { Services } from "../../../pipeline/services.ts";
import { buybackPrice, ELIGIBLE_MAX, ELIGIBLE_MIN, marketplaceFee } from "./pricing.ts";
import { burnState, chainOf, ownerOf, sendAs, tokenRecord, usdcBalance } from "../chain-io.ts";
import { groupOf } from "../catalog/items.ts";
import { settleFromChain } from "../purchases/purchases.ts";
import { mystery, type OfferRow, type PurchaseRow, type TransferRow } from "../state.ts";
import { emit, JOB_RETRY_MS, parseUsdc, tokenIdParam, tokenLockKey, usdc, type JobErrorHandler } from "../util.ts";
import { activeWallet } from "../wallet/wallets.ts";

// POOL-model buyback: the service signs a BuybackMarketplace offer (EIP-712
// OfferRequest, requester = the pool signer) at 85% of the card's value; the
// holder accepts on chain; the card lands at the pool signer and the
// forwarding worker sends it on to the partner's active pool wallet.

export const OFFER_TTL_S = 24 * 60 * 60;
export const TRANSFER_RETRY_MS = 15 * 60 * 1000;
export const TRANSFER_MAX_ATTEMPTS = 10;

const OFFER_TYPES = {
  OfferRequest: [
    { name: "tokenContractAddress", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "price", type: "uint256" },
    { name: "acceptedCurrency", type: "address" },
    { name: "deadline", type: "uint256" },
    { name: "requester", type: "address" },
    { name: "chainId", type: "uint256" },
    { name: "minSellerAmount", type: "uint256" },
  ],
} as const;

const domainOf = (chain: Chain) => ({ name: "BuybackMarketplace", version: "1", chainId: chain.chainId, verifyingContract: chain.addresses.marketplace }) as const;

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

export function formatOffer(s: Services, o: OfferRow, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const chain = chainOf(s);
  const msg = offerMessage(chain, o);
  const price = BigInt(o.price_micros);
  const fee = BigInt(o.fee_micros);
  return {
    offer_id: o.offer_id,
    offer_signature: o.offer_signature,
    signature: o.offer_signature,
    offer_hash: o.offer_hash,
    purchase_id: o.purchase_id,
    token_id: o.token_id,
    item_type: o.item_type,
    contract_address: chain.addresses.cardNft,
    requester: chain.poolSigner.address,
    target: o.target,
    chain_id: chain.chainId,
    deadline: o.deadline,
    status: o.status,
    price: o.price_micros,
    price_usdc: usdc(price),
    seller_receives_usdc: usdc(price - fee),
    marketplace_fee_usdc: usdc(fee),
    value_usdc: usdc(o.value_micros),
    value_source: "buyback_oracle",
    accepted_at: o.accepted_at,
    created_at: o.created_at,
    typed_data: {
      domain: domainOf(chain),
      types: OFFER_TYPES,
      primaryType: "OfferRequest",
      message: Object.fromEntries(Object.entries(msg).map(([k, v]) => [k, typeof v === "bigint" ? v.toString() : v])),
    },
    calls: [
      {
        kind: "set-approval-for-all",
        to: chain.addresses.cardNft,
        data: encodeFunctionData({ abi: cardNftAbi, functionName: "setApprovalForAll", args: [chain.addresses.marketplace, true] }),
        description: "One-time: let the marketplace move the holder's cards",
      },
      {
        kind: "accept-offer",
        to: chain.addresses.marketplace,
        data: encodeFunctionData({ abi: buybackMarketplaceAbi, functionName: "acceptOffer", args: [msg, o.offer_signature as Hex] }),
        description: `Sell token ${o.token_id} for ${usdc(price - fee)} USDC (net of the marketplace fee)`,
      },
    ],
    note: "The holder accepts on chain (acceptOffer); buyback.confirmed follows, then the card is forwarded to the pool wallet.",
    ...extra,
  };
}

/**
 * The caller's purchase the token was revealed from (reveals not yet read are
 * read from the chain first), or null. Offers are only made on a partner's own
 * tokens: a token of another partner's purchase is answered like a token that
 * does not exist (404 token_not_found), so its existence does not leak.
 */
export async function ownTokenPurchase(c: HandlerContext, tokenId: string): Promise<PurchaseRow | null> {
  const acct = c.key!.account_id;
  const find = () => Object.values(mystery(c.services).purchases).find((p) => p.account_id === acct && p.items?.some((i) => i.token_id === tokenId)) ?? null;
  const found = find();
  if (found || !c.services.chain) return found;
  const waiting = Object.values(mystery(c.services).purchases).filter((p) => p.account_id === acct && p.status === "SUBMITTED").map((p) => p.id);
  for (const id of waiting) await settleFromChain(c.services, id);
  return find();
}

/**
 * Creates (or returns the active) offer for one of the caller's tokens; every
 * pre-flight error is a 4xx. Idempotent per (partner, token): parallel calls
 * take turns on that key, so there is never more than one active offer.
 */
export async function createOffer(c: HandlerContext, tokenId: string, overrideRaw: unknown): Promise<{ offer: OfferRow; idempotent: boolean }> {
  const acct = c.key!.account_id;
  return withKeyLock(c.services.store, tokenLockKey("offer", acct, tokenId), async () => {
    const existing = Object.values(mystery(c.services).offers).find((o) => o.account_id === acct && o.token_id === tokenId && o.status === "active");
    if (existing) return { offer: existing, idempotent: true };
    const purchase = await ownTokenPurchase(c, tokenId);
    if (!purchase) throw notFound(`No token ${tokenId} from this account's purchases`, "token_not_found");
    return signOffer(c, tokenId, purchase.id, overrideRaw);
  });
}

async function signOffer(c: HandlerContext, tokenId: string, purchaseId: number, overrideRaw: unknown): Promise<{ offer: OfferRow; idempotent: boolean }> {
  const s = c.services;
  const acct = c.key!.account_id;
  const chain = chainOf(s);
  const id = BigInt(tokenId);
  const holder = await ownerOf(chain, id);
  if (!holder) throw notFound(`No token ${tokenId} on chain`, "token_not_found");
  const rec = await tokenRecord(chain, id);
  const type = groupOf(rec.groupId)?.itemType;
  const notEligible = (reason: string, message: string) => conflict("not_eligible", message, { details: { token_id: tokenId, reason } });
  if (!type) throw notEligible("not_whitelisted", `Token ${tokenId} was not minted by the mystery pool`);
  if (type !== "CARD" && type !== "GRADED_CARD") throw notEligible("item_type", `Only cards are bought back; token ${tokenId} is a ${type}`);
  if ((await burnState(chain, id)).pending) throw notEligible("frozen", `Token ${tokenId} has a pending burn (redemption or grading)`);
  if (holder.toLowerCase() === chain.poolSigner.address.toLowerCase()) throw notEligible("already_bought_back", `Token ${tokenId} was already bought back`);
  const value = rec.oracleValue;
  if (value === 0n) throw conflict("value_unknown", `Token ${tokenId}'s group has no oracle price`);
  if (value < ELIGIBLE_MIN || value > ELIGIBLE_MAX)
    throw notEligible("value_out_of_range", `Only cards valued $10–$100 are bought back; token ${tokenId} is worth ${usdc(value)} USDC`);
  let price = buybackPrice(value);
  if (overrideRaw !== undefined && overrideRaw !== null) {
    const o = parseUsdc(overrideRaw);
    if (o === null || o === 0n) throw badRequest("invalid_amount", "offer_price_usdc must be a positive decimal USDC amount");
    if (o > price) throw badRequest("price_too_high", `offer_price_usdc may only lower the offer (default ${usdc(price)} USDC)`);
    price = o;
  }
  const liquidity = await usdcBalance(chain, chain.poolSigner.address);
  if (liquidity < price) throw conflict("insufficient_liquidity", `The buyback float holds ${usdc(liquidity)} USDC; this offer needs ${usdc(price)}`);
  const now = s.clock.now();
  const row: OfferRow = {
    offer_id: s.store.nextId("mystery-offer", 7001),
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
  const signer = chain.walletClientFor(chain.poolSigner);
  row.offer_signature = await signer.signTypedData({ account: signer.account, domain: domainOf(chain), types: OFFER_TYPES, primaryType: "OfferRequest", message: msg });
  row.offer_hash = hashTypedData({ domain: domainOf(chain), types: OFFER_TYPES, primaryType: "OfferRequest", message: msg });
  mystery(s).offers[row.offer_id] = row;
  return { offer: row, idempotent: false };
}

// ---------------------------------------------------------------- acceptance and forwarding

/** Reads the marketplace for active offers: accepted → buyback.confirmed + a pending transfer; past deadline → expired. */
export async function watchOffers(s: Services, onError?: JobErrorHandler): Promise<void> {
  if (!s.chain) return;
  const chain = s.chain.chain;
  const active = Object.values(mystery(s).offers).filter((o) => o.status === "active");
  for (const o of active)
    if (!onError) await watchOffer(s, chain, o);
    else await watchOffer(s, chain, o).catch((err: unknown) => onError(`offer ${o.offer_id} watch`, err));
}

async function watchOffer(s: Services, chain: Chain, o: OfferRow): Promise<void> {
  const used = await chain.publicClient.readContract({ address: chain.addresses.marketplace, abi: buybackMarketplaceAbi, functionName: "offerUsed", args: [o.offer_hash as Hex] });
  const row = mystery(s).offers[o.offer_id];
  if (!row || row.status !== "active") return;
  if (!used) {
    if (Math.floor(s.clock.now() / 1000) > row.deadline) row.status = "expired";
    return;
  }
  const logs = await chain.publicClient.getContractEvents({
    address: chain.addresses.marketplace,
    abi: buybackMarketplaceAbi,
    eventName: "OfferAccepted",
    args: { offerHash: o.offer_hash as Hex },
    fromBlock: chain.deployBlock,
  });
  const now = mystery(s).offers[o.offer_id];
  if (!now || now.status !== "active") return;
  const accepted = logs[0];
  // One acceptance confirms one offer: a row sharing the hash of an offer already confirmed is void.
  const taken = Object.values(mystery(s).offers).some((x) => x.offer_id !== now.offer_id && x.offer_hash === now.offer_hash && x.status === "accepted");
  if (!accepted || taken) {
    now.status = "cancelled";
    return;
  }
  now.status = "accepted";
  now.accepted_at = s.clock.nowIso();
  now.accept_tx_hash = accepted.transactionHash;
  emit(s, now.account_id, "buyback.confirmed", String(now.offer_id), {
    purchase_id: now.purchase_id,
    offer_id: now.offer_id,
    token_id: now.token_id,
    status: "accepted",
    seller: accepted.args.seller,
    seller_receives_usdc: usdc(accepted.args.sellerAmount ?? 0n),
    marketplace_fee_usdc: usdc(accepted.args.fee ?? 0n),
    transaction_hash: accepted.transactionHash,
  });
  mystery(s).transfers[now.offer_id] = {
    offer_id: now.offer_id,
    account_id: now.account_id,
    token_id: now.token_id,
    status: "pending",
    attempts: 0,
    next_attempt_at: s.clock.now(),
    to_address: null,
    tx_hash: null,
    last_error: null,
  };
}

function transferEventBase(s: Services, t: TransferRow) {
  const o = mystery(s).offers[t.offer_id]!;
  return { purchase_id: o.purchase_id, offer_id: o.offer_id, offer_signature: o.offer_signature, token_id: t.token_id };
}

/** One forwarding attempt: to the active pool wallet, else held (one event) and retried every 15 minutes; 10 failures are terminal. */
export async function attemptTransfer(s: Services, offerId: number): Promise<void> {
  const t = mystery(s).transfers[offerId];
  if (!t || (t.status !== "pending" && t.status !== "held")) return;
  const wallet = activeWallet(s, "pool_wallets", t.account_id);
  let error = "pool_wallet_not_set";
  let message = "No pool wallet is set; the transfer retries every 15 minutes until one is set (PUT /mystery/pool-wallet)";
  if (wallet && s.chain) {
    const chain = s.chain.chain;
    const data = encodeFunctionData({ abi: cardNftAbi, functionName: "safeTransferFrom", args: [chain.poolSigner.address, wallet.address as `0x${string}`, BigInt(t.token_id)] });
    try {
      const receipt = await sendAs(chain, chain.poolSigner, chain.addresses.cardNft, data);
      if (receipt.status === "success") {
        const row = mystery(s).transfers[offerId]!;
        row.status = "transferred";
        row.attempts += 1;
        row.to_address = wallet.address;
        row.tx_hash = receipt.transactionHash;
        emit(s, row.account_id, "buyback.card_transferred", String(offerId), {
          ...transferEventBase(s, row),
          contract_address: chain.addresses.cardNft,
          to_address: wallet.address,
          tx_hash: receipt.transactionHash,
        });
        return;
      }
      error = "transfer_reverted";
      message = `safeTransferFrom to ${wallet.address} reverted`;
    } catch (err) {
      error = "transfer_error";
      message = (err as Error).message.split("\n")[0]!;
    }
  }
  const row = mystery(s).transfers[offerId]!;
  row.attempts += 1;
  row.last_error = message;
  if (row.attempts >= TRANSFER_MAX_ATTEMPTS) {
    row.status = "failed";
    emit(s, row.account_id, "buyback.transfer_failed", String(offerId), { ...transferEventBase(s, row), error: message, attempts: row.attempts });
    return;
  }
  if (row.status === "pending") {
    row.status = "held";
    emit(s, row.account_id, "buyback.transfer_held", String(offerId), { ...transferEventBase(s, row), reason: error, message });
  }
  row.next_attempt_at = s.clock.now() + TRANSFER_RETRY_MS;
}

/** Every due forwarding attempt; one that throws is reported and tried again later, the rest go on. */
export async function runDueTransfers(s: Services, onError: JobErrorHandler): Promise<void> {
  const now = s.clock.now();
  const due = Object.values(mystery(s).transfers).filter((t) => (t.status === "pending" || t.status === "held") && t.next_attempt_at <= now);
  for (const t of due)
    try {
      await attemptTransfer(s, t.offer_id);
    } catch (err) {
      onError(`buyback transfer ${t.offer_id}`, err);
      const row = mystery(s).transfers[t.offer_id];
      if (row && (row.status === "pending" || row.status === "held") && row.next_attempt_at <= s.clock.now()) row.next_attempt_at = s.clock.now() + JOB_RETRY_MS;
    }
}

/** Purchase-path resolution for POST /mystery/buyback/:purchase_id. */
export function purchaseToken(c: HandlerContext, purchaseId: number, tokenRaw: unknown): string {
  const p = mystery(c.services).purchases[purchaseId]!;
  if (p.status !== "FULFILLED" || !p.items) throw conflict("not_fulfilled", `Purchase ${purchaseId} is ${p.status}; offers need a revealed purchase`);
  const cards = p.items.filter((i) => i.item_type === "CARD" || i.item_type === "GRADED_CARD");
  if (tokenRaw === undefined || tokenRaw === null || tokenRaw === "") {
    if (cards.length === 1) return cards[0]!.token_id;
    if (cards.length === 0) throw conflict("not_eligible", `Purchase ${purchaseId} has no cards to buy back`, { details: { reason: "no_cards" } });
    throw badRequest("token_required", `Purchase ${purchaseId} has ${cards.length} cards; send token_id`, { details: { token_ids: cards.map((i) => i.token_id) } });
  }
  const tokenId = tokenIdParam(tokenRaw, "token_id");
  const item = tokenId === null ? undefined : p.items.find((i) => i.token_id === tokenId);
  if (!item) throw new ApiError(404, "token_not_found", `Token ${String(tokenRaw)} is not an item of purchase ${purchaseId}`);
  return item.token_id;
}

