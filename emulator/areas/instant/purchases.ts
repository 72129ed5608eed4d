import { getAddress } from "../../../chain/evm.ts";
import { bundleCards, instantProduct } from "../../../fixtures/instant/index.ts";
import { badRequest, conflict, documentedError, notFound } from "../../pipeline/errors.ts";
import { stateFence } from "../../pipeline/generation.ts";
import { withKeyLock } from "../../pipeline/key-lock.ts";
import { microsOfUsd, usdc } from "../../../contract/money.ts";
import type { Services } from "../../pipeline/services.ts";
import { own } from "../../state/own.ts";
import {
  chainOf,
  OPENING,
  opening,
  openCalls,
  packetType,
  receiptOf,
  refundOnChain,
  requestedIn,
  type PacketTypeOnChain,
} from "./chain-io.ts";
import { INSTANT_PURCHASE } from "../../../contract/lifecycles/purchases.ts";
import { startState } from "../../pipeline/lifecycle.ts";
import { beginInstant, stepInstant } from "./lifecycle.ts";
import { instant, type InstantCardRow, type InstantPurchaseRow, type InstantStatus } from "./state.ts";
import { COUNTERS } from "../../state/ids.ts";

// Instant purchases (docs/reference/live-service.md “Instant packs”): prepare answers the approve +
// purchaseInstantOpenFor calls and creates nothing; the user's wallet buys and
// opens on chain; submit records the mined transaction (SUBMITTED), verified
// against the store's InstantPurchaseRequested log; the VRF draw opens a
// bundle on chain and the purchase becomes FULFILLED with its pack and cards.

/** 503 instant_disabled while an operator has instant packs off (retryable, Retry-After). */
export function assertEnabled(s: Services): void {
  if (!instant(s).enabled)
    throw documentedError(503, "instant_disabled", "Instant packs are disabled by the operator; retry later");
}

/** The packet type on chain, or 400 invalid_packet_type. */
export async function knownPacketType(s: Services, id: number): Promise<PacketTypeOnChain> {
  const t = await packetType(chainOf(s), id);
  if (!t)
    throw badRequest("invalid_packet_type", `packet_type_id ${id} is not an instant pack (see GET /instant/catalog)`);
  return t;
}

/** prepare: 409 sold_out / max_price_exceeded, else the two calls (docs/reference/live-service.md “Instant packs”: creates nothing). */
export function preparePurchase(s: Services, t: PacketTypeOnChain, wallet: `0x${string}`, maxPrice: bigint | null) {
  if (t.stock === 0) throw conflict("sold_out", `Packet type ${t.packetTypeId} is sold out`);
  if (maxPrice !== null && maxPrice < t.price)
    throw conflict(
      "max_price_exceeded",
      `The pack costs ${usdc(t.price)} USDC, above max_price_usdc ${usdc(maxPrice)}`,
    );
  const chain = chainOf(s);
  const cap = maxPrice ?? t.price;
  const [approve, open] = openCalls(chain, t.packetTypeId, wallet, cap);
  return {
    chain_id: chain.chainId,
    payment_token: chain.addresses.stablecoin,
    contract: chain.addresses.instantPack,
    packet_type_id: t.packetTypeId,
    price: String(t.price),
    price_usdc: usdc(t.price),
    calls: [
      {
        ...approve!,
        description: `Approve the instant-pack store to take up to ${usdc(cap)} USDC (skip when the allowance already covers it)`,
      },
      {
        ...open!,
        description: `Buy and open one pack of packet type ${t.packetTypeId} for ${wallet}; the receipt carries the VRF request id`,
      },
    ],
  };
}

export interface Submitted {
  packet_type_id: number;
  hash: `0x${string}`;
  wallet: `0x${string}` | null;
  external_user_id: string | null;
}

const txLock = (hash: string) => `instant-tx:${hash.toLowerCase()}`;
const byHash = (s: Services, hash: string) =>
  Object.values(instant(s).purchases).find((p) => p.transaction_hash?.toLowerCase() === hash.toLowerCase());

/** What the body claims (packet type, wallet) must be what the receipt says. */
function checkClaims(input: Submitted, recorded: { packetTypeId: number; purchaser: string }): void {
  if (recorded.packetTypeId !== input.packet_type_id)
    throw badRequest(
      "packet_type_mismatch",
      `The transaction bought packet type ${recorded.packetTypeId}, not packet_type_id ${input.packet_type_id}`,
    );
  if (input.wallet !== null && recorded.purchaser.toLowerCase() !== input.wallet.toLowerCase())
    throw badRequest(
      "purchaser_mismatch",
      `The pack was bought by ${recorded.purchaser}, not wallet_address ${input.wallet}`,
    );
}

/**
 * Records a mined buy-and-open transaction (202 SUBMITTED). The receipt decides
 * price, request id, purchaser and recipient; the body only names what the
 * caller expects. Idempotent on the hash: parallel submits take turns on the
 * hash's lock, so the first records and the others answer that record.
 */
export function submitPurchase(s: Services, accountId: string, input: Submitted): Promise<InstantPurchaseRow> {
  return withKeyLock(s, txLock(input.hash), async () => {
    const sameState = stateFence(s);
    const existing = byHash(s, input.hash);
    if (existing) {
      if (existing.account_id !== accountId)
        throw conflict("tx_already_recorded", "This transaction is already recorded for another partner");
      // A replay is checked like the first submit, against what the receipt recorded.
      checkClaims(input, { packetTypeId: existing.packet_type_id, purchaser: existing.purchaser_address });
      await settle(s, existing.id);
      return instant(s).purchases[existing.id] ?? existing;
    }
    const chain = chainOf(s);
    const receipt = await receiptOf(chain, input.hash);
    if (!receipt) throw badRequest("tx_unverified", "The transaction is not on the chain (submit after it is mined)");
    if (receipt.status !== "success") throw badRequest("tx_reverted", "The buy-and-open transaction reverted on chain");
    const req = requestedIn(chain, receipt);
    if (!req)
      throw badRequest(
        "tx_unverified",
        "The transaction has no InstantPurchaseRequested log of the instant-pack store",
      );
    checkClaims(input, { packetTypeId: req.packetTypeId, purchaser: req.purchaser });
    sameState();
    const row = newPurchase(s, "submit", {
      account_id: accountId,
      custody: "NON_CUSTODIAL",
      packet_type_id: req.packetTypeId,
      price_micros: String(req.price),
      onchain_request_id: req.requestId.toString(),
      transaction_hash: receipt.transactionHash,
      purchaser_address: getAddress(req.purchaser),
      recipient_address: getAddress(req.recipient),
      external_user_id: input.external_user_id,
    });
    const id = row.id;
    await settle(s, id);
    return instant(s).purchases[id] ?? row;
  });
}

/** What decides a new purchase; the rest (ids, product, times) is filled in the same way for every kind. */
type NewPurchase = Pick<
  InstantPurchaseRow,
  | "account_id"
  | "custody"
  | "packet_type_id"
  | "price_micros"
  | "onchain_request_id"
  | "transaction_hash"
  | "purchaser_address"
  | "recipient_address"
  | "external_user_id"
>;

/**
 * Stores a new purchase row through its table's first move: "submit" (a mined transaction: SUBMITTED, its
 * open timeout due) or "reserve" (custodial.ts: RESERVED, the price held, due for the relayer).
 */
export function newPurchase(s: Services, trigger: "reserve" | "submit", f: NewPurchase): InstantPurchaseRow {
  const product = instantProduct(s.catalog, s.options.seed, f.packet_type_id);
  const now = s.clock.nowIso();
  const status = startState(INSTANT_PURCHASE, trigger);
  const row: InstantPurchaseRow = {
    ...f,
    status,
    id: s.store.nextId(COUNTERS.instantPurchase),
    set_id: product?.set_id ?? null,
    product_id: product?.product_id ?? null,
    failure_reason: null,
    reserved_at: status === "RESERVED" ? now : null,
    submitted_at: status === "SUBMITTED" ? now : null,
    fulfilled_at: null,
    created_at: now,
    due_at_ms: null,
    pack: null,
    cards: null,
  };
  instant(s).purchases[row.id] = row;
  return beginInstant(s, row, trigger);
}

/** The pack's cards: token i of the opening holds card i of the drawn bundle (fixtures/instant). */
function cardsOf(s: Services, p: InstantPurchaseRow, bundleId: number, tokenIds: readonly bigint[]): InstantCardRow[] {
  const cards = bundleCards(s.catalog, s.options.seed, p.packet_type_id, bundleId, tokenIds.length);
  return tokenIds.map((t, i) => {
    const c = cards[i];
    const unique_id = `IC-${p.packet_type_id}-${bundleId}-${i + 1}`;
    if (!c)
      return {
        token_id: t.toString(),
        unique_id,
        card_id: null,
        name: null,
        card_number: null,
        rarity: null,
        is_chase: null,
        small_image_url: null,
        large_image_url: null,
        front_image_url: null,
        value_usd: null,
        set_id: null,
      };
    return {
      token_id: t.toString(),
      unique_id,
      card_id: c.card_id,
      name: c.name,
      card_number: c.card_number,
      rarity: c.rarity,
      is_chase: c.is_chase,
      small_image_url: c.small_image_url,
      large_image_url: c.large_image_url,
      front_image_url: c.front_image_url,
      value_usd: c.market_usd === null ? null : usdc(microsOfUsd(c.market_usd)),
      set_id: c.set_id,
    };
  });
}

/**
 * Brings one SUBMITTED purchase up to date with the chain: opened → FULFILLED
 * (pack and cards); paid back on chain → REFUNDED/FAILED; unopened past its
 * timeout → paid back on chain and FAILED (vrf_timeout). Each change publishes its event once.
 */
export function settle(s: Services, id: number): Promise<void> {
  // One settle per purchase at a time: two must not both pay a timed-out purchase back.
  return withKeyLock(s, settleLock(id), () => settleNow(s, id));
}

/** The lock of everything that pays one purchase back on chain (settle, operator refunds). */
const settleLock = (id: number) => `instant-settle:${id}`;

async function settleNow(s: Services, id: number): Promise<void> {
  const p0 = instant(s).purchases[id];
  if (!p0 || p0.status !== "SUBMITTED" || p0.onchain_request_id === null) return;
  const chain = chainOf(s);
  const requestId = BigInt(p0.onchain_request_id);
  let o = await opening(chain, requestId);
  if (o.status === OPENING.REQUESTED && p0.due_at_ms !== null && s.clock.now() >= p0.due_at_ms) {
    await refundOnChain(chain, requestId, true);
    o = await opening(chain, requestId);
  }
  // Re-read after the awaits: a restore or another settle may have replaced or moved the row.
  const p = instant(s).purchases[id];
  if (!p || p.status !== "SUBMITTED") return;
  if (o.status === OPENING.OPENED) {
    const product = instantProduct(s.catalog, s.options.seed, p.packet_type_id);
    const now = s.clock.nowIso();
    const pack = {
      unique_id: `IP-${p.packet_type_id}-${o.bundleId}`,
      set_id: product?.set_id ?? "",
      name: product?.name ?? `Instant pack ${p.packet_type_id}`,
      image_url: product?.image_url ?? null,
      opened_at: now,
    };
    stepInstant(s, p, "open", { pack, cards: cardsOf(s, p, o.bundleId, o.tokenIds), fulfilled_at: now });
  } else if (o.status === OPENING.REFUNDED) {
    // Paid back on chain to the purchaser: for a custodial purchase the relayer, so the end user's balance is credited.
    stepInstant(s, p, "refund", undefined, { refund: BigInt(p.price_micros) });
  } else if (o.status === OPENING.FAILED) {
    const reason = { failure_reason: p.failure_reason ?? "vrf_timeout" };
    stepInstant(s, p, "open_failed", reason, { refund: BigInt(p.price_micros) });
  }
}

/** Settles every SUBMITTED purchase (the worker; a read never settles: pipeline/reconcile.ts). */
export async function settleAll(s: Services): Promise<void> {
  for (const p of Object.values(instant(s).purchases)) if (p.status === "SUBMITTED") await settle(s, p.id);
}

/** One purchase of the account (404 not_found otherwise, also for another partner's). */
export function readPurchase(s: Services, accountId: string, id: number | null, label: string): InstantPurchaseRow {
  const found = id === null ? undefined : own(instant(s).purchases, String(id));
  if (!found || found.account_id !== accountId) throw notFound(`No instant purchase ${label} for this partner`);
  return found;
}

export interface ListFilter {
  status: InstantStatus | null;
  external_user_id: string | null;
  wallet: string | null;
}

/** The account's purchases, newest first; `wallet` matches the purchaser or the recipient. */
export function listPurchases(s: Services, accountId: string, f: ListFilter): InstantPurchaseRow[] {
  return Object.values(instant(s).purchases)
    .filter((p) => p.account_id === accountId)
    .filter((p) => f.status === null || p.status === f.status)
    .filter((p) => f.external_user_id === null || p.external_user_id === f.external_user_id)
    .filter(
      (p) =>
        f.wallet === null ||
        p.purchaser_address.toLowerCase() === f.wallet ||
        p.recipient_address.toLowerCase() === f.wallet,
    )
    .sort((a, b) => b.id - a.id);
}

/**
 * Operator: pays an unopened purchase back on chain (REFUNDED), or fails it with `reason` (FAILED).
 * Check, refund and settle hold the purchase's settle lock, so of parallel calls one pays it back
 * and the others find it REFUNDED/FAILED (409 invalid_status) instead of a reverted refund.
 */
export function operatorRefund(s: Services, id: number, failReason: string | null): Promise<InstantPurchaseRow> {
  if (!own(instant(s).purchases, String(id))) throw notFound(`No instant purchase ${id}`);
  return withKeyLock(s, settleLock(id), async () => {
    await settleNow(s, id); // opened or timed out meanwhile: the row says so before the check
    const p = instant(s).purchases[id];
    if (!p) throw notFound(`No instant purchase ${id}`);
    const invalid = () =>
      conflict(
        "invalid_status",
        `Instant purchase ${id} is ${instant(s).purchases[id]?.status ?? p.status}; only an unopened SUBMITTED purchase can be paid back`,
      );
    if (p.status !== "SUBMITTED" || p.onchain_request_id === null) throw invalid();
    let refused: unknown = null;
    await refundOnChain(chainOf(s), BigInt(p.onchain_request_id), failReason !== null).catch(
      (err: unknown) => (refused = err ?? "refused"),
    );
    // Re-read after the awaits; the reason is written only once the chain paid it back.
    const now = instant(s).purchases[id];
    if (refused === null && now?.status === "SUBMITTED" && failReason !== null) now.failure_reason = failReason;
    await settleNow(s, id);
    if (refused !== null) {
      // Refused because the draw opened it meanwhile: the row followed the chain, 409. Anything else is unexpected.
      if (instant(s).purchases[id]?.status === "SUBMITTED") throw refused;
      throw invalid();
    }
    return instant(s).purchases[id] ?? p;
  });
}

/** Instant sales of an account in [from, to) by submit time, counted as revenue (SUBMITTED or FULFILLED). */
export function instantSales(
  s: Services,
  accountId: string,
  fromMs: number | null,
  toMs: number | null,
): { packs: number; gross_micros: bigint; first_at: number | null } {
  let packs = 0;
  let gross = 0n;
  let first: number | null = null;
  for (const p of Object.values(instant(s).purchases)) {
    if (p.account_id !== accountId || (p.status !== "SUBMITTED" && p.status !== "FULFILLED")) continue;
    const at = Date.parse(p.submitted_at ?? p.created_at);
    if ((fromMs !== null && at < fromMs) || (toMs !== null && at >= toMs)) continue;
    packs += 1;
    gross += BigInt(p.price_micros);
    if (first === null || at < first) first = at;
  }
  return { packs, gross_micros: gross, first_at: first };
}
