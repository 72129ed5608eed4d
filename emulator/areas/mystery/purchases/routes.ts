import { encodeFunctionData } from "viem";
import { mysteryPoolAbi, usdStablecoinAbi } from "../../../../chain/index.ts";
import { ApiError, badRequest, conflict, notFound } from "../../../pipeline/errors.ts";
import { idempotent } from "../../../pipeline/idempotency.ts";
import { paginate, parseOffsetPage } from "../../../pipeline/pagination.ts";
import { accepted, ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import { own } from "../../../state/own.ts";
import { partner, route } from "../access.ts";
import { chainOf, receiptOf } from "../chain-io.ts";
import { formatPurchase, newPurchase, purchaseRequestedIn, relayCustodial, settleFromChain } from "./purchases.ts";
import { endUser } from "../wallet/end-users.ts";
import { identityOf } from "../identity.ts";
import { mystery, PURCHASE_STATUSES, type PurchaseRow, type PurchaseStatus } from "../state.ts";
import { tierOf } from "../catalog/tiers.ts";
import { ledgerHold } from "../wallet/ledger.ts";
import { checkIdLength, intId } from "../../../pipeline/identifiers.ts";
import { emit, isTxHash, optIdentifier, parseUsdc, tierParam, txLockKey, usdc, walletParam, type Body } from "../util.ts";

// Purchases: non-custodial prepare/submit, custodial purchase, reads.

const account = (c: HandlerContext) => c.key!.account_id;

/** A purchase of the caller's account (others' are 404), settled from the chain first. */
export async function ownPurchase(c: HandlerContext, rawId: string | undefined): Promise<PurchaseRow> {
  const id = intId(rawId, "purchase_id");
  const row = id === null ? undefined : own(mystery(c.services).purchases, String(id));
  if (!row || row.account_id !== account(c)) throw notFound(`No purchase ${rawId ?? ""} on this account`);
  if (row.status === "SUBMITTED") await settleFromChain(c.services, row.id);
  return mystery(c.services).purchases[row.id] ?? row;
}

function maxPriceOf(b: Body, price: bigint): bigint {
  if (b.max_price_usdc === undefined || b.max_price_usdc === null) return price;
  const m = parseUsdc(b.max_price_usdc);
  if (m === null) throw badRequest("invalid_amount", "max_price_usdc must be a non-negative decimal USDC amount with at most 6 places, such as \"25.00\"");
  if (m < price) throw conflict("max_price_exceeded", `The tier costs ${usdc(price)} USDC, above max_price_usdc ${usdc(m)}`);
  return m;
}

export const purchaseRoutes: RouteSpec[] = [
  route("POST", "/mystery/purchase/prepare", partner("packs:purchase"), "purchase", async (c) => {
    const b = await c.object();
    const tier = tierOf(c.services, tierParam(b.tier_id));
    const wallet = walletParam(b.wallet_address);
    const maxPrice = maxPriceOf(b, tier.price);
    const chain = chainOf(c.services);
    const { mysteryPool, stablecoin } = chain.addresses;
    // Real calldata; nothing is stored (interface: "creates no rows").
    return ok({
      chain_id: chain.chainId,
      contract: mysteryPool,
      payment_token: stablecoin,
      wallet_address: wallet,
      tier_id: tier.tierId,
      max_price: String(maxPrice),
      max_price_usdc: usdc(maxPrice),
      calls: [
        {
          kind: "erc20-approve",
          to: stablecoin,
          data: encodeFunctionData({ abi: usdStablecoinAbi, functionName: "approve", args: [mysteryPool, maxPrice] }),
          value: "0",
          description: `Approve the mystery pool to take up to ${usdc(maxPrice)} USDC (skip when the allowance already covers it)`,
        },
        {
          kind: "purchase",
          to: mysteryPool,
          data: encodeFunctionData({ abi: mysteryPoolAbi, functionName: "purchase", args: [tier.tierId, maxPrice] }),
          value: "0",
          description: `Buy one ${tier.name} pack (tier ${tier.tierId}); the receipt carries the VRF request id`,
        },
      ],
    });
  }),

  route("POST", "/mystery/purchase/submit", partner("packs:purchase"), "purchase", async (c) => {
    const b = await c.object();
    const tier = tierOf(c.services, tierParam(b.tier_id));
    const hash = b.transaction_hash ?? b.tx_hash;
    if (hash === undefined || hash === null || hash === "") throw badRequest("missing_tx_hash", "transaction_hash is required (submit after the purchase transaction is mined)");
    if (!isTxHash(hash)) throw badRequest("invalid_tx_hash", "transaction_hash must be 0x followed by 64 hex characters");
    const wallet = walletParam(b.wallet_address);
    const external_user_id = optIdentifier(b, "external_user_id");
    checkIdLength(b.request_id, "request_id");
    // Idempotent on the hash: parallel submits of one hash take turns, so the
    // first records the purchase and the others answer that same record.
    return withKeyLock(c.services.store, txLockKey(hash), async () => {
      const existing = Object.values(mystery(c.services).purchases).find((p) => p.transaction_hash?.toLowerCase() === hash.toLowerCase());
      if (existing) {
        if (existing.account_id !== account(c)) throw conflict("tx_already_recorded", "This transaction is already recorded for another partner");
        await settleFromChain(c.services, existing.id);
        return accepted(formatPurchase(mystery(c.services).purchases[existing.id] ?? existing));
      }
      const chain = chainOf(c.services);
      const receipt = await receiptOf(chain, hash);
      if (!receipt) throw badRequest("tx_unverified", "The transaction is not on the chain (submit after it is mined)");
      if (receipt.status !== "success") throw badRequest("tx_reverted", "The purchase transaction reverted on chain");
      const req = purchaseRequestedIn(c.services, receipt);
      if (!req) throw badRequest("tx_unverified", "The transaction has no MysteryPool PurchaseRequested log");
      if (req.buyer.toLowerCase() !== wallet.toLowerCase())
        throw badRequest("purchaser_mismatch", `The purchase was made by ${req.buyer}, not wallet_address ${wallet}`);
      if (Number(req.tierId) !== tier.tierId) throw badRequest("invalid_tier", `The transaction bought tier ${req.tierId}, not tier ${tier.tierId}`);
      if (b.request_id !== undefined && b.request_id !== null && String(b.request_id) !== req.requestId.toString())
        throw badRequest("tx_unverified", `request_id ${String(b.request_id)} does not match the VRF request ${req.requestId} in the receipt`, {
          details: { request_id: req.requestId.toString() },
        });
      const now = c.services.clock.nowIso();
      const row = newPurchase(c.services, {
        account_id: account(c),
        custody: "NON_CUSTODIAL",
        status: "SUBMITTED",
        tier_id: tier.tierId,
        price_micros: req.price.toString(),
        onchain_request_id: req.requestId.toString(),
        transaction_hash: receipt.transactionHash,
        purchaser_address: req.buyer,
        external_user_id,
        reserved_at: null,
        submitted_at: now,
      });
      emit(c.services, row.account_id, "purchase.submitted", String(row.id), {
        purchase_id: row.id,
        status: "SUBMITTED",
        transaction_hash: row.transaction_hash,
        custody: "NON_CUSTODIAL",
      });
      await settleFromChain(c.services, row.id);
      return accepted(formatPurchase(mystery(c.services).purchases[row.id] ?? row));
    });
  }),

  route("POST", "/mystery/purchase", partner("packs:purchase"), "purchase", async (c) => {
    const key = c.req.headers.get("idempotency-key");
    if (key === null || key.trim() === "") throw badRequest("missing_idempotency_key", "POST /mystery/purchase requires an Idempotency-Key header");
    const b = await c.object();
    const tier = tierOf(c.services, tierParam(b.tier_id));
    if (b.quantity !== undefined && b.quantity !== 1) throw badRequest("unsupported_quantity", "quantity is fixed at 1 (one pack per call)");
    const who = identityOf(b, "Send external_user_id and/or wallet_address to say which end user buys");
    const acct = account(c);
    return idempotent(
      c.services.store,
      {
        scope: `${acct}:mystery-purchase`,
        key,
        fingerprint: { tier_id: tier.tierId, user: who.external_user_id ?? who.wallet_address?.toLowerCase() },
        now: c.services.clock.nowIso(),
        // A replay answers the original 202 with the purchase as it is now.
        replay: (orig) => {
          const id = (orig.data as { id: number }).id;
          const row = own(mystery(c.services).purchases, String(id));
          return accepted(row ? formatPurchase(row) : orig.data);
        },
      },
      async () => {
        chainOf(c.services); // 503 chain_unavailable before anything is held
        const maxPrice = maxPriceOf(b, tier.price);
        const user = endUser(c.services, acct, who);
        const available = BigInt(user.balance_micros) - BigInt(user.reserved_micros);
        if (available < tier.price)
          throw new ApiError(402, "insufficient_funds", `The end user's available balance is ${usdc(available)} USDC; the tier costs ${usdc(tier.price)}`, {
            details: { available_usdc: usdc(available), price_usdc: usdc(tier.price) },
          });
        user.reserved_micros = String(BigInt(user.reserved_micros) + tier.price);
        const now = c.services.clock.nowIso();
        const row = newPurchase(c.services, {
          account_id: acct,
          custody: "CUSTODIAL",
          status: "RESERVED",
          tier_id: tier.tierId,
          price_micros: tier.price.toString(),
          onchain_request_id: null,
          transaction_hash: null,
          purchaser_address: user.wallet_address,
          external_user_id: user.external_user_id.startsWith("wallet:") ? null : user.external_user_id,
          reserved_at: now,
          submitted_at: null,
        });
        ledgerHold(c.services, acct, user, row.id, tier.price);
        emit(c.services, acct, "purchase.reserved", String(row.id), { purchase_id: row.id, status: "RESERVED" });
        const done = await relayCustodial(c.services, row.id, maxPrice);
        return accepted(formatPurchase(done));
      },
    );
  }),

  route("GET", "/mystery/purchase/:id", partner("packs:read"), "partner_read", async (c) => ok(formatPurchase(await ownPurchase(c, c.params.id)))),

  route("GET", "/mystery/purchases", partner("packs:read"), "partner_read", async (c) => {
    const status = c.query.get("status");
    if (status !== null && !PURCHASE_STATUSES.includes(status.toUpperCase() as PurchaseStatus))
      throw badRequest("invalid_status", `status must be one of ${PURCHASE_STATUSES.join(", ")}`);
    const page = parseOffsetPage(c.query);
    const user = c.query.get("external_user_id");
    checkIdLength(user, "external_user_id");
    const wallet = c.query.get("wallet_address")?.toLowerCase();
    const acct = account(c);
    for (const p of Object.values(mystery(c.services).purchases)) if (p.account_id === acct && p.status === "SUBMITTED") await settleFromChain(c.services, p.id);
    const rows = Object.values(mystery(c.services).purchases)
      .filter((p) => p.account_id === acct)
      .filter((p) => !status || p.status === status.toUpperCase())
      .filter((p) => !user || p.external_user_id === user)
      .filter((p) => !wallet || p.purchaser_address.toLowerCase() === wallet)
      .sort((a, b) => b.id - a.id);
    const { items, pagination } = paginate(rows, page);
    return ok({ purchases: items.map(formatPurchase) }, { pagination });
  }),
];

