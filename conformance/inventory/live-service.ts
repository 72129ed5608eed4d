import { CATALOG, COMMERCE, WEBHOOKS, type ReferenceInventory } from "./types.ts";

// The rules of docs/reference/live-service.md, in the page's order, each quoting its sentence (or table row) as the
// page words it; the statements that are not rules are listed under `skipped` with a one-word reason.

export const LIVE_SERVICE_RULES: ReferenceInventory = {
  file: "live-service.md",
  rules: [
    {
      id: "live.hosts.json",
      heading: "Hosts and request ids",
      sentence: "The service is HTTP/JSON; every answer is `application/json`.",
      operations: "all",
      checkedBy: ["pipeline.json-utf8", "wire:media"],
    },
    {
      id: "live.hosts.base",
      heading: "Hosts and request ids",
      sentence: "Every route is under `/api/v1`.",
      operations: "all",
      checkedBy: ["pipeline.unknown-path-404"],
    },
    {
      id: "live.hosts.networks",
      heading: "Hosts and request ids",
      sentence: "Production runs on Base mainnet (chain id 8453), staging on Base Sepolia.",
      checkedBy: {
        not_checkable: "a fact of the live deployment: an emulator or sandbox target runs on a chain of its own",
      },
    },
    {
      id: "live.hosts.request-id",
      heading: "Hosts and request ids",
      sentence: "Each answer carries its own `X-Request-Id`, which the SDK reads to correlate errors.",
      operations: "all",
      checkedBy: ["wire:requestId"],
    },
    {
      id: "live.keys.format",
      heading: "Keys and authentication",
      sentence: "`X-API-Key: rip_v1_<43 characters>`.",
      operations: "all",
      checkedBy: { not_checkable: "the key's form is the issuer's; the suite is handed keys and cannot mint one" },
    },
    {
      id: "live.keys.invalid-401",
      heading: "Keys and authentication",
      sentence:
        'A bad or inactive key is 401 `{success:false, message:"Invalid API key", error:"API key not found or inactive"}`.',
      operations: "all",
      checkedBy: ["pipeline.auth-401"],
    },
    {
      id: "live.keys.403",
      heading: "Keys and authentication",
      sentence:
        "A missing scope, or a key that is not a partner key on a partner route, is 403 `Insufficient permissions`.",
      operations: COMMERCE,
      checkedBy: ["pipeline.tenant-key-403", "mystery.tenant-key-403"],
    },
    {
      id: "live.scope.read-catalog",
      heading: "Partner scopes",
      sentence: "| `read:catalog` | mystery catalog, odds, feeds, `/mystery/price`; Card Data; the instant catalog |",
      operations: [
        "gacha.catalog",
        "gacha.odds",
        "gacha.feed.recent",
        "gacha.feed.winners",
        "gacha.price",
        "instant.catalog",
        ...CATALOG,
      ],
      checkedBy: ["pipeline.scopes-403"],
    },
    {
      id: "live.scope.wallet-read",
      heading: "Partner scopes",
      sentence: "| `wallet:read` | wallet balance, ledger, deposits |",
      operations: ["wallet.balance", "wallet.ledger", "wallet.deposits"],
      checkedBy: ["pipeline.scopes-403"],
    },
    {
      id: "live.scope.wallet-deposit",
      heading: "Partner scopes",
      sentence: "| `wallet:deposit` | the deposit address (not implied by `wallet:read`) |",
      operations: ["wallet.depositAddress"],
      checkedBy: ["pipeline.scopes-403"],
    },
    {
      id: "live.scope.packs-purchase",
      heading: "Partner scopes",
      sentence: "| `packs:purchase` | custodial and non-custodial purchases (mystery and instant prepare/submit) |",
      operations: ["gacha.purchase", "gacha.prepare", "gacha.submit", "instant.prepare", "instant.submit"],
      checkedBy: ["pipeline.scopes-403"],
    },
    {
      id: "live.scope.packs-read",
      heading: "Partner scopes",
      sentence:
        "| `packs:read` | purchase status and history, collection, stats, buyback and redemption status, sell-back quote and list, terms, revenue, payouts, buyback accept/prepare |",
      operations: [
        "gacha.getPurchase",
        "gacha.listPurchases",
        "gacha.collection",
        "gacha.stats",
        "redemption.get",
        "redemption.list",
        "sellback.quote",
        "sellback.list",
        "revenue.terms",
        "revenue.summary",
        "revenue.payouts",
        "buyback.acceptPrepare",
      ],
      checkedBy: ["pipeline.scopes-403"],
    },
    {
      id: "live.scope.packs-buyback",
      heading: "Partner scopes",
      sentence: "| `packs:buyback` | create buyback offers, relayed accept, sell-back prepare and submit |",
      operations: [
        "buyback.create",
        "buyback.createForPurchase",
        "buyback.accept",
        "sellback.prepare",
        "sellback.submit",
      ],
      checkedBy: ["pipeline.scopes-403"],
    },
    {
      id: "live.scope.cards-redeem",
      heading: "Partner scopes",
      sentence: "| `cards:redeem` | redemption quote, prepare, submit |",
      operations: ["redemption.quote", "redemption.prepare", "redemption.submit"],
      checkedBy: ["pipeline.scopes-403"],
    },
    {
      id: "live.scope.pool-manage",
      heading: "Partner scopes",
      sentence: "| `pool:manage` | get/set the pool wallet (granted explicitly only) |",
      operations: ["mystery.poolWallet.get", "mystery.poolWallet.set"],
      checkedBy: ["pipeline.scopes-403"],
    },
    {
      id: "live.scope.webhooks-manage",
      heading: "Partner scopes",
      sentence: "| `webhooks:manage` | register, list, get, delete webhooks; the delivery log |",
      operations: WEBHOOKS,
      checkedBy: ["pipeline.scopes-403"],
    },
    {
      id: "live.scope.payout-manage",
      heading: "Partner scopes",
      sentence:
        "| `payout:manage` | get/set the payout wallet (granted explicitly only; an admin scope is not enough) |",
      operations: ["revenue.getPayoutWallet", "revenue.setPayoutWallet", "payoutWallet.get", "payoutWallet.set"],
      checkedBy: ["pipeline.scopes-403"],
    },
    {
      id: "live.envelope.partner",
      heading: "Envelopes",
      sentence:
        "Partner success: `{success:true, data, pagination?}`; `pagination` is `{limit, offset, has_more, next_offset?}` and sits beside `data`.",
      operations: COMMERCE,
      checkedBy: ["wire:envelope", "wire:paging", "mystery.feed-paging"],
    },
    {
      id: "live.envelope.card-data",
      heading: "Envelopes",
      sentence:
        "Card Data success: `{success:true, data, page, page_size, total_count, language}`, the paging fields at the top level.",
      operations: ["cards.search", "expansions.search", "expansions.cards", "sealed.search"],
      checkedBy: ["catalog.search-page", "wire:paging"],
    },
    {
      id: "live.envelope.errors",
      heading: "Envelopes",
      sentence:
        "Errors (both): `{success:false, message, error, details?, retryable?}`; `details.position` on query-grammar errors.",
      operations: "all",
      checkedBy: ["wire:envelope", "catalog.q-errors"],
    },
    {
      id: "live.envelope.5xx",
      heading: "Envelopes",
      sentence:
        "5xx never show internals; a failing upstream (e.g. the shipping-rate provider) surfaces as `internal_error`.",
      operations: "all",
      checkedBy: {
        unchecked:
          "an emulator-only check failing the shipping-rate provider, expecting 500 internal_error with no internals",
      },
    },
    {
      id: "live.money.partner-strings",
      heading: "Money, ids and time",
      sentence:
        'Partner money is always a string: `*_micros` and bare amounts are integer USDC micros (`"12500000"`), `*_usdc` a 6-decimal string (`"12.500000"`), a reveal\'s `value_usd` a USD decimal string.',
      operations: COMMERCE,
      checkedBy: ["invariant:money.usdc-twins", "wire:schema"],
    },
    {
      id: "live.money.card-data-numbers",
      heading: "Money, ids and time",
      sentence: "Card Data money is a JSON number in USD, the one exception.",
      operations: CATALOG,
      checkedBy: ["wire:schema"],
    },
    {
      id: "live.ids.types",
      heading: "Money, ids and time",
      sentence:
        "Row ids (`tier_id`, `purchase_id`, `redemption_id`, `offer_id`, webhook `id`) are numbers; `token_id`, `request_id`, `card_id` are strings; timestamps ISO-8601; addresses 0x hex; a transaction hash is 0x plus 32 bytes.",
      operations: COMMERCE,
      checkedBy: ["wire:schema", "invariant:time.iso-utc"],
    },
    {
      id: "live.ids.external-user-id",
      heading: "Money, ids and time",
      sentence: "`external_user_id` is the partner's own id, at most 255 characters (`identifier_too_long`).",
      operations: ["gacha.purchase", "gacha.collection", "wallet.balance", "wallet.ledger"],
      checkedBy: ["pipeline.identifier-too-long"],
    },
    {
      id: "live.ids.memo",
      heading: "Money, ids and time",
      sentence:
        "A purchase's `memo` is `<partner-slug>-<id>`, an instant one `<partner-slug>-instant-<id>`; absent when the partner has no slug.",
      operations: ["gacha.purchase", "instant.submit"],
      checkedBy: ["lifecycle.mystery-custodial-lifecycle", "lifecycle.instant", "invariant:purchase.memo-names-it"],
    },
    {
      id: "live.ids.event-id-secret",
      heading: "Money, ids and time",
      sentence: "A webhook event id is `<event>:<key>`; a signing secret is 64 hex characters.",
      operations: ["webhooks.register"],
      checkedBy: ["webhooks.signed-delivery", "webhooks.secret-shown-once"],
    },
    {
      id: "live.paging.partner",
      heading: "Pagination",
      sentence:
        "| Partner lists (purchases, instant, wallet, redemptions, sell-backs, payouts, feeds, deliveries) | `limit`, `offset` | `pagination {limit, offset, has_more, next_offset?}` | `limit` 1–100 (default 50), `offset` 0–10,000 |",
      operations: COMMERCE,
      checkedBy: ["mystery.feed-paging", "webhooks.deliveries-shape", "wire:paging"],
    },
    {
      id: "live.paging.card-data",
      heading: "Pagination",
      sentence:
        "| Card Data (cards, expansions, sealed) | `page`, `page_size` | `page`, `page_size`, `total_count`, `language` | `page` ≥ 1 (default 1), `page_size` 1–100 (default 100), `page × page_size` ≤ 10,000; out of range is 400 `invalid_pagination`, never clamped |",
      operations: ["cards.search", "expansions.search", "expansions.cards", "sealed.search"],
      checkedBy: ["catalog.page-size-cap", "catalog.paging-walk", "catalog.search-page"],
    },
    {
      id: "live.paging.printings",
      heading: "Pagination",
      sentence:
        "| `/{game}/cards/{id}/printings` | — | one terminal page | at most 50 rows; `total_count` is the whole family |",
      operations: ["cards.printings"],
      checkedBy: ["catalog.printings"],
    },
    {
      id: "live.paging.webhook-list",
      heading: "Pagination",
      sentence: "| Webhook list | — | a plain array (at most 20) | not paged |",
      operations: ["webhooks.list"],
      checkedBy: ["webhooks.by-id-equals-listed", "webhooks.limit-20"],
    },
    {
      id: "live.paging.ties-by-id",
      heading: "Pagination",
      sentence: "Sorted Card Data results break ties on the unique `id`.",
      operations: ["cards.search", "expansions.search", "expansions.cards", "sealed.search"],
      checkedBy: ["invariant:catalog.ties-by-id"],
    },
    {
      id: "live.idempotency.key-required",
      heading: "Idempotency",
      sentence: "`POST /mystery/purchase` requires `Idempotency-Key` (else 400 `missing_idempotency_key`).",
      operations: ["gacha.purchase"],
      checkedBy: ["mystery.custodial-idempotency-key"],
    },
    {
      id: "live.idempotency.replay",
      heading: "Idempotency",
      sentence:
        "The same key returns the original purchase and its 202 without charging again; the same key with another `tier_id` is 409 `idempotency_mismatch`.",
      operations: ["gacha.purchase"],
      checkedBy: ["lifecycle.mystery-custodial-retry"],
    },
    {
      id: "live.idempotency.bound",
      heading: "Idempotency",
      sentence: "A key is bound to its first (user, tier).",
      operations: ["gacha.purchase"],
      checkedBy: ["lifecycle.mystery-custodial-retry"],
    },
    {
      id: "live.idempotency.redemption",
      heading: "Idempotency",
      sentence:
        "Redemption prepare is idempotent per key (body `idempotency_key` or the header) and allows one live redemption per (partner, token); after expiry, retry with a new key.",
      operations: ["redemption.prepare"],
      checkedBy: ["commerce.redemption-prepare"],
    },
    {
      id: "live.idempotency.quantity",
      heading: "Idempotency",
      sentence: "One pack per call: a `quantity` other than 1 is 400 `unsupported_quantity`.",
      operations: ["gacha.purchase"],
      checkedBy: ["mystery.custodial-quantity"],
    },
    {
      id: "live.idempotency.submits",
      heading: "Idempotency",
      sentence:
        "Submits (purchase, redemption, sell-back, instant) are idempotent on the transaction hash; a buyback create per (partner, token) returns the active offer with `idempotent: true`.",
      operations: ["gacha.submit", "redemption.submit", "sellback.submit", "instant.submit", "buyback.create"],
      checkedBy: ["instant.submit-idempotent", "lifecycle.mystery-sellback"],
    },
    {
      id: "live.rate.partner",
      heading: "Rate limits and caching",
      sentence: "Partner commerce (Gacha, Instant, wallet, webhooks): 240 requests a minute per key.",
      operations: COMMERCE,
      checkedBy: ["limits.window-per-surface"],
    },
    {
      id: "live.rate.card-data",
      heading: "Rate limits and caching",
      sentence: "Card Data: 300 a minute per key, the same on every plan.",
      operations: CATALOG,
      checkedBy: ["limits.window-per-surface"],
    },
    {
      id: "live.rate.window",
      heading: "Rate limits and caching",
      sentence:
        "Both use a rolling 60 s window and send `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`; a 429 (`rate_limited`) adds `Retry-After`.",
      operations: "all",
      checkedBy: [
        "pipeline.ratelimit-ceiling",
        "wire:rateHeaders",
        "wire:retryAfter",
        "invariant:pipeline.retry-after-seconds",
      ],
    },
    {
      id: "live.rate.concurrency",
      heading: "Rate limits and caching",
      sentence:
        "Concurrency: global gates of 24 reads, 5 purchases, 10 writes and 10 wallet reads; short bursts queue, sustained overload is 503 `overloaded` with `Retry-After: 1`.",
      operations: "all",
      checkedBy: ["pipeline.concurrency-gates"],
    },
    {
      id: "live.rate.shedding-unbilled",
      heading: "Rate limits and caching",
      sentence: "429 and 503 shedding come before metering and are never billed.",
      operations: "all",
      checkedBy: ["pipeline.rate-limited-429", "wire:creditHeaders"],
    },
    {
      id: "live.cache.price",
      heading: "Rate limits and caching",
      sentence: "`/mystery/price` is cached about 60 s.",
      operations: ["gacha.price"],
      checkedBy: ["limits.response-cache"],
    },
    {
      id: "live.cache.fresh-budget",
      heading: "Rate limits and caching",
      sentence:
        "The catalog, odds, price and feeds accept `fresh=true` to recompute, which has its own budget of 10 calls a minute per key (429 beyond).",
      operations: ["gacha.catalog", "gacha.odds", "gacha.price", "gacha.feed.recent", "gacha.feed.winners"],
      checkedBy: ["limits.fresh-budget"],
    },
    {
      id: "live.codes.400",
      heading: "Partner error codes",
      sentence:
        "| 400 | `unsupported_quantity`, `missing_user_identifier`, `invalid_wallet_address`, `purchase_or_token_required`, `phone_required`, `invalid_shipping_payer`, `invalid_token_ids`, `too_many_tokens`, `tx_reverted`, `tx_unverified`, `missing_tx_hash`, `packet_type_mismatch`, `purchaser_mismatch`, `invalid_packet_type`, `price_too_high`, `invalid_receiver_signature`, `invalid_event_types`; `invalid_address` also for a bad pool-wallet body |",
      operations: COMMERCE,
      checkedBy: [
        "mystery.collection-identity",
        "mystery.redemption-phone-required",
        "redemption.shipping-payer",
        "mystery.sellback-batch-limit",
        "instant.submit-missing-hash",
        "instant.submit-unknown-tx",
        "instant.submit-packet-type-mismatch",
        "instant.submit-purchaser-mismatch",
        "mystery.buyback-accept-signature",
        "webhooks.invalid-event-types",
        "mystery.pool-wallet-invalid-address",
      ],
    },
    {
      id: "live.codes.402",
      heading: "Partner error codes",
      sentence: "| 402 | `insufficient_funds` (custodial: the end user's available balance is below the price) |",
      operations: ["gacha.purchase"],
      checkedBy: ["purchases.insufficient-funds"],
    },
    {
      id: "live.codes.403",
      heading: "Partner error codes",
      sentence:
        "| 403 | `not_tier_partner` (sell-back on a POOL account), `not_pool_partner` (buyback on a TIER account), `seller_mismatch` |",
      operations: ["sellback.quote", "buyback.create"],
      checkedBy: ["mystery.sellback-not-tier-partner"],
    },
    {
      id: "live.codes.404",
      heading: "Partner error codes",
      sentence: "| 404 | `pool_wallet_not_set`, `payout_wallet_not_set`, `no_active_offer` |",
      operations: ["mystery.poolWallet.get", "payoutWallet.get", "buyback.acceptPrepare"],
      checkedBy: ["mystery.pool-wallet-not-set", "mystery.payout-wallet", "mystery.buyback-accept-prepare-no-offer"],
    },
    {
      id: "live.codes.409",
      heading: "Partner error codes",
      sentence:
        "| 409 | `kyc_required`, `sold_out`, `max_price_exceeded`, `tx_already_recorded`, `ambiguous_token`, `item_type_mismatch`, `window_expired`, `wrong_holder`, `insufficient_liquidity`, `nft_approval_missing`, `receiver_signature_mismatch`, `accept_simulation_failed`, `offer_exists` |",
      operations: COMMERCE,
      checkedBy: [
        "instant.sold-out",
        "instant.max-price",
        "instant.tx-already-recorded",
        "redemption.ambiguous-token",
        "redemption.item-type-mismatch",
      ],
    },
    {
      id: "live.codes.422",
      heading: "Partner error codes",
      sentence: "| 422 | no code: the shape was accepted, the meaning refused |",
      operations: COMMERCE,
      checkedBy: { not_checkable: "the documents name no request that earns a 422, so no check can provoke one" },
    },
    {
      id: "live.codes.503",
      heading: "Partner error codes",
      sentence:
        "| 503 | `relayer_disabled` (custodial purchasing and the buyback relay paused), `overloaded`, `timeout`, `instant_disabled`, `shipping_signer_unavailable` |",
      operations: ["gacha.purchase", "instant.prepare", "redemption.prepare", "buyback.accept"],
      checkedBy: [
        "purchases.relayer-disabled",
        "instant.disabled",
        "redemption.shipping-signer-unavailable",
        "lifecycle.mystery-relayer-paused",
      ],
    },
    {
      id: "live.card-data.routes",
      heading: "Card Data endpoints",
      sentence: "All GET, scope `read:catalog`, 1 credit each, games `pokemon`, `onepiece`, `azuki`:",
      operations: CATALOG,
      checkedBy: ["pipeline.credit-headers", "catalog.card-not-found"],
    },
    {
      id: "live.card-data.cards",
      heading: "Card Data endpoints",
      sentence:
        "`/{game}/cards`: `q`, `language` (default `en`; a list or `all`), `orderBy`, `distinct=code`, `select`, `include=prices`, `page`, `page_size`.",
      operations: ["cards.search"],
      checkedBy: ["catalog.q-meaning", "catalog.include-prices", "catalog.search-page"],
    },
    {
      id: "live.card-data.card",
      heading: "Card Data endpoints",
      sentence:
        "`/{game}/cards/{id}` (`include`, `select`); `/{game}/cards/{id}/printings` (one page of at most 50; `language` honoured but not defaulted); `/{game}/cards/{id}/prices` → `{card_id, pricing}`.",
      operations: ["cards.get", "cards.printings", "cards.prices"],
      checkedBy: ["catalog.card-by-id-equals-listed", "catalog.printings", "invariant:catalog.printings-anchor-first"],
    },
    {
      id: "live.card-data.expansions",
      heading: "Card Data endpoints",
      sentence:
        "`/{game}/expansions` (q, language, orderBy `name|release_date|id`, select, paging), `/{game}/expansions/{id}`, `/{game}/expansions/{id}/cards` (as card search; `language` not defaulted).",
      operations: ["expansions.search", "expansions.get", "expansions.cards"],
      checkedBy: ["catalog.expansions", "catalog.expansion-by-id-equals-listed"],
    },
    {
      id: "live.card-data.sealed",
      heading: "Card Data endpoints",
      sentence:
        "`/{game}/sealed` (q, `product_type`, language, orderBy `name|price|release_date|id`, include, select), `/{game}/sealed/{id}`, `/{game}/sealed/{id}/prices` → `{product_id, pricing}` with a `history`.",
      operations: ["sealed.search", "sealed.get", "sealed.prices"],
      checkedBy: ["catalog.sealed", "catalog.sealed-by-id-equals-listed"],
    },
    {
      id: "live.card-data.not-live",
      heading: "Card Data endpoints",
      sentence: "Not live (404): price history, listings, population.",
      operations: ["cards.priceHistory"],
      checkedBy: ["catalog.price-history-not-live"],
    },
    {
      id: "live.card-data.other-game",
      heading: "Card Data endpoints",
      sentence: "An id of another game is just `not_found`.",
      operations: ["cards.get"],
      checkedBy: ["catalog.card-not-found"],
    },
    {
      id: "live.grammar.terms",
      heading: "Card Data query grammar",
      sentence:
        "`field:value` is a case-insensitive substring match; a bare term matches `name`; terms AND; upper case `OR` and parentheses; a leading `-` excludes; `!field:value` matches the whole value; quotes for spaces.",
      operations: ["cards.search", "expansions.search", "sealed.search"],
      checkedBy: ["catalog.q-meaning"],
    },
    {
      id: "live.grammar.wildcards-ranges",
      heading: "Card Data query grammar",
      sentence:
        "`*` wildcards (not first, at most 3, at least 2 literal characters); ranges `[a TO b]` inclusive, `{a TO b}` exclusive, `*` for an open end.",
      operations: ["cards.search", "expansions.search", "sealed.search"],
      checkedBy: ["catalog.q-meaning"],
    },
    {
      id: "live.grammar.caps",
      heading: "Card Data query grammar",
      sentence:
        "Caps: 512 characters, 20 terms, 5 levels of nesting, 3 `orderBy` keys; beyond any of them 400 `query_too_complex`.",
      operations: ["cards.search", "expansions.search", "sealed.search"],
      checkedBy: ["catalog.q-too-complex"],
    },
    {
      id: "live.card-data.errors",
      heading: "Card Data errors",
      sentence:
        "400 `parse_error`, `unknown_field`, `invalid_value` (these three with `details.position`, a 0-based offset), `query_too_complex`, `invalid_select`, `invalid_include`, `invalid_pagination`, `invalid_language`, `invalid_distinct`; 404 `not_found`; 402 `insufficient_credits`; 429 `rate_limited`.",
      operations: CATALOG,
      checkedBy: [
        "catalog.q-errors",
        "catalog.q-too-complex",
        "catalog.page-size-cap",
        "pipeline.insufficient-credits-402",
        "catalog.card-not-found",
      ],
    },
    {
      id: "live.billing.tier",
      heading: "Billing models",
      sentence:
        "TIER (current): the service owns inventory, the partner earns a revenue share, holders sell back via `/sellback`.",
      operations: ["revenue.terms", "sellback.quote"],
      checkedBy: ["mystery.terms-shape", "lifecycle.mystery-sellback"],
    },
    {
      id: "live.billing.pool",
      heading: "Billing models",
      sentence:
        "POOL (legacy): the partner's own pool inventory, `/buyback` offers the service fronts and bills monthly, forwarding to a pool wallet.",
      operations: ["buyback.create", "mystery.poolWallet.set"],
      checkedBy: ["lifecycle.mystery-buyback-forwarded"],
    },
    {
      id: "live.billing.info-model",
      heading: "Billing models",
      sentence: "`GET /api/v1/info` names a key's model.",
      operations: ["warehouse.info"],
      checkedBy: {
        unchecked:
          "a check reading GET /info with a partner key, expecting its billing model; the emulator answers /info to tenant keys only (docs/decisions.md “Warehouse: ids, re-quotes, /info, …”), so that check would fail it today",
      },
    },
    {
      id: "live.catalog.route",
      heading: "Mystery catalog, feeds and price",
      sentence: "`GET /mystery/catalog` (`game`, `variant`, `active`, `fresh`): `data.tiers[]` and `data.games[]`.",
      operations: ["gacha.catalog"],
      checkedBy: ["mystery.catalog-tiers"],
    },
    {
      id: "live.catalog.null-price",
      heading: "Mystery catalog, feeds and price",
      sentence: "A null price means a temporarily unavailable read, never free; a tier never bought still shows.",
      operations: ["gacha.catalog"],
      checkedBy: {
        unchecked:
          'an emulator-only check making a tier\'s price read fail, expecting price_usdc null (not "0"), and a never-bought tier listed with total_purchases 0',
      },
    },
    {
      id: "live.catalog.odds",
      heading: "Mystery catalog, feeds and price",
      sentence:
        '`GET /mystery/catalog/{tier_id}/odds`: `scope: "onchain"` (tier weights) or `"inventory_fallback"`; 400 `invalid_tier`.',
      operations: ["gacha.odds"],
      checkedBy: ["mystery.odds-scope"],
    },
    {
      id: "live.catalog.feeds",
      heading: "Mystery catalog, feeds and price",
      sentence:
        "Feeds `GET /mystery/feed/recent` (`scope=mine` for this key) and `/mystery/feed/winners`: offset paged (`limit` 1–100), `game` filter, rows under `items`.",
      operations: ["gacha.feed.recent", "gacha.feed.winners"],
      checkedBy: ["mystery.feed-paging"],
    },
    {
      id: "live.catalog.price",
      heading: "Mystery catalog, feeds and price",
      sentence:
        "`GET /mystery/price`: exactly one of `card_id` / `token_id` (else 400 `invalid_price_query`), optional `item_type`; answers `market_value_usdc`, `buyback_price_usdc` (85% of market), `value_source`, `updated_at`; 404 `not_found` / `value_unknown`.",
      operations: ["gacha.price"],
      checkedBy: ["mystery.price-query", "mystery.price-85"],
    },
    {
      id: "live.purchases.statuses",
      heading: "Purchases",
      sentence:
        "Statuses: `PENDING`, `RESERVED`, `SUBMITTING`, `SUBMITTED`, `FULFILLED`, `PARTIALLY_FULFILLED`, `REFUNDED`, `FAILED`.",
      operations: ["gacha.listPurchases"],
      checkedBy: ["purchases.status-filters"],
    },
    {
      id: "live.purchases.path",
      heading: "Purchases",
      sentence:
        "Main path `RESERVED → SUBMITTED → FULFILLED`; `REFUNDED` (e.g. the machine is empty; the hold is released) and `FAILED` (an error before broadcast) end badly.",
      operations: ["gacha.getPurchase"],
      checkedBy: ["invariant:purchase.status-forward", "lifecycle.mystery-custodial-lifecycle"],
    },
    {
      id: "live.purchases.custody",
      heading: "Purchases",
      sentence: "Custody `CUSTODIAL` or `NON_CUSTODIAL`.",
      operations: ["gacha.getPurchase"],
      checkedBy: ["purchases.custodial-reserved", "wire:schema"],
    },
    {
      id: "live.purchases.custodial-request",
      heading: "Purchases",
      sentence:
        "Custodial `POST /mystery/purchase` (`packs:purchase`): identity, `tier_id`, optional `max_price_usdc`, the `Idempotency-Key` header.",
      operations: ["gacha.purchase"],
      checkedBy: ["mystery.custodial-idempotency-key", "purchases.custodial-reserved"],
    },
    {
      id: "live.purchases.custodial-answer",
      heading: "Purchases",
      sentence:
        "Answers **202** `RESERVED` with the price held on the end user's credits; the service's relayer signs and broadcasts (`SUBMITTED`), the VRF reveals (`FULFILLED`).",
      operations: ["gacha.purchase"],
      events: ["purchase.reserved", "purchase.submitted", "purchase.fulfilled"],
      checkedBy: ["purchases.custodial-reserved", "lifecycle.mystery-custodial-lifecycle"],
    },
    {
      id: "live.purchases.settle",
      heading: "Purchases",
      sentence: "The user is debited what the pool actually charged; the rest of the hold returns to available.",
      operations: ["wallet.balance", "wallet.ledger"],
      checkedBy: ["lifecycle.mystery-custodial-lifecycle", "invariant:wallet.available"],
    },
    {
      id: "live.purchases.custodial-errors",
      heading: "Purchases",
      sentence:
        "Errors: 400 `missing_idempotency_key` / `invalid_tier` / `unsupported_quantity`, 402 `insufficient_funds`, 409 `idempotency_mismatch`, 503 `relayer_disabled`.",
      operations: ["gacha.purchase"],
      checkedBy: [
        "mystery.custodial-idempotency-key",
        "mystery.invalid-tier",
        "lifecycle.mystery-custodial-retry",
        "purchases.relayer-disabled",
        "mystery.custodial-quantity",
        "purchases.insufficient-funds",
      ],
    },
    {
      id: "live.purchases.prepare",
      heading: "Purchases",
      sentence:
        "Non-custodial prepare (`wallet_address`, `tier_id`, `max_price_usdc?`) creates nothing and answers `chain_id`, `contract`, `payment_token`, `max_price`, `max_price_usdc` and `calls` with `kind` (`erc20-approve`, then `purchase`).",
      operations: ["gacha.prepare"],
      checkedBy: ["commerce.purchase-reveal", "wire:schema"],
    },
    {
      id: "live.purchases.submit",
      heading: "Purchases",
      sentence:
        "Submit (`tier_id`, `transaction_hash`, `request_id?`, identity) is 202 with the purchase, after the transaction is mined and verified.",
      operations: ["gacha.submit"],
      checkedBy: ["commerce.purchase-reveal", "lifecycle.mystery-purchase-wallet"],
    },
    {
      id: "live.purchases.get",
      heading: "Purchases",
      sentence:
        "`GET /mystery/purchase/{id}`: the purchase, with `items` once revealed, each hydrated from the catalog (`token_id`, `item_type`, `category`, `card_id`, `name`, `image_url`, `value_usd`, `rarity`, `card_number`, `set_id`); 404 `not_found`, also for another partner's purchase.",
      operations: ["gacha.getPurchase"],
      checkedBy: ["mystery.purchase-not-found", "commerce.purchase-reveal", "redemption.by-id-equals-listed"],
    },
    {
      id: "live.purchases.list",
      heading: "Purchases",
      sentence:
        "`GET /mystery/purchases`: newest first, filters `status`, `external_user_id`, `wallet_address`; 400 `invalid_status`.",
      operations: ["gacha.listPurchases"],
      checkedBy: ["purchases.status-filters", "invariant:list.newest-first"],
    },
    {
      id: "live.purchases.collection",
      heading: "Purchases",
      sentence: "`GET /mystery/collection`: identity required (400 `missing_user_identifier`).",
      operations: ["gacha.collection"],
      checkedBy: ["mystery.collection-identity"],
    },
    {
      id: "live.purchases.stats",
      heading: "Purchases",
      sentence: "`GET /mystery/stats`: counts, `total_volume` (+ `_usdc`), `by_tier`, and `buyback` offer figures.",
      operations: ["gacha.stats"],
      checkedBy: ["mystery.stats-offer-volume", "wire:schema"],
    },
    {
      id: "live.purchases.volume",
      heading: "Purchases",
      sentence: "Volume counts `SUBMITTED`, `FULFILLED` and `PARTIALLY_FULFILLED` purchases.",
      operations: ["gacha.stats"],
      checkedBy: ["lifecycle.mystery-custodial-lifecycle"],
    },
    {
      id: "live.wallet.identity",
      heading: "Custodial wallet",
      sentence:
        "`/api/v1/wallet/*`; the end user is found by `external_user_id` and/or `wallet_address` (at least one) and created on first reference.",
      operations: ["wallet.balance", "wallet.ledger", "wallet.deposits", "wallet.depositAddress"],
      checkedBy: ["mystery.wallet-ledger-identity"],
    },
    {
      id: "live.wallet.routes",
      heading: "Custodial wallet",
      sentence:
        "`GET balance` (`available = balance − reserved`, micros and usdc twins), `GET ledger` (entries newest first; types `DEPOSIT_CREDIT`, `HOLD`, `HOLD_RELEASE`, `HOLD_SETTLE`, `BUYBACK_CREDIT`, `REFUND_CREDIT`, `ADJUSTMENT`), `GET deposits`, `POST deposit-address` (scope `wallet:deposit`).",
      operations: ["wallet.balance", "wallet.ledger", "wallet.deposits", "wallet.depositAddress"],
      checkedBy: ["invariant:wallet.available", "mystery.wallet-ledger-identity", "invariant:list.newest-first"],
    },
    {
      id: "live.instant.flow",
      heading: "Instant packs",
      sentence:
        "One transaction buys and opens a booster pack; a VRF picks a pre-built bundle; the cards land in the recipient's wallet.",
      operations: ["instant.submit", "instant.getPurchase"],
      checkedBy: ["commerce.instant-delivery", "lifecycle.instant"],
    },
    {
      id: "live.instant.catalog",
      heading: "Instant packs",
      sentence:
        "`GET /instant/catalog` (`read:catalog`): rows under `packs`; only `available_packs > 0` unless `include_unavailable` (`1`/`true`).",
      operations: ["instant.catalog"],
      checkedBy: ["instant.catalog-availability"],
    },
    {
      id: "live.instant.prepare",
      heading: "Instant packs",
      sentence:
        "`POST /instant/purchase/prepare` (`packet_type_id`, `wallet_address`, `max_price_usdc?`): creates nothing; two calls without `kind` (approve, then buy-and-open).",
      operations: ["instant.prepare"],
      checkedBy: ["instant.prepare-calls"],
    },
    {
      id: "live.instant.prepare-errors",
      heading: "Instant packs",
      sentence: "409 `sold_out` / `max_price_exceeded`, 503 `instant_disabled`.",
      operations: ["instant.prepare"],
      checkedBy: ["instant.sold-out", "instant.max-price", "instant.disabled"],
    },
    {
      id: "live.instant.submit",
      heading: "Instant packs",
      sentence:
        "`POST /instant/purchase/submit` (`packet_type_id`, `transaction_hash`, `request_id?`, identity?): 202 `SUBMITTED`; packet, price, VRF request and recipient are read from the receipt, never from the body; idempotent on the hash.",
      operations: ["instant.submit"],
      checkedBy: ["instant.submit-idempotent", "instant.submit-packet-type-mismatch", "commerce.instant-delivery"],
    },
    {
      id: "live.instant.submit-errors",
      heading: "Instant packs",
      sentence:
        "400 `missing_tx_hash` / `tx_unverified` / `tx_reverted` / `packet_type_mismatch` / `purchaser_mismatch`, 409 `tx_already_recorded`.",
      operations: ["instant.submit"],
      checkedBy: [
        "instant.submit-missing-hash",
        "instant.submit-unknown-tx",
        "instant.submit-packet-type-mismatch",
        "instant.submit-purchaser-mismatch",
        "instant.tx-already-recorded",
      ],
    },
    {
      id: "live.instant.reads",
      heading: "Instant packs",
      sentence:
        "`GET /instant/purchase/{id}` (404 `not_found` if not the caller's), `GET /instant/purchases` (filters as mystery; 400 `invalid_status`).",
      operations: ["instant.getPurchase", "instant.listPurchases"],
      checkedBy: ["instant.get-not-found", "instant.list-invalid-status", "instant.by-id-equals-listed"],
    },
    {
      id: "live.instant.no-buyback",
      heading: "Instant packs",
      sentence: "Instant cards have no buyback or sell-back window; they can be redeemed.",
      operations: ["sellback.quote", "redemption.quote"],
      checkedBy: ["instant.cards-no-sellback-window"],
    },
    {
      id: "live.sellback.tier",
      heading: "Sell-back",
      sentence: "TIER model.",
      operations: ["sellback.quote", "sellback.prepare", "sellback.submit"],
      checkedBy: ["mystery.sellback-not-tier-partner"],
    },
    {
      id: "live.sellback.eligibility",
      heading: "Sell-back",
      sentence:
        "Only the card's original recipient, only before its buyback window closes; a batch is all-or-nothing on chain.",
      operations: ["sellback.prepare"],
      checkedBy: ["mystery.sellback-preflight-409"],
    },
    {
      id: "live.sellback.quote",
      heading: "Sell-back",
      sentence:
        "`POST /mystery/sellback/quote` (`packs:read`; `wallet_address`, `token_ids` ≤ 50): per-token eligibility and payout; creates nothing.",
      operations: ["sellback.quote"],
      checkedBy: ["commerce.sellback-prepare", "mystery.sellback-batch-limit"],
    },
    {
      id: "live.sellback.quote-errors",
      heading: "Sell-back",
      sentence: "400 `invalid_token_ids` / `too_many_tokens`, 403 `not_tier_partner`.",
      operations: ["sellback.quote"],
      checkedBy: ["mystery.sellback-batch-limit", "mystery.sellback-not-tier-partner"],
    },
    {
      id: "live.sellback.prepare",
      heading: "Sell-back",
      sentence:
        "`POST /mystery/sellback/prepare` (`packs:buyback`; `min_total_usdc?`, `slippage_bps?` default 100): calls `set-approval-for-all` (only when missing) then `sellback` (`acceptCardBuyback`).",
      operations: ["sellback.prepare"],
      checkedBy: ["commerce.sellback-prepare"],
    },
    {
      id: "live.sellback.prepare-errors",
      heading: "Sell-back",
      sentence: "409 `window_expired` / `wrong_holder` / `value_unknown` / `insufficient_liquidity`.",
      operations: ["sellback.prepare"],
      checkedBy: ["mystery.sellback-preflight-409"],
    },
    {
      id: "live.sellback.submit",
      heading: "Sell-back",
      sentence:
        "`POST /mystery/sellback/submit` (`transaction_hash`): the payout is decoded from the on-chain sale log, never from the request; re-submitting is safe.",
      operations: ["sellback.submit"],
      events: ["sellback.confirmed"],
      checkedBy: ["lifecycle.mystery-sellback"],
    },
    {
      id: "live.sellback.submit-errors",
      heading: "Sell-back",
      sentence: "400 `tx_reverted` / `tx_unverified`, 403 `seller_mismatch`.",
      operations: ["sellback.submit"],
      checkedBy: {
        unchecked:
          "a sell-back submit of a reverted or unknown hash (400 tx_reverted / tx_unverified) and of another seller's sale (403 seller_mismatch)",
      },
    },
    {
      id: "live.sellback.list",
      heading: "Sell-back",
      sentence: "`GET /mystery/sellbacks` lists them.",
      operations: ["sellback.list"],
      checkedBy: ["lifecycle.mystery-sellback"],
    },
    {
      id: "live.buyback.pool",
      heading: "Buyback offers and the pool wallet",
      sentence: "POOL model.",
      operations: ["buyback.create", "buyback.createForPurchase"],
      checkedBy: ["mystery.buyback-not-pool-partner"],
    },
    {
      id: "live.buyback.offers",
      heading: "Buyback offers and the pool wallet",
      sentence:
        "Offers: `POST /mystery/buyback` (201; `token_id`, `item_type?`, `offer_price_usdc?` which may only lower), or the older `POST /mystery/buyback/:purchase_id`: a service-signed marketplace offer, by default 85% of value; idempotent per (partner, token).",
      operations: ["buyback.create", "buyback.createForPurchase"],
      checkedBy: ["lifecycle.mystery-relayed-accept", "lifecycle.mystery-buyback-forwarded"],
    },
    {
      id: "live.buyback.list",
      heading: "Buyback offers and the pool wallet",
      sentence: "`GET /mystery/buyback?token_id=` lists them.",
      operations: ["buyback.offers"],
      checkedBy: ["lifecycle.mystery-relayed-accept"],
    },
    {
      id: "live.buyback.accept-prepare",
      heading: "Buyback offers and the pool wallet",
      sentence:
        "Relayed accept: `POST /mystery/buyback/{token}/accept/prepare` (`packs:read`) returns the offer, the live owner as `receiver`, the NFT approval still owed, a self-submit call, and EIP-712 `typed_data` whose primary type is `OfferRequest` (404 `no_active_offer`).",
      operations: ["buyback.acceptPrepare"],
      checkedBy: ["mystery.buyback-accept-prepare-no-offer", "lifecycle.mystery-relayed-accept"],
    },
    {
      id: "live.buyback.accept",
      heading: "Buyback offers and the pool wallet",
      sentence:
        "The holder signs it and sends `POST /mystery/buyback/{token}/accept` with `receiver_signature` (`packs:buyback`); the service relays `acceptOffer` and pays the gas.",
      operations: ["buyback.accept"],
      events: ["buyback.confirmed"],
      checkedBy: ["lifecycle.mystery-relayed-accept", "mystery.buyback-accept-signature"],
    },
    {
      id: "live.buyback.accept-errors",
      heading: "Buyback offers and the pool wallet",
      sentence:
        "400 `invalid_receiver_signature`, 409 `nft_approval_missing` (`details.nft_approval.call`) / `receiver_signature_mismatch` / `accept_simulation_failed`, 503 `relayer_disabled`.",
      operations: ["buyback.accept"],
      checkedBy: ["mystery.buyback-accept-signature"],
    },
    {
      id: "live.pool-wallet.routes",
      heading: "Buyback offers and the pool wallet",
      sentence:
        "Pool wallet: `GET|PUT /mystery/pool-wallet` (`pool:manage`; body `wallet_address` or `address`, checksummed, `chain` default `base`; replacing deactivates the previous one).",
      operations: ["mystery.poolWallet.get", "mystery.poolWallet.set"],
      checkedBy: [
        "mystery.pool-wallet-not-set",
        "mystery.pool-wallet-invalid-address",
        "invariant:wallet.put-then-get",
      ],
    },
    {
      id: "live.pool-wallet.errors",
      heading: "Buyback offers and the pool wallet",
      sentence: "404 `pool_wallet_not_set`, 400 `invalid_address`.",
      operations: ["mystery.poolWallet.get", "mystery.poolWallet.set"],
      checkedBy: ["mystery.pool-wallet-not-set", "mystery.pool-wallet-invalid-address"],
    },
    {
      id: "live.buyback.forwarding",
      heading: "Buyback offers and the pool wallet",
      sentence:
        "Forwarding: an accepted NFT is moved to the active pool wallet by a worker (`safeTransferFrom`, about every 60 s) → `buyback.card_transferred`.",
      events: ["buyback.card_transferred"],
      checkedBy: ["lifecycle.mystery-buyback-forwarded"],
    },
    {
      id: "live.buyback.held",
      heading: "Buyback offers and the pool wallet",
      sentence:
        "With no pool wallet: one `buyback.transfer_held`, retried every 15 minutes, terminal after 10 failures (`buyback.transfer_failed`).",
      events: ["buyback.transfer_held", "buyback.transfer_failed"],
      checkedBy: ["lifecycle.mystery-buyback-transfer-failed"],
    },
    {
      id: "live.redemption.flow",
      heading: "Redemption",
      sentence: "The live flow (the SDK's): no KYC, the holder pays shipping on chain.",
      operations: ["redemption.prepare"],
      checkedBy: ["redemption.kyc-if-required", "redemption.shipping-payer"],
    },
    {
      id: "live.redemption.statuses",
      heading: "Redemption",
      sentence:
        "Statuses `PREPARED → BURN_SUBMITTED → IN_FULFILLMENT → COMPLETED`, or `FAILED`, `CANCELLED`, `EXPIRED`.",
      operations: ["redemption.get", "redemption.list"],
      checkedBy: ["lifecycle.mystery-redemption", "redemption.unpaid-burn-not-shipped"],
    },
    {
      id: "live.redemption.target",
      heading: "Redemption",
      sentence: "Target: `purchase_id` or `token_id` (a token alone is a token-first redemption), `item_type?`.",
      operations: ["redemption.quote", "redemption.prepare"],
      checkedBy: ["redemption.ambiguous-token", "redemption.item-type-mismatch"],
    },
    {
      id: "live.redemption.quote",
      heading: "Redemption",
      sentence:
        "Quote (`cards:redeem`): `data.shipping_quote` with `carrier`, `service`, `service_token` (the shipping provider's service level) and `amount_usdc`.",
      operations: ["redemption.quote"],
      checkedBy: ["redemption.carrier-names", "commerce.redemption-prepare"],
    },
    {
      id: "live.redemption.phone",
      heading: "Redemption",
      sentence: "A destination outside the US needs a phone (400 `phone_required`).",
      operations: ["redemption.quote", "redemption.prepare"],
      checkedBy: ["mystery.redemption-phone-required"],
    },
    {
      id: "live.redemption.prepare",
      heading: "Redemption",
      sentence:
        "Prepare (`Idempotency-Key`; `shipping_payer` only `end_user`): a redemption `PREPARED`, the signed shipping payment, `expires_at` (24 h by default), and three calls in order: `burn` (flag the token), `erc20-approve` (USDC to the shipping processor), `shipping-payment` (`payShipping`, which checks the burn flag).",
      operations: ["redemption.prepare"],
      events: ["redemption.prepared"],
      checkedBy: ["redemption.prepare-shipping-payment", "redemption.shipping-payer"],
    },
    {
      id: "live.redemption.signer",
      heading: "Redemption",
      sentence: "503 `shipping_signer_unavailable` when the quote cannot be signed.",
      operations: ["redemption.prepare"],
      checkedBy: ["redemption.shipping-signer-unavailable"],
    },
    {
      id: "live.redemption.submit",
      heading: "Redemption",
      sentence: "Submit (`redemption_id`, `tx_hash`): 202 `BURN_SUBMITTED`.",
      operations: ["redemption.submit"],
      checkedBy: ["lifecycle.mystery-redemption"],
    },
    {
      id: "live.redemption.burn-on-dispatch",
      heading: "Redemption",
      sentence:
        'The item ships once the shipping payment lands on chain; the token burns at dispatch ("burn on dispatch"); the partner is never billed for shipping.',
      operations: ["redemption.get"],
      events: ["redemption.updated"],
      checkedBy: ["redemption.unpaid-burn-not-shipped", "lifecycle.mystery-redemption"],
    },
    {
      id: "live.redemption.get",
      heading: "Redemption",
      sentence:
        "`GET /mystery/redemption/{purchase_id|token_id}` lists `data.redemptions`; `?verify=true` reads the burn state from the chain first.",
      operations: ["redemption.get"],
      checkedBy: ["redemption.verify", "redemption.by-id-equals-listed"],
    },
    {
      id: "live.redemption.list",
      heading: "Redemption",
      sentence: "`GET /mystery/redemptions` (`?status=`; 400 `invalid_status`).",
      operations: ["redemption.list"],
      checkedBy: ["mystery.redemptions-status-filter"],
    },
    {
      id: "live.revenue.tier",
      heading: "Revenue share",
      sentence: "TIER model.",
      operations: ["revenue.terms", "revenue.summary", "revenue.payouts"],
      checkedBy: ["mystery.terms-shape"],
    },
    {
      id: "live.revenue.terms",
      heading: "Revenue share",
      sentence:
        "`GET /mystery/terms`: billing model, plan, the tier and instant share rates (bps and percent), payout schedule and currency, payout wallet, current period.",
      operations: ["revenue.terms"],
      checkedBy: ["mystery.terms-shape"],
    },
    {
      id: "live.revenue.summary",
      heading: "Revenue share",
      sentence:
        "`GET /mystery/revenue?from&to` (`to` exclusive): `by_product.tier` and `by_product.instant`, gross, sell-backs, net, revenue share (floored at 0), payout, retained, fees, each as micros and usdc.",
      operations: ["revenue.summary"],
      checkedBy: ["instant.revenue-counted"],
    },
    {
      id: "live.revenue.payouts",
      heading: "Revenue share",
      sentence:
        "`GET /mystery/payouts`: closed statements newest first, plus `outstanding_usdc`, `accruing` (null on POOL) and `total_owed_usdc`.",
      operations: ["revenue.payouts"],
      checkedBy: ["mystery.payouts-outstanding", "invariant:revenue.total-owed"],
    },
    {
      id: "live.revenue.payout-wallet",
      heading: "Revenue share",
      sentence:
        "`GET|PUT /mystery/payout-wallet` (`payout:manage`): 404 `payout_wallet_not_set`, 400 `invalid_address`.",
      operations: ["revenue.getPayoutWallet", "revenue.setPayoutWallet"],
      checkedBy: ["mystery.payout-wallet", "invariant:wallet.put-then-get"],
    },
    {
      id: "live.revenue.net",
      heading: "Revenue share",
      sentence: "Net = gross − sell-backs − fees.",
      operations: ["revenue.summary", "revenue.payouts"],
      checkedBy: ["invariant:revenue.statement-adds-up"],
    },
    {
      id: "live.revenue.gross",
      heading: "Revenue share",
      sentence:
        "Gross counts packs whose reveal included a raw card, in `SUBMITTED`, `FULFILLED` or `PARTIALLY_FULFILLED`.",
      operations: ["revenue.summary"],
      checkedBy: ["instant.revenue-counted"],
    },
    {
      id: "live.revenue.rates",
      heading: "Revenue share",
      sentence: "Typical rates: 5% of net on combo tiers, 1% of instant gross.",
      operations: ["revenue.terms", "revenue.summary"],
      checkedBy: ["mystery.terms-shape", "instant.revenue-counted"],
    },
    {
      id: "live.revenue.frozen",
      heading: "Revenue share",
      sentence: "A closed period is frozen; a negative one earns 0.",
      operations: ["revenue.payouts"],
      checkedBy: {
        unchecked:
          "a check reading a closed statement before and after sales in a later period (unchanged), and a period with more sell-backs than gross (share 0)",
      },
    },
    {
      id: "live.webhooks.scope",
      heading: "Webhook registry",
      sentence: "Scope `webhooks:manage`.",
      operations: WEBHOOKS,
      checkedBy: ["pipeline.scopes-403"],
    },
    {
      id: "live.webhooks.register",
      heading: "Webhook registry",
      sentence:
        "`POST /webhooks` (201): `url` (public HTTPS; private, loopback and link-local hosts refused), `event_types` (omit for all; one unknown name refuses the whole request with 400 `invalid_event_types`); the answer includes the 64-hex `signing_secret`, shown only here; the 21st is 409 `webhook_limit`.",
      operations: ["webhooks.register"],
      checkedBy: ["webhooks.invalid-event-types", "webhooks.secret-shown-once", "webhooks.limit-20"],
    },
    {
      id: "live.webhooks.routes",
      heading: "Webhook registry",
      sentence:
        "`GET /webhooks` (a plain array, no secrets), `GET /webhooks/{id}` (`data.webhook`), `DELETE /webhooks/{id}` (`{id, deleted: true}`; pending deliveries dropped), `GET /webhooks/deliveries` (newest first, offset paged).",
      operations: ["webhooks.list", "webhooks.get", "webhooks.delete", "webhooks.deliveries"],
      checkedBy: ["webhooks.by-id-equals-listed", "webhooks.deliveries-shape", "invariant:list.newest-first"],
    },
    {
      id: "live.webhooks.delivery-row",
      heading: "Webhook registry",
      sentence:
        "A delivery row: `id`, `webhook_id`, `event_type`, `event_id`, `status` (`PENDING|DELIVERED|FAILED`), `attempts`, `last_status_code`, `last_error`, `next_retry_at`, `delivered_at`, `created_at`.",
      operations: ["webhooks.deliveries"],
      checkedBy: ["webhooks.delivery-log-values"],
    },
    {
      id: "live.webhooks.no-update",
      heading: "Webhook registry",
      sentence: "There is no update route.",
      operations: ["webhooks.update", "webhooks.replace"],
      checkedBy: {
        not_checkable:
          "the live service shows no update route, and the emulator serves one (PATCH/PUT /webhooks/{id}) beyond it; a target with one breaks nothing a client relies on, so the suite holds no target to its absence",
      },
    },
    {
      id: "live.delivery.post",
      heading: "Webhook delivery and signatures",
      sentence:
        'Each delivery is a POST of `{"event": <type>, "id": "<event>:<key>", "data": {…}}` with headers `X-Mystery-Event`, `X-Mystery-Delivery` (the event id; receivers dedupe on it), `X-Mystery-Timestamp` (unix milliseconds) and `X-Mystery-Signature`.',
      events: ["purchase.fulfilled"],
      checkedBy: [
        "webhooks.signed-delivery",
        "commerce.purchase-webhook",
        "invariant:delivery.headers-name-the-body",
        "invariant:delivery.payload-shape",
        "invariant:delivery.retries-same-body",
      ],
    },
    {
      id: "live.delivery.signature",
      heading: "Webhook delivery and signatures",
      sentence:
        "The signature header is `t=<unix ms>,sha256=<64 lowercase hex>`: HMAC-SHA256 keyed with the signing secret's text (not hex-decoded) over `<t>.<raw body>`.",
      events: ["purchase.fulfilled"],
      checkedBy: ["webhooks.signed-delivery", "invariant:delivery.signature-verifies"],
    },
    {
      id: "live.delivery.freshness",
      heading: "Webhook delivery and signatures",
      sentence:
        "Receivers compare in constant time over the exact raw bytes and refuse timestamps more than 5 minutes old or ahead.",
      events: ["purchase.fulfilled"],
      checkedBy: ["webhooks.signature-fresh"],
    },
    {
      id: "live.delivery.at-least-once",
      heading: "Webhook delivery and signatures",
      sentence: "At-least-once: any non-2xx or timeout is retried, up to 6 attempts with exponential backoff.",
      checkedBy: ["webhooks.failing-receiver", "lifecycle.webhook-retries", "invariant:delivery.retries-same-body"],
    },
    {
      id: "live.events.live",
      heading: "Event types",
      sentence:
        "21 live: `deposit.credited`; `purchase.reserved|submitted|fulfilled|refunded|failed`; `instant_purchase.reserved|submitted|fulfilled|refunded|failed`; `buyback.confirmed|transfer_held|card_transferred|transfer_failed`; `redemption.prepared|updated`; `pool.item_pulled`; `sellback.confirmed`; `payout.statement_ready`; `payout.paid`.",
      operations: ["webhooks.register"],
      events: [
        "deposit.credited",
        "purchase.reserved",
        "purchase.submitted",
        "purchase.fulfilled",
        "purchase.refunded",
        "purchase.failed",
        "instant_purchase.reserved",
        "instant_purchase.submitted",
        "instant_purchase.fulfilled",
        "instant_purchase.refunded",
        "instant_purchase.failed",
        "buyback.confirmed",
        "buyback.transfer_held",
        "buyback.card_transferred",
        "buyback.transfer_failed",
        "redemption.prepared",
        "redemption.updated",
        "pool.item_pulled",
        "sellback.confirmed",
        "payout.statement_ready",
        "payout.paid",
      ],
      checkedBy: [
        "webhooks.invalid-event-types",
        "lifecycle.mystery-custodial-lifecycle",
        "lifecycle.instant-custodial",
      ],
    },
    {
      id: "live.events.model-only",
      heading: "Event types",
      sentence: "TIER-only: `sellback.*`, `payout.*`; POOL-only: `buyback.*`, `pool.item_pulled`.",
      events: [
        "sellback.confirmed",
        "payout.statement_ready",
        "payout.paid",
        "buyback.confirmed",
        "buyback.transfer_held",
        "buyback.card_transferred",
        "buyback.transfer_failed",
        "pool.item_pulled",
      ],
      checkedBy: {
        unchecked:
          "a check that a TIER key's webhook never receives buyback.* and a POOL key's never sellback.* or payout.*",
      },
    },
    {
      id: "live.events.catalog-refused",
      heading: "Event types",
      sentence:
        "Catalog events (`card.price_updated`, `card.added`, `card.updated`, `expansion.released`, `sealed.price_updated`, `population.updated`) are announced but refused (400 `invalid_event_types`).",
      operations: ["webhooks.register"],
      checkedBy: ["webhooks.invalid-event-types"],
    },
    {
      id: "live.chain.usdc-decimals",
      heading: "Chain",
      sentence: "USDC has 6 decimals.",
      operations: ["credits.topup"],
      checkedBy: ["x402.challenge-amount", "invariant:money.usdc-twins"],
    },
    {
      id: "live.chain.contracts",
      heading: "Chain",
      sentence:
        "`MysteryComboPool` takes gacha purchases and sell-backs (`acceptCardBuyback`, whose `CardSellExecuted` log is the payout's source of truth); `RipFunStore` sells instant packs (`purchaseInstantOpenFor`); the marketplace takes EIP-712 `OfferRequest` offers (`acceptOffer`, relayed or self-sent); `Card.setApprovalForAll` cannot be relayed; a pending burn freezes transfers.",
      operations: ["sellback.prepare", "instant.prepare", "buyback.accept"],
      checkedBy: ["lifecycle.mystery-sellback", "lifecycle.instant", "lifecycle.mystery-relayed-accept"],
    },
    {
      id: "live.chain.request-id",
      heading: "Chain",
      sentence: "The VRF `requestId` is decoded from the purchase receipt's logs.",
      operations: ["gacha.submit", "instant.submit"],
      checkedBy: ["commerce.purchase-reveal", "instant.submit-idempotent"],
    },
    {
      id: "live.chain.addresses",
      heading: "Chain",
      sentence:
        "Contract addresses come in API answers (`contract`, `payment_token`, `processor`, `buyback_pool`, `card_contract`).",
      operations: ["gacha.prepare", "instant.prepare", "redemption.prepare"],
      checkedBy: ["instant.prepare-calls", "redemption.prepare-shipping-payment"],
    },
    {
      id: "live.flows.non-custodial",
      heading: "Flows",
      sentence:
        "Non-custodial purchase: prepare → the user sends approve (skippable) and purchase → submit the hash (+ `request_id`) → the VRF reveals → poll until `FULFILLED` or take `purchase.fulfilled`.",
      operations: ["gacha.prepare", "gacha.submit", "gacha.getPurchase"],
      events: ["purchase.fulfilled"],
      checkedBy: ["lifecycle.mystery-purchase-wallet"],
    },
    {
      id: "live.flows.custodial",
      heading: "Flows",
      sentence:
        "Custodial purchase: one POST with an `Idempotency-Key`; the price is held (`HOLD`) then settled or released.",
      operations: ["gacha.purchase"],
      checkedBy: ["lifecycle.mystery-custodial-lifecycle", "lifecycle.mystery-custodial-retry"],
    },
    {
      id: "live.flows.redemption",
      heading: "Flows",
      sentence:
        "Redemption: quote → prepare → the holder sends burn, approve, `payShipping` → submit → updates by `redemption.updated`.",
      operations: ["redemption.quote", "redemption.prepare", "redemption.submit"],
      events: ["redemption.updated"],
      checkedBy: ["lifecycle.mystery-redemption"],
    },
    {
      id: "live.flows.buyback",
      heading: "Flows",
      sentence:
        "Buyback (POOL): offer → the holder accepts → `buyback.confirmed` → the NFT is forwarded → `buyback.card_transferred` (or `transfer_held` / `transfer_failed`).",
      operations: ["buyback.create", "buyback.accept"],
      events: ["buyback.confirmed", "buyback.card_transferred"],
      checkedBy: ["lifecycle.mystery-buyback-forwarded", "lifecycle.mystery-relayed-accept"],
    },
    {
      id: "live.flows.sellback",
      heading: "Flows",
      sentence: "Sell-back (TIER): quote → prepare → approval and `acceptCardBuyback` → submit → `sellback.confirmed`.",
      operations: ["sellback.quote", "sellback.prepare", "sellback.submit"],
      events: ["sellback.confirmed"],
      checkedBy: ["lifecycle.mystery-sellback"],
    },
  ],
  skipped: [
    {
      heading: "The live service",
      reason: "intro",
      text: "What the running service does where the interface rules ([api-rules.md](api-rules.md)) are silent: field names, statuses, routes the interface does not show, the webhook signature scheme, paging shapes.",
    },
    {
      heading: "The live service",
      reason: "provenance",
      text: "Gathered from the service's public pages and the official SDK (0.1.2); where those two disagree the SDK, being newer, is followed.",
    },
    {
      heading: "The live service",
      reason: "meta",
      text: 'Code cites a heading, e.g. `docs/reference/live-service.md "Purchases"`.',
    },
    {
      heading: "Rate limits and caching",
      reason: "history",
      text: "(An older page said 120 a minute shared; the SDK's figure is newer.)",
    },
    {
      heading: "Partner error codes",
      reason: "intro",
      text: 'Codes beyond the interface\'s table (api-rules.md "Error codes"):',
    },
    {
      heading: "Mystery commerce",
      reason: "layout",
      text: "Partner routes under `/api/v1/mystery` (the wallet under `/api/v1/wallet`, instant packs under `/api/v1/instant`).",
    },
    {
      heading: "Redemption",
      reason: "history",
      text: "An older documented flow ran KYC in prepare (a `kyc.kyc_url` to visit, status `AWAITING_KYC`, 409 `kyc_required` on submit) and returned a burn-only call.",
    },
    {
      heading: "Event types",
      reason: "pointer",
      text: 'Each event\'s `data`: `docs/reference/sdk-shapes.md "Webhook event data"`.',
    },
  ],
};
