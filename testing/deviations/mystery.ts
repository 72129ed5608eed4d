import { dataOf, errorIs, is, keyOf, toSuccess, type Deviation, type Exchange } from "./deviation.ts";
import { mystery } from "../../emulator/areas/mystery/state.ts";
import { activeWallet } from "../../emulator/areas/mystery/wallet/wallets.ts";
import { parseUsdc, usdc } from "../../contract/money.ts";
import { counter } from "../../emulator/state/ids.ts";

/** The ids the lifecycle deviation adds to a purchase's (a test aid's own counter). */
const DEVIATION_COUNTER = counter("testing.lifecycle_deviation", 1000, "lifecycle-deviation");

// Deviations that break the mystery area's rules (one per conformance check).

const REDEEM = "/api/v1/mystery/redemption";
const redemptionRows = (x: Exchange) =>
  is(x, "GET", /^\/api\/v1\/mystery\/redemption\/[^/]+$/)
    ? (dataOf(x)?.redemptions as Record<string, unknown>[] | undefined)
    : undefined;

/** Redemption rules (conformance/checks/redemption.ts). */
const redemptionDeviations: readonly Deviation[] = [
  {
    name: "redemption_shipping_payer_any",
    breaks: 'shipping_payer other than "end_user" is 400 invalid_shipping_payer',
    apply: (x) => {
      if (errorIs(x, 400, "invalid_shipping_payer")) toSuccess(x, { redemption_id: 0, status: "PREPARED" });
    },
  },
  {
    name: "redemption_burn_only_calls",
    breaks: "prepare returns shipping_payment and the calls burn, erc20-approve, shipping-payment",
    apply: (x) => {
      const d = dataOf(x);
      if (!is(x, "POST", /^\/api\/v1\/mystery\/redemption\/prepare$/) || x.status !== 201 || !d) return;
      d.shipping_payment = null;
      const u = d.unsigned as { calls?: Array<{ kind: string }> } | null;
      if (u?.calls) u.calls = u.calls.filter((c) => c.kind === "burn");
    },
  },
  {
    name: "redemption_ships_unpaid",
    breaks: "the item ships only once the shipping payment landed on chain",
    apply: (x) => {
      // A server that takes the burn as enough: the submitted redemption counts as paid.
      const id = dataOf(x)?.redemption_id;
      if (!is(x, "POST", /^\/api\/v1\/mystery\/redemption\/submit$/) || x.status !== 202 || typeof id !== "number")
        return;
      const r = mystery(x.services).redemptions[id];
      if (!r?.shipping || r.shipping.paid_tx_hash || r.status !== "BURN_SUBMITTED") return;
      r.shipping.paid_tx_hash = r.burn_tx_hash;
      r.due_at_ms = x.services.clock.now() + 60 * 60 * 1000;
    },
  },
  {
    name: "redemption_verify_ignored",
    breaks: "?verify=true reconciles the redemption with the chain",
    apply: (x) => {
      // Answers the rows as stored before the chain was read.
      if (x.url.searchParams.get("verify") !== "true") return;
      for (const r of redemptionRows(x) ?? [])
        if (r.status === "BURN_SUBMITTED") Object.assign(r, { status: "PREPARED", burn_tx_hash: null });
    },
  },
  {
    name: "redemption_item_type_ignored",
    breaks: "an item_type that is not the token's is 409 item_type_mismatch",
    apply: (x) => {
      if (x.url.pathname.startsWith(REDEEM) && errorIs(x, 409, "item_type_mismatch"))
        toSuccess(x, { shipping_quote: {} });
    },
  },
  {
    name: "redemption_ambiguous_token_guessed",
    breaks: "a token number naming items of several types needs item_type: 409 ambiguous_token",
    apply: (x) => {
      if (x.url.pathname.startsWith(REDEEM) && errorIs(x, 409, "ambiguous_token")) toSuccess(x, { shipping_quote: {} });
    },
  },
  {
    name: "redemption_signer_outage_500",
    breaks: "a shipping signer outage is 503 shipping_signer_unavailable (retryable)",
    apply: (x) => {
      if (!errorIs(x, 503, "shipping_signer_unavailable")) return;
      x.status = 500;
      x.body = { success: false, error: "internal_error", message: "Internal error" };
    },
  },
  {
    name: "redemption_kyc_always",
    breaks: "KYC runs only for partners that require it (off by default)",
    apply: (x) => {
      const d = dataOf(x);
      if (
        !is(x, "POST", /^\/api\/v1\/mystery\/redemption\/prepare$/) ||
        x.status !== 201 ||
        !d ||
        d.status !== "PREPARED"
      )
        return;
      Object.assign(d, {
        kyc: { status: "PENDING", kyc_url: "https://kyc.emulator.test/verify" },
        shipping_payment: null,
        unsigned: null,
      });
    },
  },
  {
    name: "redemption_service_repeats_carrier",
    breaks: "a shipping quote's service does not repeat its carrier",
    apply: (x) => {
      const d = dataOf(x);
      if (!is(x, "POST", /^\/api\/v1\/mystery\/redemption\/quote$/) || x.status !== 200 || !d) return;
      for (const q of [d.shipping_quote, ...((d.rates as unknown[]) ?? [])] as Array<{
        carrier: string;
        service: string;
      }>)
        q.service = `${q.carrier} ${q.service}`;
    },
  },
  {
    name: "lifecycle_redemption_stuck_unshipped",
    breaks: "a paid redemption moves on to IN_FULFILLMENT and COMPLETED",
    apply: (x) => {
      for (const r of redemptionRows(x) ?? [])
        if (r.status === "IN_FULFILLMENT" || r.status === "COMPLETED") r.status = "BURN_SUBMITTED";
    },
  },
];

/** Purchase lifecycle rules (conformance/checks/purchases.ts and PURCHASE_LIFECYCLES). */
const purchaseDeviations: readonly Deviation[] = [
  {
    name: "purchase_by_id_price_scaled",
    breaks: "a purchase fetched by id carries the listed purchase's values (price in micros)",
    apply: (x) => {
      const d = dataOf(x);
      if (
        is(x, "GET", /^\/api\/v1\/mystery\/purchase\/\d+$/) &&
        x.status === 200 &&
        typeof d?.price === "string" &&
        /^\d+$/.test(d.price)
      )
        d.price = String(BigInt(d.price) * 1000n);
    },
  },
  {
    name: "purchases_insufficient_funds_accepted",
    breaks: "a custodial purchase beyond the end user's available balance is 402 insufficient_funds",
    apply: (x) => {
      if (errorIs(x, 402, "insufficient_funds")) {
        toSuccess(x, { id: 1, status: "RESERVED", custody: "CUSTODIAL" });
        x.status = 202;
      }
    },
  },
  {
    name: "purchases_custodial_answers_submitted",
    breaks: "a custodial purchase is answered 202 RESERVED with on-chain fields null",
    apply: (x) => {
      // The old emulator: the relayer's transaction already in the 202.
      const d = dataOf(x);
      if (!is(x, "POST", /^\/api\/v1\/mystery\/purchase$/) || x.status !== 202 || d?.status !== "RESERVED") return;
      Object.assign(d, {
        status: "SUBMITTED",
        transaction_hash: `0x${"ab".repeat(32)}`,
        onchain_request_id: "1",
        submitted_at: x.services.clock.nowIso(),
      });
    },
  },
  {
    name: "purchases_status_filter_narrow",
    breaks: "every purchase status is a ?status= filter",
    apply: (x) => {
      const status = x.url.searchParams.get("status")?.toUpperCase();
      if (
        !is(x, "GET", /^\/api\/v1\/mystery\/purchases$/) ||
        !status ||
        !["PENDING", "SUBMITTING", "PARTIALLY_FULFILLED"].includes(status)
      )
        return;
      x.status = 400;
      x.body = {
        success: false,
        error: "invalid_status",
        message: "status must be one of RESERVED, SUBMITTED, FULFILLED, REFUNDED, FAILED",
      };
    },
  },
  {
    name: "purchases_relayer_off_accepted",
    breaks: "a paused relayer is 503 relayer_disabled (retryable), nothing held",
    apply: (x) => {
      // The old emulator: a 202 whose purchase failed before the broadcast.
      if (!errorIs(x, 503, "relayer_disabled")) return;
      x.status = 202;
      x.headers.delete("retry-after");
      x.body = { success: true, data: { status: "FAILED", failure_reason: "relayer_disabled" } };
    },
  },
  {
    name: "lifecycle_custodial_stuck_reserved",
    breaks: "a custodial purchase moves on from RESERVED to SUBMITTING, SUBMITTED and FULFILLED",
    apply: (x) => {
      const d = dataOf(x);
      if (is(x, "GET", /^\/api\/v1\/mystery\/purchase\/\d+$/) && d?.custody === "CUSTODIAL" && d.status !== "PENDING")
        Object.assign(d, { status: "RESERVED", items: undefined });
    },
  },
  {
    name: "lifecycle_pending_dropped",
    breaks: "a purchase held while the relayer is paused is relayed once it is back",
    apply: (x) => {
      // A server that gives up on a held purchase as soon as the relayer is seen paused.
      const d = dataOf(x);
      if (!is(x, "GET", /^\/api\/v1\/mystery\/purchase\/\d+$/) || d?.status !== "PENDING" || typeof d.id !== "number")
        return;
      const row = mystery(x.services).purchases[d.id];
      if (row) Object.assign(row, { status: "FAILED", due_at_ms: null, failure_reason: "relayer_disabled" });
      Object.assign(d, { status: "FAILED", failure_reason: "relayer_disabled" });
    },
  },
  {
    name: "lifecycle_accept_receiver_acceptance",
    breaks: "accept/prepare hands the holder the offer's OfferRequest typed data",
    apply: (x) => {
      // The old emulator: a ReceiverAcceptance(offerHash, receiver) of its own.
      const d = dataOf(x);
      const typed = d?.typed_data as { domain?: unknown } | undefined;
      if (!is(x, "POST", /^\/api\/v1\/mystery\/buyback\/[^/]+\/accept\/prepare$/) || x.status !== 200 || !typed) return;
      d!.typed_data = {
        domain: typed.domain,
        types: {
          ReceiverAcceptance: [
            { name: "offerHash", type: "bytes32" },
            { name: "receiver", type: "address" },
          ],
        },
        primaryType: "ReceiverAcceptance",
        message: { offerHash: `0x${"00".repeat(32)}`, receiver: d!.receiver },
      };
    },
  },
];

const on = (x: Exchange, path: string) => x.url.pathname.startsWith(`/api/v1${path}`);
const keyKind = (x: Exchange) => keyOf(x)?.kind;

export const mysteryDeviations: readonly Deviation[] = [
  {
    name: "mystery_tenant_allowed",
    breaks: "a tenant key on partner endpoints is 403",
    apply: (x) => {
      if (on(x, "/mystery/") && x.status === 403 && keyKind(x) === "tenant") toSuccess(x, {});
    },
  },
  {
    name: "mystery_idempotency_key_optional",
    breaks: "custodial purchase requires Idempotency-Key",
    apply: (x) => {
      if (errorIs(x, 400, "missing_idempotency_key")) {
        toSuccess(x, { id: 1, status: "RESERVED", custody: "CUSTODIAL" });
        x.status = 202;
      }
    },
  },
  {
    name: "mystery_odds_scope_renamed",
    breaks: "a tier's odds are scoped onchain or inventory_fallback",
    apply: (x) => {
      const d = is(x, "GET", /^\/api\/v1\/mystery\/catalog\/[^/]+\/odds$/) && x.status === 200 ? dataOf(x) : null;
      if (d) d.scope = "chain";
    },
  },
  {
    name: "mystery_stats_without_buyback",
    breaks: "GET /mystery/stats includes the buyback offer figures",
    apply: (x) => {
      const d = on(x, "/mystery/stats") && x.status === 200 ? dataOf(x) : undefined;
      if (d) delete d.buyback;
    },
  },
  {
    name: "mystery_quantity_ignored",
    breaks: "one pack per call: quantity other than 1 is 400 unsupported_quantity",
    apply: (x) => {
      if (errorIs(x, 400, "unsupported_quantity")) {
        toSuccess(x, { id: 1, status: "RESERVED", custody: "CUSTODIAL", quantity: 2 });
        x.status = 202;
      }
    },
  },
  {
    name: "mystery_unknown_tier_accepted",
    breaks: "unknown tier is 400 invalid_tier",
    apply: (x) => {
      if (errorIs(x, 400, "invalid_tier")) toSuccess(x, { calls: [] });
    },
  },
  {
    name: "mystery_price_query_lenient",
    breaks: "price needs exactly one of card_id/token_id",
    apply: (x) => {
      if (errorIs(x, 400, "invalid_price_query")) toSuccess(x, { card_id: null, token_id: null });
    },
  },
  {
    name: "mystery_price_full_value",
    breaks: "default buyback price is 85% of value",
    apply: (x) => {
      const d = x.body?.data as Record<string, unknown> | undefined;
      if (on(x, "/mystery/price") && x.status === 200 && d) d.buyback_price_usdc = d.market_value_usdc;
    },
  },
  {
    name: "mystery_catalog_bare_array",
    breaks: "catalog tiers are under data.tiers",
    apply: (x) => {
      const d = x.body?.data as { tiers?: unknown } | undefined;
      if (x.url.pathname === "/api/v1/mystery/catalog" && x.status === 200 && d) x.body!.data = d.tiers;
    },
  },
  {
    name: "mystery_pool_wallet_lenient",
    breaks: "bad pool-wallet body is 400 invalid_address",
    apply: (x) => {
      if (on(x, "/mystery/pool-wallet") && errorIs(x, 400, "invalid_address")) toSuccess(x, { address: null });
    },
  },
  {
    name: "mystery_pool_wallet_not_set_code",
    breaks: "reading an unset pool wallet is 404 pool_wallet_not_set",
    apply: (x) => {
      if (errorIs(x, 404, "pool_wallet_not_set")) x.body!.error = "not_found";
    },
  },
  {
    name: "mystery_payout_wallet_lenient",
    breaks: "bad payout-wallet body is 400 invalid_address",
    apply: (x) => {
      if ((on(x, "/payout-wallet") || on(x, "/mystery/payout-wallet")) && errorIs(x, 400, "invalid_address"))
        toSuccess(x, { address: null });
    },
  },
  {
    name: "mystery_sellback_any_model",
    breaks: "sell-back is TIER-only (not_tier_partner)",
    apply: (x) => {
      if (errorIs(x, 403, "not_tier_partner")) toSuccess(x, { items: [] });
    },
  },
  {
    name: "mystery_sellback_batch_unbounded",
    breaks: "sell-back takes at most 50 tokens",
    apply: (x) => {
      if (errorIs(x, 400, "too_many_tokens")) toSuccess(x, { items: [] });
    },
  },
  {
    name: "mystery_phone_optional",
    breaks: "non-US redemption quote needs a phone",
    apply: (x) => {
      if (errorIs(x, 400, "phone_required")) toSuccess(x, { shipping_quote: {} });
    },
  },
  {
    name: "mystery_status_filter_ignored",
    breaks: "bad ?status= is 400 invalid_status",
    apply: (x) => {
      if (on(x, "/mystery/redemptions") && errorIs(x, 400, "invalid_status")) toSuccess(x, { redemptions: [] });
    },
  },
  {
    name: "mystery_missing_purchase_200",
    breaks: "unknown purchase is 404 not_found",
    apply: (x) => {
      if (on(x, "/mystery/purchase/") && errorIs(x, 404, "not_found")) toSuccess(x, { id: 0, status: "FULFILLED" });
    },
  },
  {
    name: "mystery_accept_prepare_without_offer",
    breaks: "accept/prepare without an active offer is 404 no_active_offer",
    apply: (x) => {
      if (errorIs(x, 404, "no_active_offer") && x.url.pathname.endsWith("/accept/prepare"))
        toSuccess(x, { offer_id: null, typed_data: null });
    },
  },
  {
    name: "mystery_receiver_signature_unchecked",
    breaks: "relayed accept needs a receiver_signature (400 invalid_receiver_signature)",
    apply: (x) => {
      // As if the signature were not validated: the request falls through to the offer lookup.
      if (errorIs(x, 400, "invalid_receiver_signature")) {
        x.status = 404;
        x.body = { success: false, error: "no_active_offer", message: "No active buyback offer" };
      }
    },
  },
  {
    name: "mystery_feed_pagination_in_data",
    breaks: "feeds page under data.items with pagination beside data",
    apply: (x) => {
      // A server that nests the page info inside data, where the SDK does not look.
      const d = x.body?.data as Record<string, unknown> | undefined;
      if (on(x, "/mystery/feed/") && x.status === 200 && d && x.body!.pagination) {
        d.pagination = x.body!.pagination;
        delete x.body!.pagination;
      }
    },
  },
  {
    name: "mystery_collection_anonymous",
    breaks: "collection without identity is 400 missing_user_identifier",
    apply: (x) => {
      if (on(x, "/mystery/collection") && errorIs(x, 400, "missing_user_identifier"))
        toSuccess(x, { user: { external_user_id: null, wallet_address: null }, items: [] });
    },
  },
  {
    name: "mystery_ledger_anonymous",
    breaks: "wallet ledger without identity is 400 missing_user_identifier",
    apply: (x) => {
      if (on(x, "/wallet/ledger") && errorIs(x, 400, "missing_user_identifier")) toSuccess(x, { entries: [] });
    },
  },
  {
    name: "mystery_terms_share_bps",
    breaks: "TIER terms are 500 bps (5.00%)",
    apply: (x) => {
      // Percent read as basis points: 5 bps ("0.05").
      const d = x.body?.data as Record<string, unknown> | undefined;
      if (on(x, "/mystery/terms") && x.status === 200 && d?.billing_model === "TIER") {
        d.revenue_share_bps = 5;
        d.revenue_share_pct = "0.05";
      }
    },
  },
  {
    name: "mystery_payouts_without_totals",
    breaks: "payouts carry outstanding_usdc, accruing and total_owed_usdc beside the list",
    apply: (x) => {
      const d = x.body?.data as Record<string, unknown> | undefined;
      if (on(x, "/mystery/payouts") && x.status === 200 && d) {
        delete d.outstanding_usdc;
        delete d.accruing;
        delete d.total_owed_usdc;
      }
    },
  },

  // Lifecycle deviations (conformance/checks/lifecycle.ts, one per scenario) break the rule a
  // lifecycle shows at its end, observed through the public API the scenario reads; where
  // that rule lives in later state rather than in one response, they change the state the
  // way a broken server would.
  {
    name: "lifecycle_purchase_never_fulfilled",
    breaks: "a revealed purchase reads FULFILLED with its items",
    apply: (x) => {
      const d = dataOf(x);
      if (!is(x, "GET", /^\/api\/v1\/mystery\/purchase\/\d+$/) || d?.status !== "FULFILLED") return;
      d.status = "SUBMITTED";
      delete d.items;
    },
  },
  {
    name: "lifecycle_custodial_retry_new_purchase",
    breaks: "a custodial retry with the same Idempotency-Key returns the original purchase",
    apply: (x) => {
      // Every call looks like a new purchase: the id the caller sees changes on each answer.
      const d = dataOf(x);
      if (!is(x, "POST", /^\/api\/v1\/mystery\/purchase$/) || x.status !== 202 || typeof d?.id !== "number") return;
      d.id = d.id + x.services.store.nextId(DEVIATION_COUNTER);
    },
  },
  {
    name: "lifecycle_redemption_never_completed",
    breaks: "a dispatched redemption is COMPLETED (burned at dispatch)",
    apply: (x) => {
      const rows = dataOf(x)?.redemptions;
      if (!is(x, "GET", /^\/api\/v1\/mystery\/redemption\/[^/]+$/) || !Array.isArray(rows)) return;
      for (const r of rows as Record<string, unknown>[]) if (r.status === "COMPLETED") r.status = "IN_FULFILLMENT";
    },
  },
  {
    name: "lifecycle_pool_wallet_not_used",
    breaks: "setting the pool wallet forwards held buyback transfers to it",
    apply: (x) => {
      // The PUT answers 200, but the wallet is stored inactive: forwarding never finds it.
      const key = keyOf(x);
      if (!key || !is(x, "PUT", /^\/api\/v1\/mystery\/pool-wallet$/) || x.status !== 200) return;
      for (const w of mystery(x.services).pool_wallets[key.account_id] ?? []) w.is_active = false;
    },
  },
  {
    name: "lifecycle_buyback_default_pool_wallet",
    breaks: "without a pool wallet a buyback transfer is held, then fails after 10 attempts",
    apply: (x) => {
      // A server that silently forwards to a wallet of its own when the partner set none.
      const key = keyOf(x);
      const chain = x.services.chainHost?.gateway;
      if (!key || !chain || !is(x, "POST", /^\/api\/v1\/mystery\/buyback\/\d+$/) || x.status !== 201) return;
      if (activeWallet(x.services, "pool_wallets", key.account_id)) return;
      (mystery(x.services).pool_wallets[key.account_id] ??= []).push({
        chain: "base",
        address: chain.treasury.address,
        is_active: true,
        created_at: x.services.clock.nowIso(),
      });
    },
  },
  {
    name: "lifecycle_sellback_pays_less",
    breaks: "the sell-back record pays what the quote said (from CardSellExecuted)",
    apply: (x) => {
      const d = dataOf(x);
      if (!is(x, "POST", /^\/api\/v1\/mystery\/sellback\/submit$/) || x.status !== 200 || !d) return;
      const total = parseUsdc(d.total_usdc);
      if (total !== null) d.total_usdc = usdc((total * 975n) / 1000n);
    },
  },
  {
    name: "lifecycle_payout_never_paid",
    breaks: "a paid payout statement reads PAID in GET /mystery/payouts",
    apply: (x) => {
      const rows = dataOf(x)?.payouts;
      if (!is(x, "GET", /^\/api\/v1\/mystery\/payouts$/) || !Array.isArray(rows)) return;
      for (const r of rows as Record<string, unknown>[]) if (r.status === "PAID") r.status = "PENDING";
    },
  },
  {
    name: "sellback_quote_total_off",
    breaks: "a sell-back quote's total is the sum of its eligible items' payouts",
    apply: (x) => {
      // One USDC more than the items add up to (conformance/checks/commerce.ts).
      const d = dataOf(x);
      if (
        !is(x, "POST", /^\/api\/v1\/mystery\/sellback\/quote$/) ||
        x.status !== 200 ||
        !d ||
        typeof d.total_payout_micros !== "string"
      )
        return;
      const micros = BigInt(d.total_payout_micros) + 1_000_000n;
      d.total_payout_micros = micros.toString();
      d.total_payout_usdc = usdc(micros);
    },
  },
  ...redemptionDeviations,
  ...purchaseDeviations,
];
