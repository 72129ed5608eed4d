import { BURN_TYPE_LABELS, BURN_TYPES } from "../../../../chain/index.ts";
import { badRequest, conflict, notFound } from "../../../pipeline/errors.ts";
import { checkIdLength } from "../../../pipeline/identifiers.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import type { Services } from "../../../pipeline/services.ts";
import { tupleKey } from "../../../state/tuple-key.ts";
import { own, setOwn } from "../../../state/own.ts";
import type { Carrier } from "../../../shipping/carriers.ts";
import { burnState, chainOf, ownerOf } from "../chain-io.ts";
import { settleFromChain } from "../purchases/purchases.ts";
import {
  isRevealed,
  mystery,
  type ItemRow,
  type ItemTypeName,
  type PurchaseRow,
  type RedemptionRow,
  type ShippingAddress,
} from "../state.ts";
import { tokenLockKey } from "../locks.ts";
import { armWorker, runWorker } from "../worker.ts";
import { expiryDue, newExpiry } from "./jobs.ts";
import { kycRequired } from "./kyc.ts";
import { signShipping } from "./payment.ts";
import { decideKyc, isLive, liveRedemptionFor } from "./redemption.ts";
import { isTestValue } from "../../../pipeline/test-values.ts";
import { beginRedemption } from "./lifecycle.ts";
import { rates } from "./shipping.ts";
import { COUNTERS } from "../../../state/ids.ts";

// The partner's redemption quote and prepare: which item, whether its holder
// still holds it, the shipping rates; prepare opens the redemption
// (PREPARED; with KYC pending when the partner requires it) with the signed
// shipping quote and the holder's three calls, idempotent on the key.

/** What the caller named: purchase_id and/or token_id, as sent and as parsed. */
export interface TargetInput {
  /** Absent (undefined or null): null. `id` is null when the value names no purchase. */
  purchase: { raw: unknown; id: number | null } | null;
  /**
   * Absent (undefined, null or ""): null. `id` is null when the value is no token id. Its
   * length is checked when the target is resolved (a replayed prepare compares it as sent).
   */
  token: { raw: unknown; id: string | null } | null;
  /** Only to disambiguate a token number (SDK RedemptionTarget.item_type); null when absent. */
  itemType: ItemTypeName | null;
}

export interface Target {
  purchase: PurchaseRow;
  item: ItemRow;
}

/** purchase_id (+ token_id when several items qualify) or token_id alone → the item to redeem. */
export async function resolveTarget(s: Services, accountId: string, t: TargetInput): Promise<Target> {
  if (t.token) checkIdLength(t.token.raw, "token_id");
  if (t.purchase && t.purchase.id === null) throw notFound(`No purchase ${String(t.purchase.raw)} on this account`);
  if (!t.purchase && !t.token)
    throw badRequest(
      "purchase_or_token_required",
      "Send purchase_id (and token_id when the purchase has several items) or token_id",
    );
  let purchase: PurchaseRow | undefined;
  if (t.purchase) {
    const purchaseId = t.purchase.id!;
    purchase = mystery(s).purchases[purchaseId];
    if (!purchase || purchase.account_id !== accountId) throw notFound(`No purchase ${purchaseId} on this account`);
  } else {
    const tokenId = t.token!.id;
    if (tokenId === null) throw conflict("invalid_token_id", `token_id ${String(t.token!.raw)} is not a token id`);
    purchase = tokenFirst(s, accountId, tokenId, t.itemType);
  }
  await settleFromChain(s, purchase.id);
  purchase = mystery(s).purchases[purchase.id]!;
  if (!isRevealed(purchase.status) || !purchase.items)
    throw conflict(
      "not_fulfilled",
      `Purchase ${purchase.id} is ${purchase.status}; it can be redeemed once revealed (FULFILLED or PARTIALLY_FULFILLED)`,
    );
  let item: ItemRow | undefined;
  if (t.token) {
    const tokenId = t.token.id;
    if (tokenId === null) throw conflict("invalid_token_id", `token_id ${String(t.token.raw)} is not a token id`);
    item =
      purchase.items.find((i) => i.token_id === tokenId && (!t.itemType || i.item_type === t.itemType)) ??
      purchase.items.find((i) => i.token_id === tokenId);
    if (!item)
      throw conflict("invalid_token_id", `Token ${tokenId} is not an item of purchase ${purchase.id}`, {
        details: { token_ids: purchase.items.map((i) => i.token_id) },
      });
    mustMatch(item, t.itemType);
  } else {
    const typed = t.itemType ? purchase.items.filter((i) => i.item_type === t.itemType) : purchase.items;
    if (typed.length === 0) throw mismatch(`Purchase ${purchase.id} has no ${t.itemType} item`, purchase.items);
    const open = typed.filter(
      (i) =>
        i.item_type !== "PACKET" &&
        !Object.values(mystery(s).redemptions).some(
          (r) => r.token_id === i.token_id && (isLive(r) || r.status === "COMPLETED"),
        ),
    );
    if (open.length === 0) throw conflict("no_items", `Purchase ${purchase.id} has no items left to redeem`);
    if (open.length > 1)
      throw badRequest("token_required", `Purchase ${purchase.id} has ${open.length} redeemable items; send token_id`, {
        details: { token_ids: open.map((i) => i.token_id) },
      });
    item = open[0]!;
  }
  if (item.item_type === "PACKET")
    throw badRequest(
      "unsupported_item",
      "PACKET items are opened on chain, not shipped; redeem cards, graded cards or sealed products",
    );
  return { purchase, item };
}

const mismatch = (message: string, items: ItemRow[]) =>
  conflict("item_type_mismatch", message, {
    details: { items: items.map((i) => ({ token_id: i.token_id, item_type: i.item_type })) },
  });

function mustMatch(item: ItemRow, itemType: ItemTypeName | null): void {
  if (itemType && item.item_type !== itemType)
    throw mismatch(`Token ${item.token_id} is a ${item.item_type}, not a ${itemType}`, [item]);
}

/**
 * Token-first (SDK: token alone = token-first redemption): the account's purchase holding the
 * token number. Where the number names items of several types (several item contracts on the
 * live service), item_type decides: without it 409 ambiguous_token; a type none of them has is
 * 409 item_type_mismatch.
 */
function tokenFirst(s: Services, accountId: string, tokenId: string, itemType: ItemTypeName | null): PurchaseRow {
  const found = Object.values(mystery(s).purchases)
    .filter((p) => p.account_id === accountId)
    .flatMap((p) => (p.items ?? []).filter((i) => i.token_id === tokenId).map((item) => ({ purchase: p, item })));
  if (found.length === 0) throw notFound(`No token ${tokenId} from this account's purchases`, "token_not_found");
  const types = [...new Set(found.map((f) => f.item.item_type))];
  if (itemType) {
    const hit = found.find((f) => f.item.item_type === itemType);
    if (!hit)
      throw mismatch(
        `Token ${tokenId} is a ${types.join(" / ")}, not a ${itemType}`,
        found.map((f) => f.item),
      );
    return hit.purchase;
  }
  if (types.length > 1)
    throw conflict(
      "ambiguous_token",
      `Token number ${tokenId} names items of several types (${types.join(", ")}); send item_type`,
      { details: { item_types: types } },
    );
  return found[0]!.purchase;
}

/** The holder must still hold the token (not burned, not moved, not frozen by another burn). */
export async function checkHolder(s: Services, t: Target, forPrepare: boolean): Promise<`0x${string}`> {
  const chain = chainOf(s);
  const id = BigInt(t.item.token_id);
  const owner = await ownerOf(chain, id);
  if (!owner) throw conflict("no_holder", `Token ${t.item.token_id} has no holder (burned or never minted)`);
  if (!forPrepare) return owner;
  const burn = await burnState(chain, id);
  if (burn.pending)
    throw conflict(
      "not_burnable",
      `Token ${t.item.token_id} already has a pending ${BURN_TYPE_LABELS[burn.burnType]} burn`,
    );
  if (owner.toLowerCase() !== t.purchase.purchaser_address.toLowerCase())
    throw conflict(
      "not_owner",
      `Token ${t.item.token_id} moved: it is held by ${owner}, not the purchaser ${t.purchase.purchaser_address}`,
    );
  return owner;
}

/**
 * A redemption not yet burned (PREPARED, KYC pending or not) answers its calls only while its holder
 * still holds the token and no other burn froze it; the holder's own flag for it is expected.
 */
async function checkStillHeld(s: Services, r: RedemptionRow): Promise<void> {
  if (r.status !== "PREPARED") return;
  const chain = chainOf(s);
  const id = BigInt(r.token_id);
  const details = { details: { redemption_id: r.redemption_id, token_id: r.token_id } };
  const owner = await ownerOf(chain, id);
  if (!owner)
    throw conflict("no_holder", `Token ${r.token_id} of redemption ${r.redemption_id} has no holder (burned)`, details);
  const burn = await burnState(chain, id);
  if (burn.pending && burn.burnType !== r.burn_type)
    throw conflict(
      "not_burnable",
      `Token ${r.token_id} has a pending ${BURN_TYPE_LABELS[burn.burnType]} burn`,
      details,
    );
  if (owner.toLowerCase() !== r.holder.toLowerCase())
    throw conflict(
      "not_owner",
      `Token ${r.token_id} moved: it is held by ${owner}, not ${r.holder}, the holder redemption ${r.redemption_id} was prepared for`,
      details,
    );
}

export const burnTypeOf = (item: ItemRow) =>
  item.item_type === "SEALED_PRODUCT" ? BURN_TYPES.REDEEM_PRODUCT : BURN_TYPES.REDEEM_CARD;

/** The shipping rates for redeeming the named item (creates no rows). */
export async function quoteRedemption(
  s: Services,
  accountId: string,
  address: ShippingAddress,
  carriers: readonly Carrier[],
  t: TargetInput,
) {
  const target = await resolveTarget(s, accountId, t);
  await checkHolder(s, target, false);
  const all = rates(address, carriers, s.clock.nowIso());
  return {
    purchase_id: target.purchase.id,
    token_id: target.item.token_id,
    item_type: target.item.item_type,
    shipping_quote: all[0],
    rates: all,
  };
}

/** Past expires_at but the timer has not run yet (realtime lag): expire it now, so the answer is exact. */
export async function expireIfDue(s: Services, id: number): Promise<void> {
  const r = mystery(s).redemptions[id];
  const at = r ? expiryDue(r) : null;
  if (at !== null && at <= s.clock.now()) await runWorker(s);
}

export interface PrepareInput {
  key: string;
  address: ShippingAddress;
  carriers: readonly Carrier[];
  target: TargetInput;
}

/**
 * Opens a redemption of the named item, or answers the one opened with the same key.
 * Idempotent on (partner, key): parallel calls with one key take turns, and the later
 * ones answer the redemption the first one created.
 */
export function prepareRedemption(s: Services, accountId: string, input: PrepareInput): Promise<RedemptionRow> {
  const { key, address, carriers, target: t } = input;
  // Unambiguous, and the `${account}\u0000${key}` of older state files (state/tuple-key.ts).
  const keyId = tupleKey(accountId, key);
  return withKeyLock(s, `mystery:redemption-key:${keyId}`, async () => {
    const knownId = own(mystery(s).redemption_keys, keyId);
    if (knownId !== undefined) {
      await expireIfDue(s, knownId);
      const r = mystery(s).redemptions[knownId]!;
      const sameTarget =
        (!t.purchase || t.purchase.id === r.purchase_id) &&
        (!t.token || t.token.id === r.token_id) &&
        (!t.itemType || t.itemType === r.item_type);
      if (!sameTarget)
        throw conflict(
          "idempotency_mismatch",
          `idempotency_key "${key}" was already used for redemption ${r.redemption_id} of token ${r.token_id}`,
        );
      // docs/reference/live-service.md “Idempotency”: after expiry, retry with a new key.
      if (r.status === "EXPIRED")
        throw conflict(
          "redemption_expired",
          `Redemption ${r.redemption_id} (idempotency_key "${key}") expired at ${r.expires_at}; retry with a new idempotency_key`,
          {
            details: { redemption_id: r.redemption_id, expires_at: r.expires_at },
          },
        );
      // Same key after KYC approval returns the calldata (the approval already moved it to PREPARED),
      // while they can still work: the holder must hold the token as a first prepare requires.
      await checkStillHeld(s, r);
      return r;
    }
    const target = await resolveTarget(s, accountId, t);
    // At most one live redemption per (partner, token): prepares of one token take turns,
    // so a second key finds the first one's row (409 redemption_exists).
    return withKeyLock(s, tokenLockKey("redemption", accountId, target.item.token_id), async () => {
      const live = liveRedemptionFor(s, accountId, target.item.token_id);
      if (live)
        throw conflict(
          "redemption_exists",
          `Token ${target.item.token_id} is already in redemption ${live.redemption_id} (${live.status})`,
          {
            details: { redemption_id: live.redemption_id, status: live.status },
          },
        );
      const holder = await checkHolder(s, target, true);
      const quote = rates(address, carriers, s.clock.nowIso())[0]!;
      const kycDone = own(mystery(s).kyc, `${accountId}:${holder.toLowerCase()}`) === "APPROVED";
      const needsKyc = kycRequired(s, accountId) && !kycDone;
      const now = s.clock.nowIso();
      const r: RedemptionRow = {
        redemption_id: s.store.nextId(COUNTERS.mysteryRedemption),
        account_id: accountId,
        idempotency_key: key,
        purchase_id: target.purchase.id,
        token_id: target.item.token_id,
        item_type: target.item.item_type,
        holder,
        status: "PREPARED",
        kyc_status: needsKyc ? "PENDING" : kycDone ? "APPROVED" : "NOT_REQUIRED",
        shipping_address: address,
        shipping_quote: quote,
        burn_type: burnTypeOf(target.item),
        burn_tx_hash: null,
        is_burned: false,
        tracking_number: null,
        failure_reason: null,
        due_at_ms: null,
        expires_at: newExpiry(s),
        created_at: now,
        updated_at: now,
      };
      // Signed last: a 503 from the signer leaves nothing behind (a retry with the key starts afresh).
      r.shipping = await signShipping(s, chainOf(s), r);
      const fresh = mystery(s);
      fresh.redemptions[r.redemption_id] = r;
      setOwn(fresh.redemption_keys, keyId, r.redemption_id);
      beginRedemption(s, r);
      // Test values (pipeline/test-values.ts): the end user's KYC decides itself, as the KYC provider would.
      const user = target.purchase.external_user_id;
      if (needsKyc && isTestValue(s, "kyc_approve", user)) decideKyc(s, r.redemption_id, true);
      else if (needsKyc && isTestValue(s, "kyc_decline", user)) decideKyc(s, r.redemption_id, false);
      armWorker(s); // the expiry timer
      return r;
    });
  });
}
