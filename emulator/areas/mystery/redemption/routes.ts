import { partnerFixture } from "../../../../fixtures/mystery/index.ts";
import { badRequest, conflict, notFound } from "../../../pipeline/errors.ts";
import { checkIdempotencyKey } from "../../../pipeline/idempotency.ts";
import { paginate, parseOffsetPage } from "../../../pipeline/pagination.ts";
import { withKeyLock } from "../../../pipeline/key-lock.ts";
import { accepted, created, ok, type HandlerContext, type RouteSpec } from "../../../pipeline/route.ts";
import { own, setOwn } from "../../../state/own.ts";
import { partner, route } from "../access.ts";
import { burnTypeOf, checkHolder, expiryDue, formatRedemption, liveRedemptionFor, newExpiry, resolveTarget, submitBurn } from "./redemption.ts";
import { parseAddress, parseCarriers, rates } from "./shipping.ts";
import { mystery, REDEMPTION_STATUSES, type RedemptionRow, type RedemptionStatus } from "../state.ts";
import { intId } from "../../../pipeline/identifiers.ts";
import { emit, isTxHash, tokenIdOf, tokenLockKey, txLockKey } from "../util.ts";
import { armWorker, runWorker } from "../worker.ts";

// Redemption endpoints (interface "Mystery commerce"; service-facts §4.7 generation A).

const account = (c: HandlerContext) => c.key!.account_id;

/** Past expires_at but the timer has not run yet (realtime lag): expire it now, so the answer is exact. */
async function expireIfDue(c: HandlerContext, id: number): Promise<void> {
  const r = mystery(c.services).redemptions[id];
  const at = r ? expiryDue(r) : null;
  if (at !== null && at <= c.services.clock.now()) await runWorker(c.services);
}

export const redemptionRoutes: RouteSpec[] = [
  route("POST", "/mystery/redemption/quote", partner("cards:redeem"), "partner_write", async (c) => {
    const b = await c.object();
    const address = parseAddress(b);
    const carriers = parseCarriers(b);
    const target = await resolveTarget(c, b);
    await checkHolder(c.services, target, false);
    const all = rates(address, carriers, c.services.clock.nowIso());
    // Creates no rows.
    return ok({ purchase_id: target.purchase.id, token_id: target.item.token_id, item_type: target.item.item_type, shipping_quote: all[0], rates: all });
  }),

  route("POST", "/mystery/redemption/prepare", partner("cards:redeem"), "partner_write", async (c) => {
    const b = await c.object();
    const key = typeof b.idempotency_key === "string" && b.idempotency_key !== "" ? b.idempotency_key : c.req.headers.get("idempotency-key");
    if (!key) throw badRequest("missing_idempotency_key", "Send idempotency_key in the body or the Idempotency-Key header");
    checkIdempotencyKey(key, "idempotency_key");
    const address = parseAddress(b);
    const carriers = parseCarriers(b);
    const acct = account(c);
    const keyId = `${acct}\u0000${key}`;
    // Idempotent on (partner, key): parallel calls with one key take turns, and
    // the later ones answer the redemption the first one created.
    return withKeyLock(c.services.store, `mystery:redemption-key:${keyId}`, async () => {
      const knownId = own(mystery(c.services).redemption_keys, keyId);
      if (knownId !== undefined) {
        await expireIfDue(c, knownId);
        const r = mystery(c.services).redemptions[knownId]!;
        const sameTarget =
          (b.purchase_id === undefined || b.purchase_id === null || intId(b.purchase_id, "purchase_id") === r.purchase_id) &&
          (b.token_id === undefined || b.token_id === null || b.token_id === "" || tokenIdOf(b.token_id) === r.token_id);
        if (!sameTarget) throw conflict("idempotency_mismatch", `idempotency_key "${key}" was already used for redemption ${r.redemption_id} of token ${r.token_id}`);
        // The SDK README: "Expired redemption → retry with a new key".
        if (r.status === "EXPIRED")
          throw conflict("redemption_expired", `Redemption ${r.redemption_id} (idempotency_key "${key}") expired at ${r.expires_at}; retry with a new idempotency_key`, {
            details: { redemption_id: r.redemption_id, expires_at: r.expires_at },
          });
        // Same key after KYC approval returns the calldata (the approval already moved it to PREPARED).
        return created(formatRedemption(c.services, r, true));
      }
      const target = await resolveTarget(c, b);
      // At most one live redemption per (partner, token): prepares of one token take turns,
      // so a second key finds the first one's row (409 redemption_exists).
      return withKeyLock(c.services.store, tokenLockKey("redemption", acct, target.item.token_id), async () => {
        const live = liveRedemptionFor(c.services, acct, target.item.token_id);
        if (live)
          throw conflict("redemption_exists", `Token ${target.item.token_id} is already in redemption ${live.redemption_id} (${live.status})`, {
            details: { redemption_id: live.redemption_id, status: live.status },
          });
        const holder = await checkHolder(c.services, target, true);
        const quote = rates(address, carriers, c.services.clock.nowIso())[0]!;
        const kycDone = own(mystery(c.services).kyc, `${acct}:${holder.toLowerCase()}`) === "APPROVED";
        const needsKyc = partnerFixture(acct).kyc_required && !kycDone;
        const now = c.services.clock.nowIso();
        const r: RedemptionRow = {
          redemption_id: c.services.store.nextId("mystery-redemption", 9001),
          account_id: acct,
          idempotency_key: key,
          purchase_id: target.purchase.id,
          token_id: target.item.token_id,
          item_type: target.item.item_type,
          holder,
          status: needsKyc ? "AWAITING_KYC" : "PREPARED",
          kyc_status: needsKyc ? "PENDING" : kycDone ? "APPROVED" : "NOT_REQUIRED",
          shipping_address: address,
          shipping_quote: quote,
          burn_type: burnTypeOf(target.item),
          burn_tx_hash: null,
          is_burned: false,
          tracking_number: null,
          failure_reason: null,
          next_step_at: null,
          expires_at: newExpiry(c.services),
          created_at: now,
          updated_at: now,
        };
        const fresh = mystery(c.services);
        fresh.redemptions[r.redemption_id] = r;
        setOwn(fresh.redemption_keys, keyId, r.redemption_id);
        emit(c.services, acct, "redemption.prepared", String(r.redemption_id), {
          redemption_id: r.redemption_id,
          purchase_id: r.purchase_id,
          token_id: r.token_id,
          item_type: r.item_type,
          status: r.status,
        });
        armWorker(c.services); // the expiry timer
        return created(formatRedemption(c.services, r, true));
      });
    });
  }),

  route("POST", "/mystery/redemption/submit", partner("cards:redeem"), "partner_write", async (c) => {
    const b = await c.object();
    const id = intId(b.redemption_id, "redemption_id");
    const hash = b.tx_hash ?? b.transaction_hash;
    if (!isTxHash(hash)) throw badRequest("invalid_tx_hash", "tx_hash must be 0x followed by 64 hex characters");
    const found = id === null ? undefined : mystery(c.services).redemptions[id];
    if (!found || found.account_id !== account(c)) throw notFound(`No redemption ${String(b.redemption_id ?? "")} on this account`);
    // Exclusive per redemption and per burn hash: one hash satisfies one redemption only.
    return withKeyLock(c.services.store, [`mystery:redemption:${found.redemption_id}`, txLockKey(hash)], async () => {
      await expireIfDue(c, found.redemption_id);
      const r = mystery(c.services).redemptions[found.redemption_id]!;
      if (r.burn_tx_hash && r.burn_tx_hash.toLowerCase() === hash.toLowerCase()) return accepted(formatRedemption(c.services, r));
      const other = Object.values(mystery(c.services).redemptions).find((x) => x.redemption_id !== r.redemption_id && x.burn_tx_hash?.toLowerCase() === hash.toLowerCase());
      if (other)
        throw conflict("tx_already_recorded", `tx_hash is already the burn of redemption ${other.account_id === r.account_id ? other.redemption_id : "of another partner"}; one burn transaction satisfies one redemption`);
      if (r.status === "AWAITING_KYC") throw conflict("kyc_required", `Redemption ${r.redemption_id} is waiting for KYC; send the end user to kyc.kyc_url first`);
      if (r.status !== "PREPARED") throw conflict("invalid_status", `Redemption ${r.redemption_id} is ${r.status}; only PREPARED redemptions take a burn transaction`);
      await submitBurn(c.services, r, hash);
      armWorker(c.services);
      return accepted(formatRedemption(c.services, mystery(c.services).redemptions[r.redemption_id] ?? r));
    });
  }),

  route("GET", "/mystery/redemption/:purchase_id", partner("packs:read"), "partner_read", (c) => {
    const acct = account(c);
    const raw = c.params.purchase_id!;
    const slice = mystery(c.services);
    const pid = intId(raw, "purchase_id");
    const purchase = pid === null ? undefined : slice.purchases[pid];
    const mine = Object.values(slice.redemptions).filter((r) => r.account_id === acct);
    const rows = purchase && purchase.account_id === acct ? mine.filter((r) => r.purchase_id === purchase.id) : mine.filter((r) => r.token_id === raw);
    if (rows.length === 0) throw notFound(`No redemption for purchase or token ${raw}`);
    return ok({ redemptions: rows.sort((a, b) => b.redemption_id - a.redemption_id).map((r) => formatRedemption(c.services, r)) });
  }),

  route("GET", "/mystery/redemptions", partner("packs:read"), "partner_read", (c) => {
    const status = c.query.get("status");
    if (status !== null && !REDEMPTION_STATUSES.includes(status.toUpperCase() as RedemptionStatus))
      throw badRequest("invalid_status", `status must be one of ${REDEMPTION_STATUSES.join(", ")}`);
    const page = parseOffsetPage(c.query);
    const rows = Object.values(mystery(c.services).redemptions)
      .filter((r) => r.account_id === account(c) && (!status || r.status === status.toUpperCase()))
      .sort((a, b) => b.redemption_id - a.redemption_id);
    const { items, pagination } = paginate(rows, page);
    return ok({ redemptions: items.map((r) => formatRedemption(c.services, r)) }, { pagination });
  }),
];
