import { NotApplicable, runs, type Check, type CheckContext } from "../types.ts";
import { ensure, env, expectError, expectSuccess, usdcMicros } from "../assert.ts";

// Checks of mystery commerce that need no chain: access, input rules and the
// error codes of the interface document, prices, catalog and wallets. A
// well-known card (base1-4) is the price probe.

const M = "/api/v1/mystery";
const WALLET = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
const FR = { name: "Conformance", street1: "1 Rue de Rivoli", city: "Paris", zip: "75001", country: "FR" };

const micros = usdcMicros;

const base = { profile: "mystery" as const, credits: 0 };

export const mysteryChecks: Check[] = [
  {
    ...base,
    id: "mystery.tenant-key-403",
    guards: "docs/reference/api-rules.md “Error codes” (403 Insufficient permissions)",
    title: "A tenant key on a mystery endpoint → 403",
    rule: "A non-partner key on partner endpoints returns 403 (Insufficient permissions).",
    mode: "read-only",
    needs: ["tenantKey"],
    deviation: "mystery_tenant_allowed",
    async run({ http, tenantKey }) {
      expectError(
        await http.get(`${M}/stats`, { key: tenantKey }),
        403,
        "Insufficient permissions",
        "tenant key on GET /mystery/stats",
      );
    },
  },
  {
    ...base,
    id: "mystery.custodial-idempotency-key",
    guards:
      "docs/reference/api-rules.md “Mystery commerce endpoints”; docs/reference/live-service.md “Purchases” and “Idempotency”",
    title: "Custodial purchase without Idempotency-Key → 400 missing_idempotency_key",
    rule: "POST /mystery/purchase: header Idempotency-Key required (400 missing_idempotency_key).",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_idempotency_key_optional",
    async run({ http, partnerKey }) {
      const r = await http.post(`${M}/purchase`, {
        key: partnerKey,
        body: { tier_id: 1, external_user_id: "conformance-user" },
      });
      expectError(r, 400, "missing_idempotency_key", "POST /mystery/purchase without Idempotency-Key");
    },
  },
  {
    ...base,
    id: "mystery.odds-scope",
    guards:
      "docs/reference/live-service.md “Mystery catalog, feeds and price” (odds: scope onchain or inventory_fallback; 400 invalid_tier); docs/reference/sdk-shapes.md “Mystery pack methods” (odds)",
    title: "A tier's odds are scoped onchain or inventory_fallback; an unknown tier's are 400 invalid_tier",
    rule: 'GET /mystery/catalog/{tier_id}/odds: scope: "onchain" (tier weights) or "inventory_fallback"; 400 invalid_tier.',
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_odds_scope_renamed",
    async run({ http, partnerKey }) {
      const tiers = (
        expectSuccess(await http.get(`${M}/catalog`, { key: partnerKey }), "GET /mystery/catalog").data as {
          tiers: Array<{ tier_id: number }>;
        }
      ).tiers;
      if (!tiers.length) throw new NotApplicable("the catalog lists no tier");
      const id = tiers[0]!.tier_id;
      const odds = expectSuccess(
        await http.get(`${M}/catalog/${id}/odds`, { key: partnerKey }),
        `GET odds of tier ${id}`,
      ).data as { scope?: unknown; tier_id?: unknown };
      ensure(
        odds.scope === "onchain" || odds.scope === "inventory_fallback",
        `odds.scope must be "onchain" or "inventory_fallback", got ${JSON.stringify(odds.scope)}`,
      );
      ensure(odds.tier_id === id, `the odds must name tier ${id}, got ${JSON.stringify(odds.tier_id)}`);
      expectError(
        await http.get(`${M}/catalog/987654/odds`, { key: partnerKey }),
        400,
        "invalid_tier",
        "GET /mystery/catalog/987654/odds",
      );
    },
  },
  {
    ...base,
    id: "mystery.stats-offer-volume",
    guards:
      "docs/reference/api-rules.md “Mystery commerce endpoints” (GET /mystery/stats includes offer volume); docs/reference/live-service.md “Purchases”",
    title: "GET /mystery/stats carries counts, total volume (micros and usdc), per tier, and buyback offer figures",
    rule: "GET /mystery/stats: counts, total_volume (+ _usdc), by_tier, and buyback offer figures.",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_stats_without_buyback",
    async run({ http, partnerKey }) {
      const d = expectSuccess(await http.get(`${M}/stats`, { key: partnerKey }), "GET /mystery/stats").data as Record<
        string,
        unknown
      >;
      for (const k of ["total_purchases", "fulfilled", "refunded", "failed"])
        ensure(Number.isInteger(d[k]), `stats.${k} must be a count, got ${JSON.stringify(d[k])}`);
      ensure(
        typeof d.total_volume === "string" &&
          typeof d.total_volume_usdc === "string" &&
          BigInt(d.total_volume) === micros(d.total_volume_usdc),
        `total_volume (micros) and total_volume_usdc must name one amount, got ${JSON.stringify([d.total_volume, d.total_volume_usdc])}`,
      );
      ensure(Array.isArray(d.by_tier), "stats.by_tier must be a list of tiers");
      const b = d.buyback as Record<string, unknown> | undefined;
      ensure(
        b && Number.isInteger(b.offers) && Number.isInteger(b.accepted) && typeof b.offered_volume_usdc === "string",
        `stats.buyback must carry the offer figures (offers, accepted, offered_volume_usdc), got ${JSON.stringify(b)}`,
      );
    },
  },
  {
    ...base,
    id: "mystery.custodial-quantity",
    guards: "docs/reference/live-service.md “Idempotency” (one pack per call: 400 unsupported_quantity)",
    title: "Custodial purchase of 2 packs → 400 unsupported_quantity",
    rule: "One pack per call: a quantity other than 1 is 400 unsupported_quantity.",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_quantity_ignored",
    async run({ http, partnerKey }) {
      const r = await http.post(`${M}/purchase`, {
        key: partnerKey,
        headers: { "Idempotency-Key": "conformance-quantity-2" },
        body: { tier_id: 1, external_user_id: "conformance-user", quantity: 2 },
      });
      expectError(r, 400, "unsupported_quantity", "POST /mystery/purchase with quantity 2");
    },
  },
  {
    ...base,
    id: "mystery.invalid-tier",
    guards: "docs/reference/api-rules.md “Error codes” (invalid_tier); docs/reference/live-service.md “Purchases”",
    title: "Unknown tier → 400 invalid_tier",
    rule: "400 invalid_tier for an unknown tier.",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_unknown_tier_accepted",
    async run({ http, partnerKey }) {
      const r = await http.post(`${M}/purchase/prepare`, {
        key: partnerKey,
        body: { wallet_address: WALLET, tier_id: 987654 },
      });
      expectError(r, 400, "invalid_tier", "prepare with tier 987654");
    },
  },
  {
    ...base,
    id: "mystery.price-query",
    guards:
      "docs/reference/live-service.md “Mystery catalog, feeds and price” (GET /mystery/price: exactly one of card_id / token_id)",
    title: "GET /mystery/price needs exactly one of card_id / token_id",
    rule: "400 invalid_price_query without exactly one of card_id / token_id.",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_price_query_lenient",
    async run({ http, partnerKey }) {
      expectError(await http.get(`${M}/price`, { key: partnerKey }), 400, "invalid_price_query", "price with neither");
      expectError(
        await http.get(`${M}/price`, { key: partnerKey, query: { card_id: "base1-4", token_id: "1" } }),
        400,
        "invalid_price_query",
        "price with both",
      );
    },
  },
  {
    ...base,
    id: "mystery.price-85",
    guards: "docs/reference/api-rules.md “Other limits” (default buyback offer 85% of card value)",
    title: "Would-be buyback price is 85% of the card's value",
    rule: "Default buyback offer: 85% of card value (GET /mystery/price).",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_price_full_value",
    async run({ http, partnerKey, note }) {
      const r = await http.get(`${M}/price`, { key: partnerKey, query: { card_id: "base1-4" } });
      const d = expectSuccess(r, "price of base1-4").data as Record<string, unknown>;
      const value = micros(d.market_value_usdc);
      const offer = micros(d.buyback_price_usdc);
      note(`market ${String(d.market_value_usdc)}, buyback ${String(d.buyback_price_usdc)}`);
      ensure(value > 0n, "market_value_usdc must be positive");
      const expected = (value * 85n) / 100n;
      ensure(
        offer >= expected - 10_000n && offer <= expected + 10_000n,
        `buyback_price_usdc ${String(d.buyback_price_usdc)} is not 85% of ${String(d.market_value_usdc)}`,
      );
    },
  },
  {
    ...base,
    id: "mystery.catalog-tiers",
    guards:
      "docs/reference/api-rules.md “Response envelope” (collections under named keys); docs/reference/live-service.md “Mystery catalog, feeds and price”",
    title: "GET /mystery/catalog lists tiers under data.tiers",
    rule: "List endpoints put collections under named keys in data (mystery catalog: data.tiers, data.games).",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_catalog_bare_array",
    async run({ http, partnerKey }) {
      const d = expectSuccess(await http.get(`${M}/catalog`, { key: partnerKey }), "GET /mystery/catalog").data as {
        tiers?: unknown;
        games?: unknown;
      } | null;
      ensure(d && !Array.isArray(d) && Array.isArray(d.tiers), "data.tiers must be an array");
      ensure(Array.isArray(d.games), "data.games must be an array");
      for (const t of d.tiers as Array<Record<string, unknown>>) {
        ensure(typeof t.tier_id === "number", "tier_id must be a number");
        ensure(
          typeof t.price_usdc === "string" || t.price_usdc === null,
          "price_usdc must be a string (partner money)",
        );
        if (typeof t.price_usdc !== "string") continue;
        // Two spellings of one price agree: decimal USDC and integer micros (the display text's format is not specified).
        const m = micros(t.price_usdc);
        if (t.price_micros !== undefined)
          ensure(
            t.price_micros === m.toString(),
            `tier ${String(t.tier_id)}: price_micros ${JSON.stringify(t.price_micros)} must be ${m} (price_usdc ${t.price_usdc})`,
          );
      }
    },
  },
  {
    ...base,
    id: "mystery.pool-wallet-invalid-address",
    guards:
      "docs/reference/live-service.md “Buyback offers and the pool wallet” (pool wallet) and “Partner error codes” (invalid_address)",
    title: "PUT /mystery/pool-wallet with a bad body → 400 invalid_address",
    rule: "invalid_address also for a bad pool-wallet body.",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_pool_wallet_lenient",
    async run({ http, partnerKey }) {
      const r = await http.call("PUT", `${M}/pool-wallet`, { key: partnerKey, body: { wallet_address: "0x1234" } });
      expectError(r, 400, "invalid_address", "PUT /mystery/pool-wallet 0x1234");
    },
  },
  {
    ...base,
    id: "mystery.pool-wallet-not-set",
    guards: "docs/reference/live-service.md “Buyback offers and the pool wallet” (pool_wallet_not_set)",
    title: "Pool wallet read before it is set → 404 pool_wallet_not_set; set then read back",
    rule: "GET /mystery/pool-wallet: 404 pool_wallet_not_set until PUT sets the active pool wallet.",
    // Emulator mode: a fresh key, so the 404 then the set. Elsewhere nothing changes the partner's pool wallet.
    ...runs("sandbox", ["partnerKey"]),
    deviation: "mystery_pool_wallet_not_set_code",
    async run(ctx) {
      const { http, partnerKey } = ctx;
      if (!ctx.control) return walletReadBack(ctx, partnerKey, "/api/v1/mystery/pool-wallet", "pool_wallet_not_set");
      expectError(
        await http.get(`${M}/pool-wallet`, { key: partnerKey }),
        404,
        "pool_wallet_not_set",
        "GET /mystery/pool-wallet on a fresh key",
      );
      expectSuccess(
        await http.call("PUT", `${M}/pool-wallet`, { key: partnerKey, body: { wallet_address: WALLET } }),
        "PUT /mystery/pool-wallet",
      );
      const d = expectSuccess(await http.get(`${M}/pool-wallet`, { key: partnerKey }), "GET after PUT").data as Record<
        string,
        unknown
      >;
      ensure(
        String(d.address).toLowerCase() === WALLET.toLowerCase(),
        `pool wallet should read back ${WALLET}, got ${String(d.address)}`,
      );
    },
  },
  {
    ...base,
    id: "mystery.payout-wallet",
    guards:
      "docs/reference/api-rules.md “Error codes” (404 payout_wallet_not_set); docs/reference/live-service.md “Revenue share”",
    title: "Payout wallet: 404 payout_wallet_not_set before set, bad body → 400 invalid_address",
    rule: "PUT /payout-wallet sets the payout wallet; bad body gives invalid_address; payout_wallet_not_set when read before set.",
    // Emulator mode: a fresh TIER key, so the 404 then the set. Elsewhere the partner's TIER key, left as it was.
    ...runs("sandbox", ["revenueShareKey"]),
    deviation: "mystery_payout_wallet_lenient",
    async run(ctx) {
      const { http, control } = ctx;
      if (!control) {
        ensure(ctx.revenueShareKey, "no TIER key");
        return walletReadBack(ctx, ctx.revenueShareKey, "/api/v1/payout-wallet", "payout_wallet_not_set");
      }
      const key = await control.newKey({
        kind: "partner",
        billing_model: "TIER",
        scopes: ["packs:read", "payout:manage"],
      });
      expectError(
        await http.get(`${M}/payout-wallet`, { key }),
        404,
        "payout_wallet_not_set",
        "GET /mystery/payout-wallet before set",
      );
      expectError(
        await http.call("PUT", "/api/v1/payout-wallet", { key, body: { address: "not-an-address" } }),
        400,
        "invalid_address",
        "PUT /payout-wallet bad body",
      );
      expectSuccess(
        await http.call("PUT", "/api/v1/payout-wallet", { key, body: { address: WALLET } }),
        "PUT /payout-wallet",
      );
    },
  },
  {
    ...base,
    id: "mystery.sellback-not-tier-partner",
    guards:
      "docs/reference/api-rules.md “Error codes” (403 not_tier_partner); docs/reference/live-service.md “Sell-back”",
    title: "Sell-back with a POOL-model key → 403 not_tier_partner",
    rule: "Some mystery endpoints reject the wrong partner model with not_tier_partner (sell-back is TIER-only).",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_sellback_any_model",
    async run({ http, partnerKey }) {
      const terms = expectSuccess(await http.get(`${M}/terms`, { key: partnerKey }), "GET /mystery/terms").data as {
        billing_model?: unknown;
      };
      if (terms.billing_model !== "POOL")
        throw new NotApplicable(
          `needs a POOL partner key; --partner-key's billing model is ${String(terms.billing_model)}`,
        );
      const r = await http.post(`${M}/sellback/quote`, {
        key: partnerKey,
        body: { wallet_address: WALLET, token_ids: ["1"] },
      });
      expectError(r, 403, "not_tier_partner", "POOL key on POST /mystery/sellback/quote");
    },
  },
  {
    ...base,
    id: "mystery.sellback-batch-limit",
    guards: "docs/reference/api-rules.md “Other limits” (sell-back batch 50) and “Error codes” (too_many_tokens)",
    title: "Sell-back of more than 50 tokens → 400 too_many_tokens",
    rule: "A sell-back request takes token ids, up to 50 per batch (too_many_tokens).",
    mode: "read-only",
    needs: ["revenueShareKey"],
    deviation: "mystery_sellback_batch_unbounded",
    async run({ http, revenueShareKey }) {
      ensure(revenueShareKey, "no TIER key");
      const key = revenueShareKey;
      const ids = Array.from({ length: 51 }, (_, i) => String(i + 1));
      expectError(
        await http.post(`${M}/sellback/quote`, { key, body: { wallet_address: WALLET, token_ids: ids } }),
        400,
        "too_many_tokens",
        "51 tokens",
      );
      expectError(
        await http.post(`${M}/sellback/quote`, { key, body: { wallet_address: WALLET, token_ids: [] } }),
        400,
        "invalid_token_ids",
        "no tokens",
      );
    },
  },
  {
    ...base,
    id: "mystery.redemption-phone-required",
    guards: "docs/reference/live-service.md “Redemption” (non-US destination needs a phone)",
    title: "Redemption quote to a non-US address without a phone → 400 phone_required",
    rule: "Non-US destination needs a phone number (phone_required).",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_phone_optional",
    async run({ http, partnerKey }) {
      const r = await http.post(`${M}/redemption/quote`, {
        key: partnerKey,
        body: { purchase_id: 1, shipping_address: FR },
      });
      expectError(r, 400, "phone_required", "quote to FR without phone");
      const missing = await http.post(`${M}/redemption/quote`, { key: partnerKey, body: { purchase_id: 1 } });
      expectError(missing, 400, "missing_shipping_address", "quote without an address");
    },
  },
  {
    ...base,
    id: "mystery.redemptions-status-filter",
    guards: "docs/reference/api-rules.md “Error codes” (invalid_status); docs/reference/live-service.md “Redemption”",
    title: "GET /mystery/redemptions?status=<bad> → 400 invalid_status",
    rule: "invalid_status also for a bad ?status= filter.",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_status_filter_ignored",
    async run({ http, partnerKey }) {
      expectError(
        await http.get(`${M}/redemptions`, { key: partnerKey, query: { status: "NOT_A_STATUS" } }),
        400,
        "invalid_status",
        "?status=NOT_A_STATUS",
      );
      const ok = expectSuccess(await http.get(`${M}/redemptions`, { key: partnerKey }), "GET /mystery/redemptions");
      ensure(Array.isArray((ok.data as { redemptions?: unknown }).redemptions), "data.redemptions must be an array");
    },
  },
  {
    ...base,
    id: "mystery.purchase-not-found",
    guards: "docs/reference/api-rules.md “Error codes” (404 not_found)",
    title: "Unknown purchase → 404 not_found",
    rule: "404 not_found for a purchase that does not exist or is not the caller's.",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_missing_purchase_200",
    async run({ http, partnerKey }) {
      const r = await http.get(`${M}/purchase/999999999`, { key: partnerKey });
      expectError(r, 404, "not_found", "GET /mystery/purchase/999999999");
      ensure(env(r).success === false, "error envelope");
    },
  },
  {
    ...base,
    id: "mystery.buyback-accept-prepare-no-offer",
    guards: "docs/reference/live-service.md “Buyback offers and the pool wallet” (relayed accept: no_active_offer)",
    title: "Relayed accept prepare for a token without an active offer → 404 no_active_offer",
    rule: "POST /mystery/buyback/{token}/accept/prepare: 404 no_active_offer when the partner has no active offer for the token.",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_accept_prepare_without_offer",
    async run({ http, partnerKey }) {
      const r = await http.post(`${M}/buyback/424242424242/accept/prepare`, { key: partnerKey, body: {} });
      expectError(r, 404, "no_active_offer", "accept/prepare for token 424242424242");
    },
  },
  {
    ...base,
    id: "mystery.buyback-accept-signature",
    guards: "docs/reference/live-service.md “Buyback offers and the pool wallet” (relayed accept: receiver_signature)",
    title: "Relayed accept without a usable receiver_signature → 400 invalid_receiver_signature",
    rule: "POST /mystery/buyback/{token}/accept: body receiver_signature (required); 400 invalid_receiver_signature.",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_receiver_signature_unchecked",
    async run({ http, partnerKey }) {
      const path = `${M}/buyback/424242424242/accept`;
      expectError(
        await http.post(path, { key: partnerKey, body: {} }),
        400,
        "invalid_receiver_signature",
        "accept without receiver_signature",
      );
      expectError(
        await http.post(path, { key: partnerKey, body: { receiver_signature: "0x1234" } }),
        400,
        "invalid_receiver_signature",
        "accept with a 2-byte signature",
      );
    },
  },
  {
    ...base,
    id: "mystery.feed-paging",
    guards:
      "docs/reference/live-service.md “Mystery catalog, feeds and price” (feeds) and “Pagination” (offset pagination, limit 1–100)",
    title: "Reveal feeds list under data.items with pagination beside data; limit clamps to 100",
    rule: "GET /mystery/feed/recent and /feed/winners (SDK gacha.feed): rows under data.items, offset pagination beside data, limit 1–100 (clamped).",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_feed_pagination_in_data",
    async run({ http, partnerKey }) {
      for (const path of [`${M}/feed/recent`, `${M}/feed/winners`]) {
        const b = expectSuccess(
          await http.get(path, { key: partnerKey, query: { limit: "500" } }),
          `GET ${path}?limit=500`,
        ) as { data: unknown; pagination?: unknown };
        const d = b.data as { items?: unknown } | null;
        ensure(d && !Array.isArray(d) && Array.isArray(d.items), `${path}: data.items must be an array`);
        ensure(d.items.length <= 100, `${path}: limit=500 must clamp to at most 100 rows, got ${d.items.length}`);
        const p = b.pagination as Record<string, unknown> | undefined;
        ensure(p && typeof p === "object", `${path}: pagination must sit beside data in the envelope`);
        ensure(
          p.limit === 100 && p.offset === 0 && typeof p.has_more === "boolean",
          `${path}: pagination should be {limit: 100, offset: 0, has_more}, got ${JSON.stringify(p)}`,
        );
      }
    },
  },
  {
    ...base,
    id: "mystery.collection-identity",
    guards: "docs/reference/live-service.md “Purchases” (collection: external_user_id and/or wallet_address)",
    title: "GET /mystery/collection without an end-user identity → 400 missing_user_identifier",
    rule: "GET /mystery/collection takes external_user_id and/or wallet_address (400 missing_user_identifier without either).",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_collection_anonymous",
    async run({ http, partnerKey }) {
      expectError(
        await http.get(`${M}/collection`, { key: partnerKey }),
        400,
        "missing_user_identifier",
        "GET /mystery/collection without identity",
      );
    },
  },
  {
    ...base,
    id: "mystery.wallet-ledger-identity",
    guards: "docs/reference/live-service.md “Custodial wallet” (ledger: external_user_id and/or wallet_address)",
    title: "GET /wallet/ledger without an end-user identity → 400 missing_user_identifier",
    rule: "GET /wallet/ledger takes external_user_id and/or wallet_address (400 missing_user_identifier without either).",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_ledger_anonymous",
    async run({ http, partnerKey }) {
      expectError(
        await http.get("/api/v1/wallet/ledger", { key: partnerKey }),
        400,
        "missing_user_identifier",
        "GET /wallet/ledger without identity",
      );
    },
  },
  {
    ...base,
    id: "mystery.terms-shape",
    guards:
      "docs/reference/live-service.md “Revenue share” (revenue terms); docs/reference/sdk-shapes.md “Revenue shapes” (terms)",
    title: 'GET /mystery/terms: TIER 5% (500 bps, "5.00") paid quarterly, with the current period',
    rule: 'GET /mystery/terms (SDK cardos.revenue.terms): TIER partners earn 500 bps ("5.00"), QUARTERLY, current_period{kind, from, to, closes_at}; a POOL key sees 0 bps and no current period (null).',
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_terms_share_bps",
    async run({ http, partnerKey, control, note }) {
      // In emulator mode a TIER key shows the share; read-only uses the given key, whatever its model.
      const key = control ? await control.newKey({ kind: "partner", billing_model: "TIER" }) : partnerKey;
      const d = expectSuccess(await http.get(`${M}/terms`, { key }), "GET /mystery/terms").data as Record<
        string,
        unknown
      >;
      note(`billing_model ${String(d.billing_model)}, revenue_share_bps ${String(d.revenue_share_bps)}`);
      ensure(
        d.billing_model === "TIER" || d.billing_model === "POOL",
        `billing_model must be TIER or POOL, got ${String(d.billing_model)}`,
      );
      if (control) ensure(d.billing_model === "TIER", "a TIER key must read billing_model TIER");
      const [bps, pct] = d.billing_model === "TIER" ? [500, "5.00"] : [0, "0.00"];
      ensure(
        d.revenue_share_bps === bps && d.revenue_share_pct === pct,
        `${String(d.billing_model)}: expected ${bps} bps ("${pct}"), got ${String(d.revenue_share_bps)} ("${String(d.revenue_share_pct)}")`,
      );
      ensure(
        d.payout_schedule === "QUARTERLY",
        `payout_schedule should be QUARTERLY, got ${String(d.payout_schedule)}`,
      );
      const p = d.current_period as Record<string, unknown> | null | undefined;
      if (d.billing_model === "POOL" && p === null) return; // no revenue-share period accrues on POOL
      ensure(p && typeof p === "object", "current_period must be an object");
      for (const f of ["from", "to", "closes_at"])
        ensure(
          typeof p[f] === "string" && !Number.isNaN(Date.parse(p[f] as string)),
          `current_period.${f} must be an ISO time`,
        );
      ensure(
        ["QUARTERLY", "MONTHLY", "CUSTOM"].includes(p.kind as string),
        `current_period.kind must be QUARTERLY, MONTHLY or CUSTOM, got ${String(p.kind)}`,
      );
    },
  },
  {
    ...base,
    id: "mystery.payouts-outstanding",
    guards:
      "docs/reference/live-service.md “Revenue share” (payouts and outstanding totals); docs/reference/sdk-shapes.md “Revenue shapes” (payouts)",
    title: "GET /mystery/payouts: statements under data.payouts beside outstanding_usdc, accruing, total_owed_usdc",
    rule: "GET /mystery/payouts: data{payouts[], outstanding_usdc, accruing, total_owed_usdc} + pagination (the SDK's outstanding() reads the totals beside the list).",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "mystery_payouts_without_totals",
    async run({ http, partnerKey, control }) {
      const key = control ? await control.newKey({ kind: "partner", billing_model: "TIER" }) : partnerKey;
      const b = expectSuccess(await http.get(`${M}/payouts`, { key }), "GET /mystery/payouts") as {
        data: unknown;
        pagination?: unknown;
      };
      const d = b.data as Record<string, unknown> | null;
      ensure(d && !Array.isArray(d) && Array.isArray(d.payouts), "data.payouts must be an array");
      micros(d.outstanding_usdc);
      micros(d.total_owed_usdc);
      ensure(
        "accruing" in d && (d.accruing === null || typeof d.accruing === "object"),
        "data.accruing must be present (the open period, or null on POOL)",
      );
      if (control) ensure(d.accruing !== null, "a TIER key has an accruing open period");
      ensure(b.pagination && typeof b.pagination === "object", "pagination must sit beside data");
    },
  },
];

/**
 * A partner's pool or payout wallet without changing it: read before set is 404 with `code`; once set, the same
 * address PUT again reads back unchanged; a bad address is 400 invalid_address (nothing set) either way.
 */
async function walletReadBack(ctx: CheckContext, key: string, path: string, code: string): Promise<void> {
  const { http } = ctx;
  expectError(
    await http.call("PUT", path, { key, body: { address: "not-an-address" } }),
    400,
    "invalid_address",
    `PUT ${path} with a bad address`,
  );
  const before = await http.get(path, { key });
  if (before.status === 404) {
    expectError(before, 404, code, `GET ${path} before it is set`);
    ctx.note(`${path} is not set on this key: the 404 shown, nothing set (the partner's configuration is left alone)`);
    return;
  }
  const set = expectSuccess(before, `GET ${path}`).data as { address: string; chain?: string };
  const again = expectSuccess(
    await http.call("PUT", path, { key, body: { address: set.address, ...(set.chain ? { chain: set.chain } : {}) } }),
    `PUT ${path} with the address it holds`,
  ).data as { address: string };
  ensure(again.address.toLowerCase() === set.address.toLowerCase(), `PUT ${path} must answer ${set.address}`);
  const after = expectSuccess(await http.get(path, { key }), `GET ${path} after`).data as { address: string };
  ensure(
    after.address.toLowerCase() === set.address.toLowerCase(),
    `${path} must read back ${set.address}, got ${after.address}`,
  );
  ctx.note(`${path} is set on this key: set again to the same address and read back (the 404 shows only before)`);
}
