import { COMMERCE, type ReferenceInventory } from "./types.ts";

// The rules of docs/reference/sdk-shapes.md, in the page's order, each quoting its sentence (or table row) as the
// page words it; the statements that are not rules are listed under `skipped` with a one-word reason.

export const SDK_SHAPES_RULES: ReferenceInventory = {
  file: "sdk-shapes.md",
  rules: [
    {
      id: "sdk.requests.headers",
      heading: "Requests",
      sentence:
        "Headers: `accept: application/json`, `x-api-key`, a `user-agent` (`cardos-sdk/0.1.2`, in Node), `idempotency-key` when the call carries one, `content-type: application/json` when a body is sent.",
      operations: "all",
      checkedBy: { not_checkable: "what the SDK sends: a rule of the client, not of the server's answers" },
    },
    {
      id: "sdk.requests.auth",
      heading: "Requests",
      sentence: "No other auth scheme.",
      operations: "all",
      checkedBy: { not_checkable: "a rule of the client: it authenticates with X-API-Key only" },
    },
    {
      id: "sdk.requests.query",
      heading: "Requests",
      sentence: 'Query: `undefined`/`null` skipped, booleans as `"true"`/`"false"`, arrays comma-joined.',
      operations: "all",
      checkedBy: { not_checkable: "how the SDK writes a query: a rule of the client" },
    },
    {
      id: "sdk.requests.bodies",
      heading: "Requests",
      sentence:
        "Bodies are `JSON.stringify`d (undefined keys vanish); every POST sends an object, possibly `{}`; GET and DELETE send none.",
      operations: "all",
      checkedBy: { not_checkable: "how the SDK writes a body: a rule of the client" },
    },
    {
      id: "sdk.requests.path-ids",
      heading: "Requests",
      sentence: "Path ids are URI-encoded.",
      operations: "all",
      checkedBy: { not_checkable: "how the SDK writes a path: a rule of the client" },
    },
    {
      id: "sdk.answers.success",
      heading: "Answers",
      sentence: "Success is a 2xx whose body is not `{success:false}`; 200, 201 and 202 are alike.",
      operations: "all",
      checkedBy: ["wire:envelope", "wire:status"],
    },
    {
      id: "sdk.answers.data",
      heading: "Answers",
      sentence: "Methods return `body.data`, so a success must carry `data`.",
      operations: "all",
      checkedBy: ["pipeline.envelopes", "wire:envelope"],
    },
    {
      id: "sdk.answers.partner-lists",
      heading: "Answers",
      sentence:
        "Partner lists: `data.<key>` rows with `pagination {limit, offset, has_more, next_offset?}` beside `data`.",
      operations: COMMERCE,
      checkedBy: ["wire:paging", "mystery.feed-paging"],
    },
    {
      id: "sdk.answers.card-data",
      heading: "Answers",
      sentence: "Card Data: `data` with `page`, `page_size`, `total_count`, `language` at the top level.",
      operations: ["cards.search", "expansions.search", "expansions.cards", "sealed.search"],
      checkedBy: ["catalog.search-page", "wire:paging"],
    },
    {
      id: "sdk.answers.error-body",
      heading: "Answers",
      sentence: "An error body is `{success:false, error, message?, details?, retryable?}`.",
      operations: "all",
      checkedBy: ["wire:envelope", "pipeline.envelopes"],
    },
    {
      id: "sdk.errors.code",
      heading: "Errors the SDK raises",
      sentence:
        "`code` = `body.error`, else `body.code`, else by status (401 `unauthorized`, 403 `forbidden`, 404 `not_found`, 429 `rate_limited`, 503 `overloaded`, other 5xx `internal_error`).",
      operations: "all",
      checkedBy: {
        not_checkable:
          "how the SDK names an error: a rule of the client (the server's part, an error code in every error body, is sdk.answers.error-body)",
      },
    },
    {
      id: "sdk.errors.kept",
      heading: "Errors the SDK raises",
      sentence: "`details`, `retryable` (default true on 429, 502, 503, 504) and the `x-request-id` header are kept.",
      operations: "all",
      checkedBy: { not_checkable: "what the SDK keeps of an error: a rule of the client" },
    },
    {
      id: "sdk.errors.class",
      heading: "Errors the SDK raises",
      sentence:
        "The exception class follows the status only: 400 validation, 401 authentication, 402 insufficient funds, 403 permission, 404 not found, 409 conflict, 422 unprocessable, 429 rate limit, 503 unavailable, other 5xx server.",
      operations: "all",
      checkedBy: { not_checkable: "the SDK's exception classes: a rule of the client" },
    },
    {
      id: "sdk.errors.headers-read",
      heading: "Errors the SDK raises",
      sentence:
        "The only answer headers read are `retry-after` (seconds or an HTTP date), `x-request-id` and `x-amzn-requestid`; the rate-limit and credit headers are not read.",
      operations: "all",
      checkedBy: { not_checkable: "which headers the SDK reads: a rule of the client" },
    },
    {
      id: "sdk.retries.when",
      heading: "Retries",
      sentence:
        "GET, DELETE and any call with an idempotency key (custodial purchase, redemption prepare) are retried on 429, ≥ 502, network failure or timeout; never on 500, 501 or other 4xx.",
      operations: "all",
      checkedBy: { not_checkable: "when the SDK retries: a rule of the client" },
    },
    {
      id: "sdk.retries.wait",
      heading: "Retries",
      sentence: "The wait is `Retry-After` or a jittered backoff (500 ms doubling, 8 s cap), 2 retries by default.",
      operations: "all",
      checkedBy: { not_checkable: "how long the SDK waits: a rule of the client" },
    },
    {
      id: "sdk.retries.replay",
      heading: "Retries",
      sentence: "The same idempotency key is resent, so a replay must return the original answer.",
      operations: ["gacha.purchase", "redemption.prepare"],
      checkedBy: ["lifecycle.mystery-custodial-retry", "commerce.redemption-prepare"],
    },
    {
      id: "sdk.header-only-idempotency",
      heading: "Idempotency keys",
      sentence:
        "Custodial purchase and redemption prepare always send `Idempotency-Key` (the caller's or a UUID v4), in the header only, never the body.",
      operations: ["gacha.purchase", "redemption.prepare"],
      checkedBy: { not_checkable: "a rule of the client, not of the server's answers" },
    },
    {
      id: "sdk.idempotency.replay",
      heading: "Idempotency keys",
      sentence:
        "A replayed key returns the original 202; a key reused for another (user, tier) is 409 `idempotency_mismatch`; a second live redemption of a token is 409 `redemption_exists`.",
      operations: ["gacha.purchase", "redemption.prepare"],
      checkedBy: ["lifecycle.mystery-custodial-retry"],
    },
    {
      id: "sdk.paging.no-cursors",
      heading: "Pagination as the SDK reads it",
      sentence: "No cursors.",
      operations: COMMERCE,
      checkedBy: { not_checkable: "how the SDK pages: a rule of the client (the server's part is sdk.paging.offset)" },
    },
    {
      id: "sdk.paging.offset",
      heading: "Pagination as the SDK reads it",
      sentence:
        "Offset pages read `pagination.has_more` and ask next for `next_offset ?? offset + limit` (rows from `data[<key>]`, or `data` itself when it is an array; no `pagination` = one page).",
      operations: COMMERCE,
      checkedBy: ["wire:paging", "mystery.feed-paging"],
    },
    {
      id: "sdk.paging.numbered",
      heading: "Pagination as the SDK reads it",
      sentence: "Numbered pages (Card Data) continue while `page × page_size < total_count` and the page was full.",
      operations: ["cards.search", "expansions.search", "expansions.cards", "sealed.search"],
      checkedBy: ["catalog.paging-walk"],
    },
    {
      id: "sdk.paging.printings",
      heading: "Pagination as the SDK reads it",
      sentence: "The printings page is terminal (at most 50).",
      operations: ["cards.printings"],
      checkedBy: ["catalog.printings"],
    },
    {
      id: "sdk.polling.loop",
      heading: "Polling",
      sentence:
        "Fetch, stop on a done state, throw `TerminalStateError` on a failure state, else sleep (1.5 s, growing ×1.5 to 5 s) until the timeout.",
      operations: ["gacha.getPurchase", "instant.getPurchase", "redemption.get"],
      checkedBy: { not_checkable: "how the SDK polls: a rule of the client" },
    },
    {
      id: "sdk.polling.readable-at-once",
      heading: "Polling",
      sentence: "A fetch error (e.g. 404) is thrown at once, so a resource must be readable as soon as it is created.",
      operations: ["gacha.getPurchase", "instant.getPurchase", "redemption.get"],
      checkedBy: ["lifecycle.mystery-custodial-lifecycle", "commerce.instant-delivery"],
    },
    {
      id: "sdk.polling.reveal",
      heading: "Polling",
      sentence:
        "| `gacha.waitForReveal(id)` | `GET /mystery/purchase/{id}` | `FULFILLED`, `PARTIALLY_FULFILLED` | `FAILED`, `REFUNDED` | 120 s |",
      operations: ["gacha.getPurchase"],
      checkedBy: ["lifecycle.mystery-custodial-lifecycle"],
    },
    {
      id: "sdk.polling.delivery",
      heading: "Polling",
      sentence:
        "| `instant.waitForDelivery(id)` | `GET /instant/purchase/{id}` | `FULFILLED` | `FAILED`, `REFUNDED` | 180 s |",
      operations: ["instant.getPurchase"],
      checkedBy: ["commerce.instant-delivery", "lifecycle.instant"],
    },
    {
      id: "sdk.polling.completion",
      heading: "Polling",
      sentence:
        "| `redemption.waitForCompletion(t)` | `GET /mystery/redemption/{token_id}` | `COMPLETED` | `FAILED`, `CANCELLED`, `EXPIRED` | 600 s |",
      operations: ["redemption.get"],
      checkedBy: ["lifecycle.mystery-redemption"],
    },
    {
      id: "sdk.polling.row",
      heading: "Polling",
      sentence:
        "`waitForCompletion` takes the row of `data.redemptions` whose `redemption_id` matches the prepare result, else row 0.",
      operations: ["redemption.get"],
      checkedBy: { not_checkable: "which row the SDK picks: a rule of the client" },
    },
    {
      id: "sdk.gacha.catalog",
      heading: "Mystery pack methods",
      sentence: "| `catalog` / `games` | GET `/mystery/catalog` | `data.tiers`, `data.games` | 403 |",
      operations: ["gacha.catalog"],
      checkedBy: ["mystery.catalog-tiers"],
    },
    {
      id: "sdk.gacha.odds",
      heading: "Mystery pack methods",
      sentence:
        "| `odds` | GET `/mystery/catalog/{tier_id}/odds` | `data` (`scope` onchain or inventory_fallback) | 400 `invalid_tier` |",
      operations: ["gacha.odds"],
      checkedBy: ["mystery.odds-scope"],
    },
    {
      id: "sdk.gacha.feeds",
      heading: "Mystery pack methods",
      sentence: "| `feed.recent` / `winners` / `mine` | GET `/mystery/feed/…` | `data.items` paged | |",
      operations: ["gacha.feed.recent", "gacha.feed.winners"],
      checkedBy: ["mystery.feed-paging"],
    },
    {
      id: "sdk.gacha.purchase",
      heading: "Mystery pack methods",
      sentence:
        "| `purchase` | POST `/mystery/purchase` → 202 | `Purchase`, `RESERVED`, `CUSTODIAL` | 400 `missing_idempotency_key` / `invalid_tier` / `unsupported_quantity`; 402 `insufficient_funds`; 409 `idempotency_mismatch`; 503 `relayer_disabled` |",
      operations: ["gacha.purchase"],
      checkedBy: [
        "purchases.custodial-reserved",
        "mystery.custodial-idempotency-key",
        "mystery.invalid-tier",
        "purchases.relayer-disabled",
        "mystery.custodial-quantity",
        "purchases.insufficient-funds",
      ],
    },
    {
      id: "sdk.gacha.get-purchase",
      heading: "Mystery pack methods",
      sentence:
        "| `getPurchase` | GET `/mystery/purchase/{id}` | `Purchase` (`items` once revealed) | 404 `not_found` |",
      operations: ["gacha.getPurchase"],
      checkedBy: ["mystery.purchase-not-found", "redemption.by-id-equals-listed"],
    },
    {
      id: "sdk.gacha.list-purchases",
      heading: "Mystery pack methods",
      sentence: "| `listPurchases` | GET `/mystery/purchases` | `data.purchases` paged | 400 `invalid_status` |",
      operations: ["gacha.listPurchases"],
      checkedBy: ["purchases.status-filters"],
    },
    {
      id: "sdk.gacha.collection",
      heading: "Mystery pack methods",
      sentence:
        "| `collection` | GET `/mystery/collection` | `data.user`, `data.items` paged | 400 `missing_user_identifier` / `invalid_wallet_address` |",
      operations: ["gacha.collection"],
      checkedBy: ["mystery.collection-identity"],
    },
    {
      id: "sdk.gacha.prepare-submit",
      heading: "Mystery pack methods",
      sentence:
        "| `prepare` / `submit` | POST `/mystery/purchase/prepare`, `/submit` → 202 | prepare result / `Purchase` | 400 `invalid_tier`, bad transaction |",
      operations: ["gacha.prepare", "gacha.submit"],
      checkedBy: ["commerce.purchase-reveal"],
    },
    {
      id: "sdk.gacha.price",
      heading: "Mystery pack methods",
      sentence:
        "| `price` | GET `/mystery/price` | `PriceQuote` | 400 `invalid_price_query`; 404 `not_found` / `value_unknown` |",
      operations: ["gacha.price"],
      checkedBy: ["mystery.price-query", "mystery.price-85"],
    },
    {
      id: "sdk.instant.catalog",
      heading: "Instant pack methods",
      sentence:
        "| `catalog` | GET `/instant/catalog` (`include_unavailable=1` only when true) | `data.packs` paged | |",
      operations: ["instant.catalog"],
      checkedBy: ["instant.catalog-availability"],
    },
    {
      id: "sdk.instant.prepare",
      heading: "Instant pack methods",
      sentence:
        "| `prepare` | POST `/instant/purchase/prepare` | `InstantPrepareResult` | 400 `invalid_packet_type` / `invalid_wallet_address`; 409 `sold_out` / `max_price_exceeded`; 503 `instant_disabled` |",
      operations: ["instant.prepare"],
      checkedBy: ["instant.prepare-calls", "instant.sold-out", "instant.max-price", "instant.disabled"],
    },
    {
      id: "sdk.instant.submit",
      heading: "Instant pack methods",
      sentence:
        "| `submit` | POST `/instant/purchase/submit` → 202 | `InstantPurchase`, `SUBMITTED` | 400 `missing_tx_hash` / `tx_unverified` / `tx_reverted` / `packet_type_mismatch` / `purchaser_mismatch`; 409 `tx_already_recorded` |",
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
      id: "sdk.instant.get-purchase",
      heading: "Instant pack methods",
      sentence:
        "| `getPurchase` | GET `/instant/purchase/{id}` | `InstantPurchase` (`pack`, `cards` once `FULFILLED`) | 404 `not_found` |",
      operations: ["instant.getPurchase"],
      checkedBy: ["instant.get-not-found", "commerce.instant-delivery"],
    },
    {
      id: "sdk.instant.list-purchases",
      heading: "Instant pack methods",
      sentence: "| `listPurchases` | GET `/instant/purchases` | `data.purchases` paged | 400 `invalid_status` |",
      operations: ["instant.listPurchases"],
      checkedBy: ["instant.list-invalid-status"],
    },
    {
      id: "sdk.instant.no-custodial-method",
      heading: "Instant pack methods",
      sentence: "There is no custodial instant purchase method.",
      checkedBy: { not_checkable: "a fact of the SDK's surface, not of the server" },
    },
    {
      id: "sdk.redemption.quote",
      heading: "Redemption methods",
      sentence:
        "| `quote` | POST `/mystery/redemption/quote` | `data.shipping_quote` | 400 `purchase_or_token_required` / `missing_shipping_address` / `invalid_address` / `phone_required`; 404 `token_not_found` / `not_found`; 409 `not_fulfilled` / `ambiguous_token` / `item_type_mismatch` / `no_holder` |",
      operations: ["redemption.quote"],
      checkedBy: ["mystery.redemption-phone-required", "redemption.ambiguous-token", "redemption.item-type-mismatch"],
    },
    {
      id: "sdk.redemption.prepare",
      heading: "Redemption methods",
      sentence:
        "| `prepare` | POST `/mystery/redemption/prepare` (Idempotency-Key) | `RedemptionPrepareResult` | as quote, plus 400 `invalid_shipping_payer`; 409 `redemption_exists` / `not_burnable` / `not_owner` / `invalid_token_id`; 503 `shipping_signer_unavailable` |",
      operations: ["redemption.prepare"],
      checkedBy: ["commerce.redemption-prepare", "redemption.shipping-payer", "redemption.shipping-signer-unavailable"],
    },
    {
      id: "sdk.redemption.submit",
      heading: "Redemption methods",
      sentence:
        "| `submit` | POST `/mystery/redemption/submit` → 202 | `RedemptionSubmitResult` | 400 `invalid_tx_hash`; 404 `not_found`; 409 `invalid_status` |",
      operations: ["redemption.submit"],
      checkedBy: ["lifecycle.mystery-redemption"],
    },
    {
      id: "sdk.redemption.get",
      heading: "Redemption methods",
      sentence:
        "| `get` | GET `/mystery/redemption/{purchase_id or token_id}` (`verify`) | `data.redemptions` | 404 `not_found` |",
      operations: ["redemption.get"],
      checkedBy: ["redemption.verify", "redemption.by-id-equals-listed"],
    },
    {
      id: "sdk.redemption.list",
      heading: "Redemption methods",
      sentence: "| `list` | GET `/mystery/redemptions` (`status`) | `data.redemptions` paged | 400 `invalid_status` |",
      operations: ["redemption.list"],
      checkedBy: ["mystery.redemptions-status-filter"],
    },
    {
      id: "sdk.instant-shapes.status",
      heading: "Instant shapes",
      sentence:
        "`InstantPurchaseStatus`: `PENDING`, `RESERVED`, `SUBMITTING`, `SUBMITTED`, `FULFILLED`, `REFUNDED`, `FAILED` (no partial fulfilment).",
      operations: ["instant.getPurchase", "instant.listPurchases"],
      checkedBy: ["instant.list-invalid-status"],
    },
    {
      id: "sdk.instant-shapes.custody",
      heading: "Instant shapes",
      sentence:
        "`InstantCustody`: `CUSTODIAL`, `NON_CUSTODIAL`; the SDK has no call that makes a custodial one, though the values exist.",
      operations: ["instant.getPurchase"],
      checkedBy: ["lifecycle.instant-custodial", "wire:schema"],
    },
    {
      id: "sdk.instant-shapes.catalog-item",
      heading: "Instant shapes",
      sentence:
        '`InstantCatalogItem`: `packet_type_id` int, `set_id`, `set_name`, `product_id`, `name`, `image_url|null`, `large_image_url|null`, `price` micros (live), `price_usdc`, `available_packs` int (0 → 409 `sold_out`), `tcg_type` (`"pokemon"`), `language` (`"ENGLISH"`).',
      operations: ["instant.catalog"],
      checkedBy: ["instant.catalog-availability", "instant.sold-out", "wire:schema"],
    },
    {
      id: "sdk.instant-shapes.purchase",
      heading: "Instant shapes",
      sentence:
        "`InstantPurchase`: `id` int, `memo?`, `status`, `custody`, `packet_type_id`, `set_id|null`, `product_id|null`, `quantity`, `price` micros, `price_usdc`, `onchain_request_id|null`, `transaction_hash|null`, `purchaser_address|null`, `recipient_address|null`, `failure_reason|null`, `reserved_at|null`, `submitted_at|null`, `fulfilled_at|null`, `created_at`, and once `FULFILLED` `pack?` (`unique_id`, `set_id`, `name`, `image_url|null`, `opened_at|null`) and `cards?` (`token_id`, then `unique_id`, `card_id`, `name`, `card_number`, `rarity`, `is_chase`, `small_image_url`, `large_image_url`, `front_image_url`, `value_usd`, `set_id`, each null until indexed).",
      operations: ["instant.submit", "instant.getPurchase", "instant.listPurchases"],
      checkedBy: ["commerce.instant-delivery", "wire:schema"],
    },
    {
      id: "sdk.instant-shapes.unsigned-call",
      heading: "Instant shapes",
      sentence:
        "`InstantUnsignedCall`: `to`, `data`, `description`, and **no** `kind`: position decides, index 0 the USDC approve (to `payment_token`), index 1 `purchaseInstantOpenFor` (to `contract`).",
      operations: ["instant.prepare"],
      checkedBy: ["instant.prepare-calls"],
    },
    {
      id: "sdk.instant-shapes.prepare-result",
      heading: "Instant shapes",
      sentence:
        "`InstantPrepareResult`: `chain_id`, `payment_token`, `contract`, `packet_type_id`, `price`, `price_usdc`, `calls` (the two calls).",
      operations: ["instant.prepare"],
      checkedBy: ["instant.prepare-calls"],
    },
    {
      id: "sdk.instant-shapes.prepare-params",
      heading: "Instant shapes",
      sentence:
        "`InstantPrepareParams`: `packet_type_id`, `wallet_address` (signs, pays, receives), `max_price_usdc?` (a ceiling: 409 `max_price_exceeded`).",
      operations: ["instant.prepare"],
      checkedBy: ["instant.max-price"],
    },
    {
      id: "sdk.instant-shapes.submit-params",
      heading: "Instant shapes",
      sentence:
        "`InstantSubmitParams`: `packet_type_id` (checked against the receipt), `transaction_hash`, `request_id?` (correlation only), `external_user_id?`, `wallet_address?`.",
      operations: ["instant.submit"],
      checkedBy: ["instant.submit-packet-type-mismatch", "instant.submit-purchaser-mismatch"],
    },
    {
      id: "sdk.instant-shapes.from-receipt",
      heading: "Instant shapes",
      sentence: "The server reads price, request id and recipient from the receipt.",
      operations: ["instant.submit"],
      checkedBy: ["commerce.instant-delivery"],
    },
    {
      id: "sdk.redemption-shapes.status",
      heading: "Redemption shapes",
      sentence:
        "`RedemptionStatus`: `PREPARED`, `BURN_SUBMITTED`, `IN_FULFILLMENT`, `COMPLETED`, `FAILED`, `CANCELLED`, `EXPIRED`; no KYC status.",
      operations: ["redemption.get", "redemption.list"],
      checkedBy: ["lifecycle.mystery-redemption", "wire:schema"],
    },
    {
      id: "sdk.redemption-shapes.item-type",
      heading: "Redemption shapes",
      sentence: "`RedemptionItemType`: `CARD`, `GRADED_CARD`, `PACKET`, `SEALED_PRODUCT`.",
      operations: ["redemption.get", "redemption.prepare"],
      checkedBy: ["wire:schema"],
    },
    {
      id: "sdk.redemption-shapes.payer",
      heading: "Redemption shapes",
      sentence: "`RedemptionShippingPayer`: only `end_user` (else 400 `invalid_shipping_payer`).",
      operations: ["redemption.prepare"],
      checkedBy: ["redemption.shipping-payer"],
    },
    {
      id: "sdk.redemption-shapes.target",
      heading: "Redemption shapes",
      sentence:
        "`RedemptionTarget`: `purchase_id?` int, `token_id?` (one of the two required; a token alone is token-first), `item_type?` (only to tell a token number's kinds apart).",
      operations: ["redemption.quote", "redemption.prepare"],
      checkedBy: ["redemption.ambiguous-token", "redemption.item-type-mismatch"],
    },
    {
      id: "sdk.redemption-shapes.address",
      heading: "Redemption shapes",
      sentence:
        "Shipping address: `name`, `street1`, `street2?`, `city`, `state?`, `zip`, `country` (ISO), `phone?` (needed outside the US), `email?`.",
      operations: ["redemption.quote", "redemption.prepare"],
      checkedBy: ["mystery.redemption-phone-required"],
    },
    {
      id: "sdk.redemption-shapes.quote",
      heading: "Redemption shapes",
      sentence:
        '`RedemptionShippingQuote`: `amount_usdc`, `currency` (`"USD"`), `carrier|null`, `service|null`, `service_token|null` (the provider\'s service level), `estimated_days|null`, `rate_id|null`, `quoted_at`.',
      operations: ["redemption.quote"],
      checkedBy: ["redemption.carrier-names", "wire:schema"],
    },
    {
      id: "sdk.redemption-shapes.cheapest",
      heading: "Redemption shapes",
      sentence: "The cheapest live rate; prepare snapshots it.",
      operations: ["redemption.quote", "redemption.prepare"],
      checkedBy: ["redemption.prepare-shipping-payment"],
    },
    {
      id: "sdk.redemption-shapes.payment",
      heading: "Redemption shapes",
      sentence:
        "`RedemptionShippingPayment`: `payer` (the holder), `processor` (the shipping-payment contract), `total_usdc`, `total_micros`, `expiration_time` (unix seconds, matching `expires_at`), `provider_order_id`; it mirrors the signed quote inside the `shipping-payment` call (single use, bound to the payer, fixed amount).",
      operations: ["redemption.prepare"],
      checkedBy: ["redemption.prepare-shipping-payment", "invariant:redemption.payment-in-calldata"],
    },
    {
      id: "sdk.redemption-shapes.call-kinds",
      heading: "Redemption shapes",
      sentence:
        "`RedemptionCallKind`, in order: `burn` (flags the token), `erc20-approve` (USDC to the processor), `shipping-payment` (`payShipping`; checks the burn flag).",
      operations: ["redemption.prepare"],
      checkedBy: ["redemption.prepare-shipping-payment"],
    },
    {
      id: "sdk.redemption-shapes.call",
      heading: "Redemption shapes",
      sentence: "Each call is `{to, data, kind, description}`; `unsigned` is `{chain_id, calls}`.",
      operations: ["redemption.prepare"],
      checkedBy: ["wire:schema"],
    },
    {
      id: "sdk.redemption-shapes.prepare-result",
      heading: "Redemption shapes",
      sentence:
        "`RedemptionPrepareResult`: `redemption_id`, `status` (`PREPARED`), `item_type`, `token_id`, `shipping_quote|null`, `shipping_payer`, `shipping_payment|null` (null once paid), `expires_at|null` (24 h after prepare by default), `unsigned|null` (null past `PREPARED`).",
      operations: ["redemption.prepare"],
      checkedBy: ["redemption.prepare-shipping-payment", "wire:schema"],
    },
    {
      id: "sdk.redemption-shapes.key-scope",
      heading: "Redemption shapes",
      sentence: "Scope of a key: partner + key; one live redemption per token; after `EXPIRED` a new key starts over.",
      operations: ["redemption.prepare"],
      checkedBy: ["commerce.redemption-prepare"],
    },
    {
      id: "sdk.redemption-shapes.submit-result",
      heading: "Redemption shapes",
      sentence:
        "`RedemptionSubmitResult` (202): `redemption_id`, `status` (`BURN_SUBMITTED`), `burn_tx_hash`, and only when a label was bought during submit `tracking_number?`, `tracking_url?`, `label_url?`, `carrier?`, `service?`.",
      operations: ["redemption.submit"],
      checkedBy: ["lifecycle.mystery-redemption", "wire:schema"],
    },
    {
      id: "sdk.redemption-shapes.resubmit",
      heading: "Redemption shapes",
      sentence: "Re-submitting the same hash is fine.",
      operations: ["redemption.submit"],
      checkedBy: ["lifecycle.mystery-redemption", "lifecycle.mystery-redemption-kyc"],
    },
    {
      id: "sdk.redemption-shapes.row",
      heading: "Redemption shapes",
      sentence:
        "`Redemption` (a row of get and list): `redemption_id`, `purchase_id|null`, `token_id`, `item_type`, `status`, `burn {db_status, is_burned (true at dispatch), burn_type, burn_type_label}`, `queue {status}`, `order {status, tracking_number}`, `burn_tx_hash|null`, `shipping_quote|null`, `failure_reason|null`, `expires_at|null`, `created_at`, `updated_at`.",
      operations: ["redemption.get", "redemption.list"],
      checkedBy: ["wire:schema", "redemption.by-id-equals-listed"],
    },
    {
      id: "sdk.redemption-shapes.row-no-prepare-keys",
      heading: "Redemption shapes",
      sentence:
        "The row has none of the prepare-only keys (`shipping_payment`, `shipping_payer`, `unsigned`) and no `kyc`.",
      operations: ["redemption.get", "redemption.list"],
      checkedBy: ["lifecycle.mystery-redemption", "lifecycle.mystery-redemption-kyc"],
    },
    {
      id: "sdk.purchase-shapes.status",
      heading: "Purchase shapes",
      sentence:
        "`PurchaseStatus`: `PENDING`, `RESERVED`, `SUBMITTING`, `SUBMITTED`, `FULFILLED`, `PARTIALLY_FULFILLED`, `REFUNDED`, `FAILED`.",
      operations: ["gacha.getPurchase", "gacha.listPurchases"],
      checkedBy: ["purchases.status-filters"],
    },
    {
      id: "sdk.purchase-shapes.status-meaning",
      heading: "Purchase shapes",
      sentence:
        "`PENDING` and `SUBMITTING` are brief; a custodial purchase is answered `RESERVED`; good ends `FULFILLED`, `PARTIALLY_FULFILLED`; bad ends `REFUNDED`, `FAILED`.",
      operations: ["gacha.purchase", "gacha.getPurchase"],
      checkedBy: [
        "purchases.custodial-reserved",
        "invariant:purchase.status-forward",
        "lifecycle.mystery-relayer-paused",
      ],
    },
    {
      id: "sdk.purchase-shapes.custody",
      heading: "Purchase shapes",
      sentence: "`PurchaseCustody`: `CUSTODIAL`, `NON_CUSTODIAL`.",
      operations: ["gacha.getPurchase"],
      checkedBy: ["wire:schema"],
    },
    {
      id: "sdk.purchase-shapes.purchase",
      heading: "Purchase shapes",
      sentence:
        "`Purchase`: `id`, `memo?`, `status`, `custody`, `tier_id`, `quantity` (1), `price` micros, `price_usdc`, `volume_usdc` (= `price_usdc`), `onchain_request_id|null`, `transaction_hash|null`, `purchaser_address|null`, `failure_reason|null`, `reserved_at|null`, `submitted_at|null`, `fulfilled_at|null`, `created_at`, `items?` once revealed.",
      operations: ["gacha.purchase", "gacha.submit", "gacha.getPurchase", "gacha.listPurchases"],
      checkedBy: ["wire:schema", "redemption.by-id-equals-listed"],
    },
    {
      id: "sdk.purchase-shapes.reveal-item",
      heading: "Purchase shapes",
      sentence:
        "A reveal item: `token_id`, `item_type` (`CARD`, `GRADED_CARD`, `PACKET`, `SEALED_PRODUCT`), `category` (`card`, `product`, `unknown`), `card_id?`, `name|null`, `image_url|null`, `value_usd|null` (USD decimal string), `rarity?`, `card_number?`, `set_id?`.",
      operations: ["gacha.getPurchase"],
      checkedBy: ["commerce.purchase-reveal", "wire:schema"],
    },
    {
      id: "sdk.purchase-shapes.custodial-request",
      heading: "Purchase shapes",
      sentence: "Custodial request: `tier_id`, `max_price_usdc?`, identity; the key only in the header; no `quantity`.",
      operations: ["gacha.purchase"],
      checkedBy: ["purchases.custodial-reserved"],
    },
    {
      id: "sdk.purchase-shapes.prepare",
      heading: "Purchase shapes",
      sentence:
        "Prepare body: `wallet_address`, `tier_id`, `max_price_usdc?`; answer `chain_id`, `calls` (`erc20-approve`, `purchase`; each `{to, data, kind, description}`), `payment_token`, `contract`, `max_price` micros, `max_price_usdc`.",
      operations: ["gacha.prepare"],
      checkedBy: ["commerce.purchase-reveal", "wire:schema"],
    },
    {
      id: "sdk.purchase-shapes.submit",
      heading: "Purchase shapes",
      sentence: "Submit body: `tier_id`, `transaction_hash`, `request_id?`, identity.",
      operations: ["gacha.submit"],
      checkedBy: ["commerce.purchase-reveal"],
    },
    {
      id: "sdk.purchase-shapes.call-kinds",
      heading: "Purchase shapes",
      sentence:
        "Call kinds in the whole API: `erc20-approve`, `purchase`, `set-approval-for-all`, `sellback`, `burn`, `shipping-payment`.",
      operations: ["gacha.prepare", "sellback.prepare", "redemption.prepare"],
      checkedBy: ["wire:schema"],
    },
    {
      id: "sdk.purchase-shapes.tier",
      heading: "Purchase shapes",
      sentence:
        "`Tier`: `tier_id`, `name`, `slug`, `description`, `variant`, `game {id, label}|null`, `price_usdc|null` (null = unavailable, not free), `price_display`, `price_micros`, `target_ev_usdc`, `slot_count`, `active`, `total_purchases` (0 if none), `last_active_at`.",
      operations: ["gacha.catalog"],
      checkedBy: ["mystery.catalog-tiers", "wire:schema"],
    },
    {
      id: "sdk.events.body",
      heading: "Webhook event data",
      sentence: "A delivery body is `{event, id, data}` (`id` = `X-Mystery-Delivery`).",
      events: ["purchase.fulfilled"],
      checkedBy: [
        "webhooks.signed-delivery",
        "invariant:delivery.headers-name-the-body",
        "invariant:delivery.payload-shape",
      ],
    },
    {
      id: "sdk.events.deposit-credited",
      heading: "Webhook event data",
      sentence:
        "| `deposit.credited` | `deposit_id`, `amount` micros, `amount_usdc`, `chain_in`, `token_in`, `tx_hash` |",
      operations: ["wallet.depositAddress"],
      events: ["deposit.credited"],
      checkedBy: ["webhooks.deposit-credited-event"],
    },
    {
      id: "sdk.events.purchase-reserved",
      heading: "Webhook event data",
      sentence: '| `purchase.reserved` | `purchase_id`, `status: "RESERVED"` |',
      operations: ["gacha.purchase"],
      events: ["purchase.reserved"],
      checkedBy: ["lifecycle.mystery-custodial-lifecycle"],
    },
    {
      id: "sdk.events.purchase-submitted",
      heading: "Webhook event data",
      sentence:
        '| `purchase.submitted` | `purchase_id`, `status: "SUBMITTED"`, `transaction_hash?`, `onchain_request_id?` (custodial), `custody?: "NON_CUSTODIAL"` (non-custodial submit) |',
      operations: ["gacha.purchase", "gacha.submit"],
      events: ["purchase.submitted"],
      checkedBy: ["lifecycle.mystery-custodial-lifecycle"],
    },
    {
      id: "sdk.events.purchase-fulfilled",
      heading: "Webhook event data",
      sentence:
        '| `purchase.fulfilled` | `purchase_id`, `status: "FULFILLED"`, `onchain_request_id?`, `items?` (the reveal items, best effort: left out when hydration fails) |',
      operations: ["gacha.getPurchase"],
      events: ["purchase.fulfilled"],
      checkedBy: ["commerce.purchase-webhook", "lifecycle.mystery-custodial-lifecycle"],
    },
    {
      id: "sdk.events.purchase-refunded",
      heading: "Webhook event data",
      sentence: '| `purchase.refunded` | `purchase_id`, `status: "REFUNDED"`, `onchain_request_id?` |',
      operations: ["gacha.purchase"],
      events: ["purchase.refunded"],
      checkedBy: ["webhooks.purchase-refunded-event"],
    },
    {
      id: "sdk.events.purchase-failed",
      heading: "Webhook event data",
      sentence: '| `purchase.failed` | `purchase_id`, `status: "FAILED"`, `reason` (`"unknown"` if none) |',
      operations: ["gacha.purchase"],
      events: ["purchase.failed"],
      checkedBy: {
        unchecked:
          "an emulator-only check failing a purchase before broadcast, expecting purchase.failed with a reason",
      },
    },
    {
      id: "sdk.events.instant-reserved-refunded",
      heading: "Webhook event data",
      sentence: "| `instant_purchase.reserved` / `.refunded` | `purchase_id`, `status` |",
      operations: ["instant.getPurchase"],
      events: ["instant_purchase.reserved", "instant_purchase.refunded"],
      checkedBy: ["lifecycle.instant-custodial"],
    },
    {
      id: "sdk.events.instant-submitted",
      heading: "Webhook event data",
      sentence:
        '| `instant_purchase.submitted` | `purchase_id`, `status: "SUBMITTED"`, `transaction_hash?`, `store_request_id?`, `pool_request_id?`, `custody?` |',
      operations: ["instant.submit"],
      events: ["instant_purchase.submitted"],
      checkedBy: ["lifecycle.instant-custodial"],
    },
    {
      id: "sdk.events.instant-fulfilled",
      heading: "Webhook event data",
      sentence:
        "| `instant_purchase.fulfilled` | the whole `InstantPurchase` (with `pack`, `cards`) plus `purchase_id` |",
      operations: ["instant.getPurchase"],
      events: ["instant_purchase.fulfilled"],
      checkedBy: ["lifecycle.instant-custodial"],
    },
    {
      id: "sdk.events.instant-failed",
      heading: "Webhook event data",
      sentence: '| `instant_purchase.failed` | `purchase_id`, `status: "FAILED"`, `reason` |',
      operations: ["instant.getPurchase"],
      events: ["instant_purchase.failed"],
      checkedBy: ["webhooks.instant-failed-event"],
    },
    {
      id: "sdk.events.buyback-confirmed",
      heading: "Webhook event data",
      sentence: '| `buyback.confirmed` | B, `status: "accepted"`, `seller_receives_usdc` |',
      operations: ["buyback.accept"],
      events: ["buyback.confirmed"],
      checkedBy: ["lifecycle.mystery-relayed-accept", "lifecycle.mystery-buyback-transfer-failed"],
    },
    {
      id: "sdk.events.buyback-transfer-held",
      heading: "Webhook event data",
      sentence: "| `buyback.transfer_held` | B, `offer_signature`, `reason`, `message` |",
      events: ["buyback.transfer_held"],
      checkedBy: ["lifecycle.mystery-buyback-transfer-failed"],
    },
    {
      id: "sdk.events.buyback-card-transferred",
      heading: "Webhook event data",
      sentence: "| `buyback.card_transferred` | B, `offer_signature`, `contract_address`, `to_address`, `tx_hash` |",
      events: ["buyback.card_transferred"],
      checkedBy: ["lifecycle.mystery-buyback-forwarded"],
    },
    {
      id: "sdk.events.buyback-transfer-failed",
      heading: "Webhook event data",
      sentence: "| `buyback.transfer_failed` | B, `offer_signature`, `error` |",
      events: ["buyback.transfer_failed"],
      checkedBy: ["lifecycle.mystery-buyback-transfer-failed"],
    },
    {
      id: "sdk.events.redemption-prepared",
      heading: "Webhook event data",
      sentence:
        "| `redemption.prepared` | `redemption_id`, `purchase_id|null`, `token_id`, `item_type`, `status` (sent by prepare itself) |",
      operations: ["redemption.prepare"],
      events: ["redemption.prepared"],
      checkedBy: ["lifecycle.mystery-redemption", "lifecycle.mystery-redemption-kyc"],
    },
    {
      id: "sdk.events.redemption-updated",
      heading: "Webhook event data",
      sentence:
        "| `redemption.updated` | as prepared, plus `burn_tx_hash|null`, `failure_reason|null` (each later change) |",
      operations: ["redemption.submit"],
      events: ["redemption.updated"],
      checkedBy: ["lifecycle.mystery-redemption"],
    },
    {
      id: "sdk.events.pool-item-pulled",
      heading: "Webhook event data",
      sentence:
        "| `pool.item_pulled` | `token_id`, `item_type`, `contract_address`, `card_id|null`, `category|null`, `game|null`, `to`, `transaction_hash|null`, `amount_usdc`, `value_source`, `value_unknown`, `usage_id` |",
      events: ["pool.item_pulled"],
      checkedBy: {
        unchecked:
          "an emulator-only check pulling an item from a POOL partner's pool, expecting pool.item_pulled with these keys",
      },
    },
    {
      id: "sdk.events.sellback-confirmed",
      heading: "Webhook event data",
      sentence: "| `sellback.confirmed` | `sellback_id`, `seller`, `token_ids`, `total_usdc`, `transaction_hash` |",
      operations: ["sellback.submit"],
      events: ["sellback.confirmed"],
      checkedBy: ["lifecycle.mystery-sellback"],
    },
    {
      id: "sdk.events.payout",
      heading: "Webhook event data",
      sentence: '| `payout.statement_ready` / `payout.paid` | the frozen statement (see "Revenue shapes") |',
      operations: ["revenue.payouts"],
      events: ["payout.statement_ready", "payout.paid"],
      checkedBy: ["lifecycle.mystery-revenue-payout"],
    },
    {
      id: "sdk.events.fulfilled-token-null",
      heading: "Webhook event data",
      sentence: "In `purchase.fulfilled` items, `token_id` may be null.",
      events: ["purchase.fulfilled"],
      checkedBy: {
        not_checkable:
          "a permission, not an obligation: token_id may be null, which asks something of the receiver and nothing a delivery can break",
      },
    },
    {
      id: "sdk.events.no-partial-event",
      heading: "Webhook event data",
      sentence: "No event exists for `PARTIALLY_FULFILLED`.",
      checkedBy: ["webhooks.no-partial-event"],
    },
    {
      id: "sdk.buyback-shapes.offer",
      heading: "Buyback shapes",
      sentence:
        "`BuybackOffer`: `offer_signature`, `token_id`, `item_type`, `contract_address`, `requester` (the service's signer), `target` (holder at signing), `chain_id`, `deadline|null`, `price` micros, `price_usdc`, `seller_receives_usdc`, `marketplace_fee_usdc`, `offer_id|null`, `value_usdc?`, `value_source?`, `idempotent?`, `note`.",
      operations: ["buyback.create", "buyback.createForPurchase"],
      checkedBy: ["lifecycle.mystery-relayed-accept", "wire:schema"],
    },
    {
      id: "sdk.buyback-shapes.accept-prepare",
      heading: "Buyback shapes",
      sentence:
        "Accept prepare: `offer_id`, `receiver` (live owner), `deadline|null`, `price_usdc`, `seller_receives_usdc`, `nft_approval {approved, holder_owns_token, call|null}`, `transfer_frozen {frozen, burn_type|null, cancel_call|null}`, `self_submit {call}`, `typed_data`, `note`.",
      operations: ["buyback.acceptPrepare"],
      checkedBy: ["lifecycle.mystery-relayed-accept", "wire:schema"],
    },
    {
      id: "sdk.buyback-shapes.call",
      heading: "Buyback shapes",
      sentence: "A call is `{to, data, value}`.",
      operations: ["buyback.acceptPrepare"],
      checkedBy: ["wire:schema"],
    },
    {
      id: "sdk.buyback-shapes.typed-data",
      heading: "Buyback shapes",
      sentence:
        '`typed_data` (EIP-712, camelCase inside): `domain {name, version, chainId, verifyingContract}`, `types`, `primaryType: "OfferRequest"`, `message {tokenContractAddress, tokenId, price (micros), acceptedCurrency, deadline (unix seconds), requester, chainId, minSellerAmount}`; the uint256 fields travel as decimal strings.',
      operations: ["buyback.acceptPrepare"],
      checkedBy: ["lifecycle.mystery-relayed-accept", "invariant:buyback.signed-terms"],
    },
    {
      id: "sdk.buyback-shapes.accept-result",
      heading: "Buyback shapes",
      sentence:
        'Accept result: `offer_id`, `token_id`, `transaction_hash|null`, `receiver`, `requester`, `price_usdc`, `seller_receives_usdc`, `status: "submitted"`, `note`.',
      operations: ["buyback.accept"],
      checkedBy: ["lifecycle.mystery-relayed-accept", "wire:schema"],
    },
    {
      id: "sdk.revenue-shapes.terms",
      heading: "Revenue shapes",
      sentence:
        'Terms: `billing_model` (`TIER|POOL`), `plan`, `revenue_share_bps`, `revenue_share_pct`, `instant_revenue_share_bps`, `instant_revenue_share_pct`, `payout_schedule` (`QUARTERLY|MONTHLY|CUSTOM`), `payout_currency` (`"USDC"`), `payout_wallet {chain, address}|null`, `current_period {kind, from, to, closes_at}|null`, `note`.',
      operations: ["revenue.terms"],
      checkedBy: ["mystery.terms-shape"],
    },
    {
      id: "sdk.revenue-shapes.by-product",
      heading: "Revenue shapes",
      sentence:
        "By product: `tier` and `instant`, each `packs`, `gross_usdc`, `sellback_usdc`, `net_usdc`, `share_bps`, `share_usdc`; `sellback_count` on the live tier block only; on statements the instant block has no `sellback_usdc`.",
      operations: ["revenue.summary", "revenue.payouts"],
      checkedBy: ["instant.revenue-counted", "invariant:revenue.statement-adds-up"],
    },
    {
      id: "sdk.revenue-shapes.statement",
      heading: "Revenue shapes",
      sentence:
        "A statement (payouts, and `payout.*` events): `payout_id`, `period {kind, from, to}`, `qualifying_packs`, `gross_usdc`, `sellback_count`, `sellback_usdc`, `net_usdc`, `revenue_share_bps`, `revenue_share_pct`, `revenue_share_usdc`, `fees_usdc`, `rip_retained_usdc`, `by_product`, `payout_usdc`, `payout_micros`, `status` (`PENDING|PAID|FAILED|VOID`), `payout_address|null`, `chain|null`, `tx_hash|null`, `paid_at|null`.",
      operations: ["revenue.payouts"],
      events: ["payout.statement_ready", "payout.paid"],
      checkedBy: ["lifecycle.mystery-revenue-payout", "invariant:revenue.statement-adds-up", "wire:schema"],
    },
    {
      id: "sdk.revenue-shapes.payouts",
      heading: "Revenue shapes",
      sentence:
        "Payouts `data`: `payouts` (paged) with `outstanding_usdc`, `accruing` (`since`, `as_of`, counts, `gross_usdc`, `sellback_usdc`, `net_usdc`, `payout_usdc`, `period_closes_at`; null on POOL) and `total_owed_usdc`.",
      operations: ["revenue.payouts"],
      checkedBy: ["mystery.payouts-outstanding", "invariant:revenue.total-owed"],
    },
    {
      id: "sdk.revenue-shapes.payout-wallet",
      heading: "Revenue shapes",
      sentence: 'Payout wallet: `chain` (default `"base"`), `address`, `is_active`, `created_at`.',
      operations: ["revenue.getPayoutWallet", "payoutWallet.get"],
      checkedBy: ["mystery.payout-wallet", "invariant:wallet.put-then-get"],
    },
  ],
  skipped: [
    {
      heading: "The SDK's shapes",
      reason: "intro",
      text: "What the official TypeScript SDK (`@ripdotfun/cardos-sdk` 0.1.2) expects of a server, and the wire shapes it types for the partner API.",
    },
    {
      heading: "The SDK's shapes",
      reason: "intro",
      text: "A server that meets this lets the SDK, and clients written like it, run unchanged.",
    },
    { heading: "The SDK's shapes", reason: "notation", text: "Keys are written as they travel (snake_case)." },
    {
      heading: "The SDK's shapes",
      reason: "precedence",
      text: "Where the interface rules ([api-rules.md](api-rules.md)) say otherwise they win.",
    },
    {
      heading: "The SDK's shapes",
      reason: "meta",
      text: 'Code cites a heading, e.g. `docs/reference/sdk-shapes.md "Purchase shapes"`.',
    },
    {
      heading: "The SDK's shapes",
      reason: "notation",
      text: 'Notation: `usdc` = a 6-decimal string (`"2.500000"`), `micros` = integer micros as a string (`"2500000"`), `iso` = an ISO-8601 string, `X|null` = the key is always sent, the value may be null, `key?` = the key may be missing.',
    },
    {
      heading: "Webhook event data",
      reason: "notation",
      text: "Each event's `data` (B = the buyback keys `purchase_id` int|null, `offer_id` int, `token_id`):",
    },
  ],
};
