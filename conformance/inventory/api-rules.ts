import {
  CATALOG,
  COMMERCE,
  WAREHOUSE,
  WAREHOUSE_CARDS,
  WAREHOUSE_WRITES,
  WEBHOOKS,
  type ReferenceInventory,
} from "./types.ts";

// The rules of docs/reference/api-rules.md, in the page's order, each quoting its sentence (or table row) as the
// page words it; the statements that are not rules are listed under `skipped` with a one-word reason.

export const API_RULES: ReferenceInventory = {
  file: "api-rules.md",
  rules: [
    {
      id: "api.areas.catalog-metered",
      heading: "Areas",
      sentence: "Metered in credits.",
      operations: [...CATALOG, "vision.identify"],
      checkedBy: ["pipeline.credit-headers", "wire:creditHeaders"],
    },
    {
      id: "api.areas.commerce-unmetered",
      heading: "Areas",
      sentence: "Commerce spends no credits; it is billed on volume.",
      operations: COMMERCE,
      checkedBy: ["wire:creditHeaders"],
    },
    {
      id: "api.envelope.success",
      heading: "Response envelope",
      sentence: "A success is `{success: true, data, pagination?}`.",
      operations: "all",
      checkedBy: ["pipeline.envelopes", "wire:envelope"],
    },
    {
      id: "api.envelope.pagination-lists-only",
      heading: "Response envelope",
      sentence: "Only list endpoints carry `pagination`, and it is `{limit, offset, has_more}`.",
      operations: "all",
      checkedBy: ["wire:paging", "webhooks.deliveries-shape", "warehouse.inventory-walk"],
    },
    {
      id: "api.envelope.named-list-key",
      heading: "Response envelope",
      sentence:
        "Lists put their rows under a named key of `data` (`data.cards`, `data.orders`, `data.deliveries`, …), never a bare array.",
      operations: "all",
      checkedBy: ["mystery.catalog-tiers", "warehouse.inventory-listing", "webhooks.deliveries-shape", "wire:schema"],
    },
    {
      id: "api.credit-account",
      heading: "Credit account",
      sentence:
        '`balance` (integer credits; the included free credits reset each month to 500 and never stack), `plan` (only "Pay as you go" is available), and month-to-date usage from the usage endpoint.',
      operations: ["account.usage"],
      checkedBy: ["credits.usage-shape", "credits.usage-period", "invariant:credits.balance-split"],
    },
    {
      id: "api.topup-result",
      heading: "Top-up result",
      sentence:
        "The `data` of a settled top-up: `credits_granted` (integer), `balance_credits` (integer), `usd` (number), `tx_hash` (the on-chain transfer).",
      operations: ["credits.topup"],
      checkedBy: ["x402.pay-grants-credits"],
    },
    {
      id: "api.webhook.fields",
      heading: "Webhook",
      sentence:
        "`data.webhook`: `id`, `url`, `is_active`, `event_types` (empty array = every event), `created_at`, `updated_at`.",
      operations: ["webhooks.register", "webhooks.get", "webhooks.list"],
      checkedBy: ["wire:schema", "webhooks.by-id-equals-listed"],
    },
    {
      id: "api.webhook.secret-once",
      heading: "Webhook",
      sentence: "The signing secret is shown once, when the webhook is registered, never by a get.",
      operations: ["webhooks.register", "webhooks.get", "webhooks.list"],
      checkedBy: ["webhooks.secret-shown-once"],
    },
    {
      id: "api.webhook-deliveries.listed",
      heading: "Webhook delivery",
      sentence:
        "Listed as `data.deliveries` with `pagination {limit, offset, has_more}`; an empty array when no attempt was made.",
      operations: ["webhooks.deliveries"],
      checkedBy: ["webhooks.deliveries-shape"],
    },
    {
      id: "api.raw-card.unique-id",
      heading: "Raw card",
      sentence:
        "`unique_id`: at most 22 characters, the fixed marker `CARD-` then a service prefix; opaque, never changes; raw cards and graded slabs share the namespace.",
      operations: WAREHOUSE_CARDS,
      checkedBy: ["warehouse.card-combinations"],
    },
    {
      id: "api.raw-card.identity-status",
      heading: "Raw card",
      sentence: "`identity.status` (optional): `unconfirmed` (pending identity) or `confirmed` (published).",
      operations: WAREHOUSE_CARDS,
      checkedBy: ["warehouse.card-combinations", "wire:schema"],
    },
    {
      id: "api.raw-card.pricing-status",
      heading: "Raw card",
      sentence:
        "`pricing.status` (optional): `unverified`, `unpriced` or `priced`; `pricing.market_price` and `insured_price` are USD decimal strings, or null when the identity is unconfirmed or unpriced.",
      operations: WAREHOUSE_CARDS,
      checkedBy: ["warehouse.card-combinations"],
    },
    {
      id: "api.raw-card.declared-value",
      heading: "Raw card",
      sentence:
        "`declared_value`: null or `{amount in USD cents (integer), source}` (tenant- or service-supplied), kept apart from the market and insured prices.",
      operations: WAREHOUSE_CARDS,
      checkedBy: ["warehouse.card-combinations", "warehouse.declared-value-cents"],
    },
    {
      id: "api.raw-card.inventory-status",
      heading: "Raw card",
      sentence: "`status` on inventory rows; `pending_identity` is a count that can overlap the listed rows.",
      operations: ["warehouse.inventory.list"],
      checkedBy: ["warehouse.inventory-listing"],
    },
    {
      id: "api.raw-card.combination-unconfirmed",
      heading: "Raw card",
      sentence: "| `unconfirmed` | `unverified` | null | the tenant's |",
      operations: WAREHOUSE_CARDS,
      checkedBy: ["warehouse.card-combinations", "invariant:warehouse.card-value-combination"],
    },
    {
      id: "api.raw-card.combination-unpriced",
      heading: "Raw card",
      sentence: "| `confirmed` | `unpriced` | null | null |",
      operations: WAREHOUSE_CARDS,
      checkedBy: ["warehouse.card-combinations", "invariant:warehouse.card-value-combination"],
    },
    {
      id: "api.raw-card.combination-priced",
      heading: "Raw card",
      sentence: "| `confirmed` | `priced` | decimal strings | the service's |",
      operations: WAREHOUSE_CARDS,
      checkedBy: ["warehouse.card-combinations", "invariant:warehouse.card-value-combination"],
    },
    {
      id: "api.raw-card.presence-not-eligibility",
      heading: "Raw card",
      sentence: "A card's presence or declared value does not make it eligible for a quote or order.",
      operations: ["warehouse.quotes.create", "warehouse.orders.create"],
      checkedBy: {
        unchecked:
          "a sandbox check quoting a card that is present (or has a declared value) but not eligible, expecting a refusal that names it",
      },
    },
    {
      id: "api.raw-card.routes",
      heading: "Raw card",
      sentence:
        "`get card` answers the card itself under `data`; inventory puts cards under `data.cards` with offset/total paging; the card list pages with an opaque keyset cursor prefixed `r:`.",
      operations: ["warehouse.cards.get", "warehouse.inventory.list", "warehouse.cards.list"],
      checkedBy: [
        "warehouse.card-get",
        "warehouse.inventory-listing",
        "warehouse.cards-keyset",
        "warehouse.inventory-walk",
      ],
    },
    {
      id: "api.catalog-records",
      heading: "Catalog records",
      sentence: "Catalog cards carry `market_updated_at`; `include=prices` embeds current prices in a read.",
      operations: ["cards.search", "cards.get"],
      checkedBy: ["catalog.include-prices"],
    },
    {
      id: "api.records.purchase",
      heading: "Other records",
      sentence: "Purchase: an id, a status (among them `FULFILLED`), a VRF `request_id`, a transaction hash.",
      operations: ["gacha.submit", "gacha.getPurchase", "gacha.listPurchases"],
      checkedBy: ["commerce.purchase-reveal", "wire:schema"],
    },
    {
      id: "api.records.redemption",
      heading: "Other records",
      sentence:
        "Redemption: `redemption_id`, `purchase_id`, a `kyc` object with `kyc_url`, an `unsigned` object with `calls`.",
      operations: ["redemption.prepare"],
      checkedBy: ["redemption.kyc-if-required", "commerce.redemption-prepare"],
    },
    {
      id: "api.records.purchase-calldata",
      heading: "Other records",
      sentence: "Purchase calldata: `calls[0]` is the stablecoin approval, `calls[1]` the purchase.",
      operations: ["gacha.prepare"],
      checkedBy: ["commerce.purchase-reveal", "lifecycle.mystery-purchase-wallet"],
    },
    {
      id: "api.records.order",
      heading: "Other records",
      sentence:
        "Order: `order_id` (integer), `rate_id` (string), status `PENDING_PAYMENT` or `RETURNED`; `ship_by_at` and `sla_due_at` in UTC.",
      operations: ["warehouse.orders.create", "warehouse.orders.get", "warehouse.orders.list"],
      checkedBy: ["warehouse.order-label-utc", "warehouse.return-scan-back", "wire:schema", "invariant:time.iso-utc"],
    },
    {
      id: "api.transition.purchase-fulfilled",
      heading: "States and transitions",
      sentence:
        "| purchase, submitted | the VRF reveals | `FULFILLED` | `purchase.fulfilled`; the revealed NFTs belong to the user's wallet |",
      operations: ["gacha.getPurchase"],
      events: ["purchase.fulfilled"],
      checkedBy: ["commerce.purchase-reveal", "commerce.purchase-webhook", "lifecycle.mystery-purchase-wallet"],
    },
    {
      id: "api.transition.redemption-burn-submitted",
      heading: "States and transitions",
      sentence: "| redemption, prepared | submit with `redemption_id` and `tx_hash` | `BURN_SUBMITTED` | |",
      operations: ["redemption.submit"],
      checkedBy: ["lifecycle.mystery-redemption"],
    },
    {
      id: "api.transition.redemption-in-fulfillment",
      heading: "States and transitions",
      sentence: "| `BURN_SUBMITTED` | the warehouse starts fulfilment | `IN_FULFILLMENT` | `redemption.updated` |",
      operations: ["redemption.get"],
      events: ["redemption.updated"],
      checkedBy: ["lifecycle.mystery-redemption"],
    },
    {
      id: "api.transition.redemption-completed",
      heading: "States and transitions",
      sentence:
        "| `IN_FULFILLMENT` | the item is dispatched | `COMPLETED` | the burn finalises at dispatch; `redemption.updated` |",
      operations: ["redemption.get"],
      events: ["redemption.updated"],
      checkedBy: ["lifecycle.mystery-redemption", "lifecycle.mystery-redemption-kyc"],
    },
    {
      id: "api.transition.order-commit-failed",
      heading: "States and transitions",
      sentence:
        "| order | a commit with a rate fails (any failure) | `PENDING_PAYMENT` | nothing applied; retrying is safe |",
      operations: ["warehouse.orders.create"],
      checkedBy: ["warehouse.order-failure-retry", "lifecycle.warehouse-order-retry"],
    },
    {
      id: "api.transition.order-returned",
      heading: "States and transitions",
      sentence: "| order | the carrier sends the package back | `RETURNED` | `order.returned` |",
      operations: ["warehouse.orders.get"],
      events: ["order.returned"],
      checkedBy: ["warehouse.return-scan-back", "lifecycle.warehouse-return"],
    },
    {
      id: "api.transition.card-scanned-back",
      heading: "States and transitions",
      sentence:
        "| card | a returned package is scanned back in | `OFFCHAIN` | `card.returned` per card; it can be ordered again |",
      operations: ["warehouse.cards.get"],
      events: ["card.returned"],
      checkedBy: ["warehouse.return-scan-back", "lifecycle.warehouse-return"],
    },
    {
      id: "api.transition.buyback-transferred",
      heading: "States and transitions",
      sentence:
        "| buyback transfer | the forwarding worker runs with a pool wallet set | transferred | `buyback.card_transferred` |",
      events: ["buyback.card_transferred"],
      checkedBy: ["lifecycle.mystery-buyback-forwarded"],
    },
    {
      id: "api.transition.buyback-held",
      heading: "States and transitions",
      sentence:
        "| buyback transfer | no pool wallet, first attempt | held | one `buyback.transfer_held`; retried every 15 minutes |",
      events: ["buyback.transfer_held"],
      checkedBy: ["lifecycle.mystery-buyback-transfer-failed"],
    },
    {
      id: "api.transition.buyback-failed",
      heading: "States and transitions",
      sentence: "| held transfer | 10 failed attempts | failed (terminal) | `buyback.transfer_failed` |",
      events: ["buyback.transfer_failed"],
      checkedBy: ["lifecycle.mystery-buyback-transfer-failed"],
    },
    {
      id: "api.not-fulfilled",
      heading: "States and transitions",
      sentence: "Where a revealed purchase is needed, an unrevealed one is 409 `not_fulfilled`.",
      operations: ["redemption.quote", "redemption.prepare", "buyback.createForPurchase"],
      checkedBy: {
        unchecked:
          "a sandbox check asking to redeem (or buy back) a purchase before its reveal, expecting 409 not_fulfilled",
      },
    },
    {
      id: "api.requote-supersedes",
      heading: "States and transitions",
      sentence: "A re-quote supersedes the caller's uncommitted quote.",
      operations: ["warehouse.quotes.create", "warehouse.orders.create"],
      checkedBy: ["warehouse.requote-supersedes"],
    },
    {
      id: "api.redemption-kyc-then-calldata",
      heading: "States and transitions",
      sentence:
        "Redemption prepare with KYC required returns the KYC link first; prepare again with the same idempotency key after approval returns the calldata.",
      operations: ["redemption.prepare"],
      checkedBy: ["redemption.kyc-if-required", "lifecycle.mystery-redemption-kyc"],
    },
    {
      id: "api.endpoints.base",
      heading: "Endpoints",
      sentence:
        'All paths sit under `/api/v1`; every answer is the envelope; every metered answer carries the credit headers ("Credits and billing").',
      operations: "all",
      checkedBy: ["pipeline.unknown-path-404", "wire:envelope", "wire:creditHeaders"],
    },
    {
      id: "api.catalog.routes-one-credit",
      heading: "Catalog endpoints",
      sentence:
        "GET reads, 1 credit each: `/{game}/cards`, `/{game}/cards/{id}`, `/{game}/cards/{id}/prices`, `/{game}/cards/{id}/printings`, `/{game}/expansions`, `/{game}/expansions/{id}`, `/{game}/expansions/{id}/cards`, `/{game}/sealed`, `/{game}/sealed/{id}`, `/{game}/sealed/{id}/prices`, `/grading/certs/{provider}/{certNumber}`, `/grading/certs/batch`.",
      operations: CATALOG,
      checkedBy: [
        "pipeline.credit-headers",
        "pipeline.metering-arithmetic",
        "catalog.expansions",
        "catalog.sealed",
        "catalog.printings",
        "wire:creditHeaders",
      ],
    },
    {
      id: "api.catalog.list-query",
      heading: "Catalog endpoints",
      sentence: "List query: `page_size` (up to 100), `include=prices` (no extra cost), `limit`, `offset`.",
      operations: ["cards.search", "expansions.search", "expansions.cards", "sealed.search"],
      checkedBy: ["catalog.page-size-cap", "catalog.include-prices", "pipeline.limit-clamp"],
    },
    {
      id: "api.catalog.price-history-not-live",
      heading: "Catalog endpoints",
      sentence:
        "A card's price history (5 credits) is announced but not live: like every not-live endpoint it answers 404 and costs nothing.",
      operations: ["cards.priceHistory"],
      checkedBy: ["catalog.price-history-not-live"],
    },
    {
      id: "api.vision.identify",
      heading: "Vision endpoints",
      sentence:
        "`POST /vision/identify`, 5 credits: an `image_url` (public https) or a multipart upload (JPEG, PNG, WebP; at most 10 MB); options `game`, `limit`, `include`, `expansion_ids`.",
      operations: ["vision.identify"],
      checkedBy: [
        "vision.identify-feedback",
        "vision.url-not-allowed",
        "vision.image-too-large",
        "vision.invalid-options",
      ],
    },
    {
      id: "api.vision.no-match-billed",
      heading: "Vision endpoints",
      sentence: "A no-match still costs one identification; errors are refunded.",
      operations: ["vision.identify"],
      checkedBy: ["vision.no-match-billed", "vision.errors-refunded"],
    },
    {
      id: "api.vision.confirm-free",
      heading: "Vision endpoints",
      sentence: "Confirming a match (`/vision/identify/{feedback_id}/confirm`) costs 0.",
      operations: ["vision.confirm"],
      checkedBy: ["vision.identify-feedback"],
    },
    {
      id: "api.credits.topup-x402",
      heading: "Credits endpoints",
      sentence:
        "`POST /credits/topup?usd=<5..1000>`: the first call answers 402 with a `PAYMENT-REQUIRED` header (base64 payment requirements for that amount); the client signs a gasless transfer and retries, and gets 200 with the top-up result.",
      operations: ["credits.topup"],
      checkedBy: [
        "x402.challenge",
        "x402.challenge-amount",
        "x402.pay-grants-credits",
        "credits.topup-invalid-amount",
        "invariant:credits.x402-forms-agree",
      ],
    },
    {
      id: "api.credits.topup-idempotent",
      heading: "Credits endpoints",
      sentence: "Idempotent on the transaction hash; a bad payment is a 402 naming the reason.",
      operations: ["credits.topup"],
      checkedBy: ["x402.replay-idempotent", "x402.bad-payment-402", "x402.settlement-values"],
    },
    {
      id: "api.credits.usage",
      heading: "Credits endpoints",
      sentence: "`GET /account/usage`: balance, plan, month-to-date usage.",
      operations: ["account.usage"],
      checkedBy: ["credits.usage-shape", "credits.usage-consistent"],
    },
    {
      id: "api.webhooks.scope",
      heading: "Webhook endpoints",
      sentence: "Scope `webhooks:manage`.",
      operations: WEBHOOKS,
      checkedBy: {
        unchecked:
          "a check calling the webhook routes with a partner key that lacks webhooks:manage, expecting 403 Insufficient permissions",
      },
    },
    {
      id: "api.webhooks.get",
      heading: "Webhook endpoints",
      sentence: "`GET /webhooks/:id` answers `data.webhook`, or 404 `not_found` when the key has no such webhook.",
      operations: ["webhooks.get"],
      checkedBy: ["webhooks.other-key-404", "webhooks.by-id-equals-listed"],
    },
    {
      id: "api.webhooks.deliveries",
      heading: "Webhook endpoints",
      sentence:
        "`GET /webhooks/deliveries?limit&offset`: recent attempts across the key's webhooks, `data.deliveries` plus `pagination`.",
      operations: ["webhooks.deliveries"],
      checkedBy: ["webhooks.deliveries-shape", "webhooks.delivery-log-values"],
    },
    {
      id: "api.mystery.partner-key",
      heading: "Mystery commerce endpoints",
      sentence: "Partner key.",
      operations: COMMERCE,
      checkedBy: ["mystery.tenant-key-403"],
    },
    {
      id: "api.mystery.prepare",
      heading: "Mystery commerce endpoints",
      sentence:
        "| `POST /mystery/purchase/prepare` | `wallet_address`, `tier_id` → `calls[]` (0 approval, 1 purchase); creates no rows |",
      operations: ["gacha.prepare"],
      checkedBy: ["commerce.purchase-reveal", "lifecycle.mystery-purchase-wallet"],
    },
    {
      id: "api.mystery.submit",
      heading: "Mystery commerce endpoints",
      sentence:
        "| `POST /mystery/purchase/submit` | transaction hash and the VRF `request_id` from the receipt logs; links settlement to the reveal |",
      operations: ["gacha.submit"],
      checkedBy: ["commerce.purchase-reveal", "lifecycle.mystery-purchase-wallet"],
    },
    {
      id: "api.mystery.get-purchase",
      heading: "Mystery commerce endpoints",
      sentence: "| `GET /mystery/purchase/:id` | the purchase; poll until `FULFILLED` |",
      operations: ["gacha.getPurchase"],
      checkedBy: ["lifecycle.mystery-purchase-wallet", "lifecycle.mystery-custodial-lifecycle"],
    },
    {
      id: "api.mystery.custodial",
      heading: "Mystery commerce endpoints",
      sentence: "| `POST /mystery/purchase` | custodial: `tier_id` and a required `Idempotency-Key` header |",
      operations: ["gacha.purchase"],
      checkedBy: ["mystery.custodial-idempotency-key", "purchases.custodial-reserved"],
    },
    {
      id: "api.mystery.redemption-quote",
      heading: "Mystery commerce endpoints",
      sentence:
        "| `POST /mystery/redemption/quote` | live shipping cost for an address; creates no rows; non-US needs a phone; optional `carriers` |",
      operations: ["redemption.quote"],
      checkedBy: ["mystery.redemption-phone-required", "commerce.redemption-prepare"],
    },
    {
      id: "api.mystery.redemption-prepare",
      heading: "Mystery commerce endpoints",
      sentence:
        "| `POST /mystery/redemption/prepare` | address and `idempotency_key`: validates, snapshots the cheapest rate, runs KYC; `kyc.kyc_url` if required, else `unsigned.calls` |",
      operations: ["redemption.prepare"],
      checkedBy: ["commerce.redemption-prepare", "redemption.kyc-if-required", "redemption.prepare-shipping-payment"],
    },
    {
      id: "api.mystery.redemption-submit",
      heading: "Mystery commerce endpoints",
      sentence: "| `POST /mystery/redemption/submit` | `redemption_id`, `tx_hash` → `BURN_SUBMITTED` |",
      operations: ["redemption.submit"],
      checkedBy: ["lifecycle.mystery-redemption"],
    },
    {
      id: "api.mystery.redemption-tracking",
      heading: "Mystery commerce endpoints",
      sentence: "| `GET /mystery/redemption/:purchase_id` | tracking |",
      operations: ["redemption.get"],
      checkedBy: ["lifecycle.mystery-redemption", "redemption.verify"],
    },
    {
      id: "api.mystery.buyback-offer",
      heading: "Mystery commerce endpoints",
      sentence:
        "| `POST /mystery/buyback/:purchase_id` | a purchase id or token id; signs a marketplace offer, by default 85% of card value |",
      operations: ["buyback.createForPurchase"],
      checkedBy: ["lifecycle.mystery-buyback-forwarded", "lifecycle.mystery-buyback-transfer-failed"],
    },
    {
      id: "api.mystery.price-one-of",
      heading: "Mystery commerce endpoints",
      sentence: "| `GET /mystery/price` | exactly one of `card_id`, `token_id` |",
      operations: ["gacha.price"],
      checkedBy: ["mystery.price-query"],
    },
    {
      id: "api.mystery.pool-wallet-set",
      heading: "Mystery commerce endpoints",
      sentence: "| `PUT /mystery/pool-wallet` | sets the active pool wallet |",
      operations: ["mystery.poolWallet.set"],
      checkedBy: ["mystery.pool-wallet-not-set", "invariant:wallet.put-then-get"],
    },
    {
      id: "api.mystery.payout-wallet-set",
      heading: "Mystery commerce endpoints",
      sentence: "| `PUT /payout-wallet` | sets the payout wallet; a bad body is `invalid_address` |",
      operations: ["payoutWallet.set"],
      checkedBy: ["mystery.payout-wallet"],
    },
    {
      id: "api.mystery.stats-offer-volume",
      heading: "Mystery commerce endpoints",
      sentence: "| `GET /mystery/stats` | includes offer volume |",
      operations: ["gacha.stats"],
      checkedBy: ["mystery.stats-offer-volume", "wire:schema"],
    },
    {
      id: "api.mystery.sellback-batch",
      heading: "Mystery commerce endpoints",
      sentence:
        "A sell-back takes token ids (at most 50 a batch) and a transaction hash, checked against the on-chain seller.",
      operations: ["sellback.quote", "sellback.prepare", "sellback.submit"],
      checkedBy: ["mystery.sellback-batch-limit", "lifecycle.mystery-sellback"],
    },
    {
      id: "api.warehouse.tenant-key",
      heading: "Warehouse endpoints",
      sentence: "Tenant key.",
      operations: WAREHOUSE,
      checkedBy: ["warehouse.partner-key-403"],
    },
    {
      id: "api.warehouse.routes",
      heading: "Warehouse endpoints",
      sentence:
        "`GET /health` (the only call without a key), `GET /info` (verifies the key), `GET /cards?limit&since&type` (keyset `since`, `0` for a full sweep; `type=graded|all` adds slabs; `data.cards` and an opaque cursor), `GET /cards/{id}`, `POST /shipping-quote` (`unique_ids` always an array, an `address`; rates each with a `rate_id`; a missing phone abroad is `phone_required`), `POST /orders` (`order_id` integer, `rate_id` string; buys the label), `GET /integration-status`.",
      operations: [
        "service.health",
        "warehouse.info",
        "warehouse.cards.list",
        "warehouse.cards.get",
        "warehouse.quotes.create",
        "warehouse.orders.create",
        "warehouse.integrationStatus.get",
      ],
      checkedBy: [
        "pipeline.health-public",
        "warehouse.info-verifies-key",
        "warehouse.cards-keyset",
        "warehouse.card-get",
        "warehouse.quote-phone-required",
        "warehouse.quote-id-array",
        "warehouse.order-label-utc",
        "warehouse.integration-status",
      ],
    },
    {
      id: "api.warehouse.more-routes",
      heading: "Warehouse endpoints",
      sentence:
        "Also orders (list, get, cancel), withdrawals, inbound shipments and their attachments, sites, card transfers, declared values, invoices, account, reports, exceptions, SLA, service credits and the activity log.",
      operations: WAREHOUSE,
      checkedBy: [
        "warehouse.by-id-equals-listed",
        "warehouse.site-by-id-equals-listed",
        "warehouse.invoice-by-id-equals-listed",
        "warehouse.report-by-id-equals-listed",
        "warehouse.exception-by-id-equals-listed",
        "warehouse.withdrawal-by-id-equals-listed",
        "warehouse.transfer-by-id-equals-listed",
        "lifecycle.warehouse-withdrawal",
      ],
    },
    {
      id: "api.warehouse.sweep-since",
      heading: "Warehouse endpoints",
      sentence: "Inventory sweeps page with `since`, never `offset`.",
      operations: ["warehouse.cards.list"],
      checkedBy: ["warehouse.cards-keyset", "lifecycle.warehouse-inbound"],
    },
    {
      id: "api.auth.key-required",
      heading: "Authentication",
      sentence: "Every request but `GET /health` sends `X-API-Key`.",
      operations: "all",
      checkedBy: ["pipeline.health-public", "pipeline.auth-401"],
    },
    {
      id: "api.auth.two-kinds",
      heading: "Authentication",
      sentence: "Two kinds of key: partner (commerce) and tenant (warehouse).",
      operations: "all",
      checkedBy: ["mystery.tenant-key-403", "warehouse.partner-key-403"],
    },
    {
      id: "api.auth.wrong-kind-403",
      heading: "Authentication",
      sentence:
        "The wrong kind is 403 either way; some mystery routes also refuse the wrong partner model with `not_tier_partner`.",
      operations: "all",
      checkedBy: [
        "pipeline.tenant-key-403",
        "mystery.tenant-key-403",
        "warehouse.partner-key-403",
        "mystery.sellback-not-tier-partner",
      ],
    },
    {
      id: "api.auth.not-charged",
      heading: "Authentication",
      sentence: "A failed authentication is 401, a missing scope 403; neither is charged.",
      operations: "all",
      checkedBy: ["pipeline.auth-401", "pipeline.tenant-key-403", "warehouse.write-scope-403", "wire:creditHeaders"],
    },
    {
      id: "api.auth.legacy-unmetered",
      heading: "Authentication",
      sentence: "Unmetered legacy keys get `X-Credits-Metering: unmetered` on their answers.",
      operations: "all",
      checkedBy: ["pipeline.legacy-unmetered"],
    },
    {
      id: "api.auth.secrets-apart",
      heading: "Authentication",
      sentence: "Webhook signing secrets are separate from keys and shown once.",
      operations: ["webhooks.register"],
      checkedBy: ["webhooks.secret-shown-once"],
    },
    {
      id: "api.scope.any-tenant",
      heading: "Scopes",
      sentence: "| any tenant key | orders list/get, cards list/get |",
      operations: ["warehouse.orders.list", "warehouse.orders.get", "warehouse.cards.list", "warehouse.cards.get"],
      checkedBy: { unchecked: "a check reading orders and cards with a tenant key holding no scope, expecting 200" },
    },
    {
      id: "api.scope.read-inventory",
      heading: "Scopes",
      sentence:
        "| `read:inventory` | withdrawals, inbound shipments (list/get/attachments), sites, card transfers, integration status, declared values list, invoices, account, reports, exceptions, SLA, service credits list, activity log |",
      operations: [
        "warehouse.withdrawals.list",
        "warehouse.inboundShipments.list",
        "warehouse.sites.list",
        "warehouse.transfers.list",
        "warehouse.integrationStatus.get",
        "warehouse.declaredValues.list",
        "warehouse.invoices.list",
        "warehouse.account.get",
        "warehouse.reports.list",
        "warehouse.exceptions.list",
        "warehouse.sla.get",
        "warehouse.serviceCredits.list",
        "warehouse.activity.list",
      ],
      checkedBy: {
        unchecked:
          "a check calling each listed route with a tenant key without read:inventory, expecting 403 Insufficient permissions",
      },
    },
    {
      id: "api.scope.write-transfer",
      heading: "Scopes",
      sentence: "| `write:transfer` | transfer a card |",
      operations: ["warehouse.transfers.create"],
      checkedBy: { unchecked: "a check transferring a card with a tenant key without write:transfer, expecting 403" },
    },
    {
      id: "api.scope.write-withdrawal",
      heading: "Scopes",
      sentence: "| `write:withdrawal` | request a withdrawal |",
      operations: ["warehouse.withdrawals.create"],
      checkedBy: {
        unchecked: "a check requesting a withdrawal with a tenant key without write:withdrawal, expecting 403",
      },
    },
    {
      id: "api.scope.write-order",
      heading: "Scopes",
      sentence: "| `write:order` | shipping quote, create/cancel orders |",
      operations: ["warehouse.quotes.create", "warehouse.orders.create", "warehouse.orders.cancel"],
      checkedBy: ["warehouse.write-scope-403"],
    },
    {
      id: "api.scope.write-inbound-shipment",
      heading: "Scopes",
      sentence: "| `write:inbound_shipment` | announce, update, cancel inbound shipments; add/remove attachments |",
      operations: [
        "warehouse.inboundShipments.create",
        "warehouse.inboundShipments.update",
        "warehouse.inboundShipments.cancel",
        "warehouse.inboundShipments.attachments.create",
        "warehouse.inboundShipments.attachments.delete",
      ],
      checkedBy: {
        unchecked:
          "a check announcing an inbound shipment with a tenant key without write:inbound_shipment, expecting 403",
      },
    },
    {
      id: "api.scope.write-declared-value",
      heading: "Scopes",
      sentence: "| `write:declared_value` | submit declared values |",
      operations: ["warehouse.declaredValues.create"],
      checkedBy: {
        unchecked: "a check submitting a declared value with a tenant key without write:declared_value, expecting 403",
      },
    },
    {
      id: "api.scope.write-service-credit",
      heading: "Scopes",
      sentence: "| `write:service_credit` | request a service credit |",
      operations: ["warehouse.serviceCredits.create"],
      checkedBy: {
        unchecked: "a check requesting a service credit with a tenant key without write:service_credit, expecting 403",
      },
    },
    {
      id: "api.scope.webhooks-manage",
      heading: "Scopes",
      sentence: "| `webhooks:manage` | webhook get and delivery log |",
      operations: ["webhooks.get", "webhooks.deliveries"],
      checkedBy: {
        unchecked: "a check reading a webhook and the delivery log with a key without webhooks:manage, expecting 403",
      },
    },
    {
      id: "api.events.subscription",
      heading: "Events",
      sentence: "Delivered to registered webhooks; an empty `event_types` receives everything.",
      operations: ["webhooks.register"],
      events: ["purchase.fulfilled"],
      checkedBy: ["commerce.purchase-webhook", "webhooks.signed-delivery"],
    },
    {
      id: "api.events.webhook-limit",
      heading: "Events",
      sentence: "At most 20 webhooks per key (409 `webhook_limit`).",
      operations: ["webhooks.register"],
      checkedBy: ["webhooks.limit-20"],
    },
    {
      id: "api.events.retries",
      heading: "Events",
      sentence: "A non-2xx answer is retried, up to 6 attempts with exponential backoff.",
      checkedBy: ["webhooks.failing-receiver", "lifecycle.webhook-retries"],
    },
    {
      id: "api.events.named",
      heading: "Events",
      sentence:
        "Named events: `purchase.fulfilled`, `redemption.updated`, `buyback.confirmed` (holder paid, net of the marketplace fee), `buyback.card_transferred`, `buyback.transfer_held` (once), `buyback.transfer_failed` (after 10 attempts), `order.tracking_updated`, `order.tracking_status_changed`, `card.returned` (per card), `order.returned`.",
      operations: ["webhooks.register"],
      events: [
        "purchase.fulfilled",
        "redemption.updated",
        "buyback.confirmed",
        "buyback.card_transferred",
        "buyback.transfer_held",
        "buyback.transfer_failed",
        "order.tracking_updated",
        "order.tracking_status_changed",
        "card.returned",
        "order.returned",
      ],
      checkedBy: [
        "commerce.purchase-webhook",
        "lifecycle.mystery-buyback-transfer-failed",
        "lifecycle.mystery-buyback-forwarded",
        "warehouse.return-scan-back",
      ],
    },
    {
      id: "api.events.not-a-sweep",
      heading: "Events",
      sentence: "Events do not replace full sweeps.",
      checkedBy: {
        not_checkable: "advice to clients (a full sweep stays the source of truth); no answer of the service shows it",
      },
    },
    {
      id: "api.errors.partner-envelope",
      heading: "Error envelope",
      sentence: "Partner and catalog routes: `{success: false, message, error: <machine code>, details?}`.",
      operations: "all",
      checkedBy: ["pipeline.envelopes", "wire:envelope"],
    },
    {
      id: "api.errors.details",
      heading: "Error envelope",
      sentence:
        "Clients branch on status and `error`; `message` may change; `details` is an object of context (for a sell-back refusal it names the token and the reason).",
      operations: ["sellback.prepare", "sellback.submit"],
      checkedBy: { unchecked: "a sell-back refusal whose details object names the token and the reason" },
    },
    {
      id: "api.errors.warehouse-envelope",
      heading: "Error envelope",
      sentence:
        "Warehouse routes: `success: false`, a short `message`, a human-readable `error`, and a `code` to branch on.",
      operations: WAREHOUSE,
      checkedBy: ["warehouse.error-envelope", "wire:envelope", "warehouse.error-codes-declared"],
    },
    {
      id: "api.errors.conflict-data",
      heading: "Error envelope",
      sentence: "Some 409s carry `data` with the conflicting resource's current state.",
      operations: WAREHOUSE,
      checkedBy: ["invariant:warehouse.conflict-carries-order"],
    },
    {
      id: "api.errors.shared-infrastructure",
      heading: "Error envelope",
      sentence: "429 and 503 come from shared infrastructure, with `error` a fixed label; clients back off and retry.",
      operations: "all",
      checkedBy: ["pipeline.rate-limited-429", "wire:retryAfter", "invariant:pipeline.retry-after-503-seconds"],
    },
    {
      id: "api.errors.internal",
      heading: "Error envelope",
      sentence:
        "An unexpected failure is 500 `internal_error` with no internals; a warehouse 500 also opens an integration issue.",
      operations: "all",
      checkedBy: {
        unchecked:
          "an emulator-only check injecting a failure, expecting 500 internal_error with no internals and, on a warehouse route, a new integration issue",
      },
    },
    {
      id: "api.errors.refund",
      heading: "Error envelope",
      sentence: "Any 4xx or 5xx refunds a credit charged up front.",
      operations: "all",
      checkedBy: ["pipeline.refund-400", "pipeline.refund-404", "wire:creditHeaders"],
    },
    {
      id: "api.codes.invalid-pagination",
      heading: "Error codes",
      sentence:
        "| 400 | `invalid_pagination` | `limit`/`offset` with no leading integer at all (a leading integer is parsed and clamped), or an id array over 500 entries |",
      operations: "all",
      checkedBy: [
        "pipeline.invalid-pagination",
        "pipeline.limit-clamp",
        "catalog.grading-batch-cap",
        "warehouse.quote-id-array",
      ],
    },
    {
      id: "api.codes.quote",
      heading: "Error codes",
      sentence:
        "| 400 | `phone_required`, `unknown_carrier` | quote abroad without a phone; a `carriers` token other than `usps`, `ups`, `dhl_express`, `lso` |",
      operations: ["warehouse.quotes.create", "redemption.quote"],
      checkedBy: ["warehouse.quote-phone-required", "warehouse.quote-unknown-carrier"],
    },
    {
      id: "api.codes.request-400",
      heading: "Error codes",
      sentence:
        "| 400 | `invalid_tier`, `missing_idempotency_key`, `invalid_amount`, `identifier_too_long` | unknown tier, no `Idempotency-Key`, bad amount, identifier over 255 characters |",
      operations: "all",
      checkedBy: [
        "mystery.invalid-tier",
        "mystery.custodial-idempotency-key",
        "credits.topup-invalid-amount",
        "pipeline.identifier-too-long",
      ],
    },
    {
      id: "api.codes.redemption-400",
      heading: "Error codes",
      sentence:
        "| 400 | `missing_shipping_address`, `invalid_address`, `token_required`, `invalid_tx_hash`, `invalid_status`, `unsupported_item` | bad redemption request; `invalid_address` also a bad payout-wallet body, `invalid_status` also a bad `?status=` |",
      operations: [
        "redemption.quote",
        "redemption.prepare",
        "redemption.submit",
        "payoutWallet.set",
        "redemption.list",
      ],
      checkedBy: ["mystery.redemption-phone-required", "mystery.payout-wallet", "mystery.redemptions-status-filter"],
    },
    {
      id: "api.codes.price-query",
      heading: "Error codes",
      sentence: "| 400 | `invalid_price_query` | price without exactly one of `card_id` / `token_id` |",
      operations: ["gacha.price"],
      checkedBy: ["mystery.price-query"],
    },
    {
      id: "api.codes.vision-400",
      heading: "Error codes",
      sentence:
        "| 400 | `image_required`, `invalid_image`, `invalid_upload`, `image_url_not_allowed`, `image_fetch_failed`, `invalid_game`, `invalid_limit`, `invalid_include`, `invalid_expansion_ids` | vision input and options; refunded |",
      operations: ["vision.identify"],
      checkedBy: [
        "vision.image-required",
        "vision.url-not-allowed",
        "vision.invalid-options",
        "vision.errors-refunded",
      ],
    },
    {
      id: "api.codes.sellback-400",
      heading: "Error codes",
      sentence:
        "| 400 | `invalid_token_ids`, `too_many_tokens`, `missing_tx_hash`, `tx_reverted`, `tx_unverified` | sell-back: no valid token, over 50, bad transaction |",
      operations: ["sellback.quote", "sellback.prepare", "sellback.submit"],
      checkedBy: ["mystery.sellback-batch-limit"],
    },
    {
      id: "api.codes.401",
      heading: "Error codes",
      sentence: "| 401 | — | authentication failed; not charged |",
      operations: "all",
      checkedBy: ["pipeline.auth-401"],
    },
    {
      id: "api.codes.402",
      heading: "Error codes",
      sentence:
        "| 402 | `insufficient_credits` | the balance cannot cover the call (nothing charged); also the x402 top-up challenge |",
      operations: [...CATALOG, "vision.identify", "credits.topup"],
      checkedBy: ["pipeline.insufficient-credits-402", "x402.challenge"],
    },
    {
      id: "api.codes.403-permissions",
      heading: "Error codes",
      sentence: "| 403 | `Insufficient permissions` | missing scope, or not a partner key |",
      operations: "all",
      checkedBy: ["pipeline.tenant-key-403", "mystery.tenant-key-403"],
    },
    {
      id: "api.codes.403-model",
      heading: "Error codes",
      sentence:
        "| 403 | `not_tier_partner`, `seller_mismatch` | wrong billing model; the on-chain seller is not the partner's end user |",
      operations: ["sellback.quote", "sellback.prepare", "sellback.submit"],
      checkedBy: ["mystery.sellback-not-tier-partner"],
    },
    {
      id: "api.codes.feedback-not-found",
      heading: "Error codes",
      sentence: "| 404 | `feedback_not_found` | vision confirm of an unknown `feedback_id` |",
      operations: ["vision.confirm"],
      checkedBy: ["vision.confirm-unknown"],
    },
    {
      id: "api.codes.404",
      heading: "Error codes",
      sentence:
        "| 404 | `not_found`, `token_not_found`, `payout_wallet_not_set` | missing or not the caller's; also any path that does not exist under `/api/v1` |",
      operations: "all",
      checkedBy: [
        "pipeline.unknown-path-404",
        "mystery.purchase-not-found",
        "mystery.payout-wallet",
        "webhooks.other-key-404",
      ],
    },
    {
      id: "api.codes.404-value-unknown",
      heading: "Error codes",
      sentence: "| 404 | `value_unknown` | price: the card has no market price |",
      operations: ["gacha.price"],
      checkedBy: { unchecked: "a price query of a card with no market price, expecting 404 value_unknown" },
    },
    {
      id: "api.codes.409-general",
      heading: "Error codes",
      sentence:
        "| 409 | `idempotency_mismatch`, `not_fulfilled`, `webhook_limit` | key reused with another `tier_id`; not revealed yet; a 21st webhook |",
      operations: ["gacha.purchase", "redemption.quote", "webhooks.register"],
      checkedBy: ["lifecycle.mystery-custodial-retry", "webhooks.limit-20"],
    },
    {
      id: "api.codes.409-redemption",
      heading: "Error codes",
      sentence:
        "| 409 | `redemption_exists`, `not_burnable`, `not_owner`, `no_holder`, `no_items`, `invalid_status`, `invalid_token_id` | redemption conflicts |",
      operations: ["redemption.quote", "redemption.prepare", "redemption.submit"],
      checkedBy: {
        unchecked:
          "sandbox checks provoking redemption_exists, not_burnable, not_owner, no_holder, no_items and invalid_token_id",
      },
    },
    {
      id: "api.codes.409-buyback",
      heading: "Error codes",
      sentence:
        "| 409 | `value_unknown`, `insufficient_liquidity`, `window_expired`, `wrong_holder`, `not_eligible` | buyback / sell-back pre-flight (the on-chain call is all-or-nothing) |",
      operations: ["buyback.create", "buyback.createForPurchase", "sellback.prepare"],
      checkedBy: {
        unchecked:
          "a sandbox check preparing a sell-back after the window and by a non-holder, expecting 409 window_expired / wrong_holder",
      },
    },
    {
      id: "api.codes.413",
      heading: "Error codes",
      sentence: "| 413 | `image_too_large` | vision image over 10 MB, however sent |",
      operations: ["vision.identify"],
      checkedBy: ["vision.image-too-large"],
    },
    {
      id: "api.codes.429",
      heading: "Error codes",
      sentence:
        "| 429 | `rate_limited` | per-key or per-IP budget spent; `Retry-After` and `X-RateLimit-Reset`; not charged |",
      operations: "all",
      checkedBy: ["pipeline.rate-limited-429", "pipeline.ratelimit-ceiling", "wire:retryAfter"],
    },
    {
      id: "api.codes.500",
      heading: "Error codes",
      sentence: "| 500 | `internal_error` | unexpected failure |",
      operations: "all",
      checkedBy: { unchecked: "an emulator-only check injecting an unexpected failure, expecting 500 internal_error" },
    },
    {
      id: "api.codes.503-overloaded",
      heading: "Error codes",
      sentence: "| 503 | `overloaded` | concurrency gate full; `Retry-After: 1`, `retryable: true`; not charged |",
      operations: "all",
      checkedBy: {
        unchecked:
          "a check filling the concurrency gate, expecting 503 overloaded with Retry-After: 1 and retryable: true (the wire's retryAfter rule holds any 503 it meets)",
      },
    },
    {
      id: "api.codes.503-timeout",
      heading: "Error codes",
      sentence: "| 503 | `timeout` | a query ran out of time; `Retry-After: 2`, `retryable: true` |",
      operations: CATALOG,
      checkedBy: {
        unchecked:
          "an emulator-only check making a query run out of time, expecting 503 timeout with Retry-After: 2 and retryable: true",
      },
    },
    {
      id: "api.billing.catalog-read",
      heading: "Credits and billing",
      sentence:
        "| Any catalog read (search, get, prices, printings, expansions, sealed, graded cert single or batch) | 1 credit per request, whatever the row count |",
      operations: CATALOG,
      checkedBy: ["pipeline.metering-arithmetic", "pipeline.credit-headers"],
    },
    {
      id: "api.billing.include-prices",
      heading: "Credits and billing",
      sentence: "| `include=prices` | no surcharge |",
      operations: ["cards.search", "cards.get", "sealed.search"],
      checkedBy: ["catalog.include-prices"],
    },
    {
      id: "api.billing.vision",
      heading: "Credits and billing",
      sentence: "| Vision identify / confirm | 5 / 0 credits |",
      operations: ["vision.identify", "vision.confirm"],
      checkedBy: ["vision.identify-feedback", "vision.errors-refunded"],
    },
    {
      id: "api.billing.commerce-free",
      heading: "Credits and billing",
      sentence: "| Gacha, instant, vaulting | no credits (billed on volume) |",
      operations: [...COMMERCE, ...WAREHOUSE],
      checkedBy: ["wire:creditHeaders"],
    },
    {
      id: "api.billing.free-credits",
      heading: "Credits and billing",
      sentence: "| Free credits | 500 a month, reset to a 500 balance, not stacking |",
      operations: ["account.usage"],
      checkedBy: ["credits.usage-period", "invariant:credits.balance-split"],
    },
    {
      id: "api.billing.purchased-credits",
      heading: "Credits and billing",
      sentence: "| Purchased credits | 500 per USD; 5 to 1,000 USD per payment; never expire |",
      operations: ["credits.topup"],
      checkedBy: ["x402.pay-grants-credits", "credits.topup-invalid-amount", "lifecycle.topup-x402"],
    },
    {
      id: "api.billing.zero-balance",
      heading: "Credits and billing",
      sentence: "| Zero balance | 402 `insufficient_credits` until topped up |",
      operations: [...CATALOG, "vision.identify"],
      checkedBy: ["pipeline.insufficient-credits-402"],
    },
    {
      id: "api.billing.refund",
      heading: "Credits and billing",
      sentence:
        "The charge is taken up front and refunded when the answer is any 4xx or 5xx: only 2xx and 304 are billed.",
      operations: [...CATALOG, "vision.identify"],
      checkedBy: ["pipeline.refund-404", "pipeline.refund-400", "wire:creditHeaders"],
    },
    {
      id: "api.billing.before-metering",
      heading: "Credits and billing",
      sentence: "401, 403, 429 and 503 shedding happen before metering.",
      operations: "all",
      checkedBy: ["pipeline.auth-401", "pipeline.tenant-key-403", "pipeline.rate-limited-429", "wire:creditHeaders"],
    },
    {
      id: "api.billing.headers",
      heading: "Credits and billing",
      sentence:
        "Metered answers carry `X-Credits-Cost` (this call's cost) and `X-Credits-Remaining` (the balance after it); `X-Credits-Metering: unmetered` appears on legacy keys only.",
      operations: [...CATALOG, "vision.identify"],
      checkedBy: [
        "pipeline.credit-headers",
        "credits.usage-consistent",
        "pipeline.legacy-unmetered",
        "wire:creditHeaders",
        "wire:creditSequence",
      ],
    },
    {
      id: "api.plans.rate",
      heading: "Plans",
      sentence:
        "Every plan (Pay as you go 500 credits a month, available; Starter 7,500, Growth 60,000, Professional 300,000, coming soon) allows 300 requests a minute per key.",
      operations: CATALOG,
      checkedBy: ["limits.window-per-surface", "pipeline.ratelimit-ceiling", "credits.usage-shape"],
    },
    {
      id: "api.limits.page-size",
      heading: "Other limits",
      sentence: "| `page_size` | up to 100 |",
      operations: ["cards.search", "expansions.search", "expansions.cards", "sealed.search"],
      checkedBy: ["catalog.page-size-cap", "pipeline.limit-clamp"],
    },
    {
      id: "api.limits.offset",
      heading: "Other limits",
      sentence: "| Offset pagination | offset at most 10,000; keyset `since` unbounded |",
      operations: "all",
      checkedBy: {
        unchecked:
          "a check asking offset 10001 of a partner list, expecting 400 invalid_pagination; warehouse.cards-keyset shows since unbounded",
      },
    },
    {
      id: "api.limits.id-array",
      heading: "Other limits",
      sentence: "| Id array in a request | 500 entries |",
      operations: ["grading.certs.batch", "grading.certs.batchPost", "warehouse.quotes.create", "vision.identify"],
      checkedBy: ["catalog.grading-batch-cap", "warehouse.quote-id-array", "vision.invalid-options"],
    },
    {
      id: "api.limits.identifier",
      heading: "Other limits",
      sentence: "| Identifier length | 255 characters |",
      operations: "all",
      checkedBy: ["pipeline.identifier-too-long"],
    },
    {
      id: "api.limits.idempotency-key-length",
      heading: "Other limits",
      sentence: "| Idempotency / submission key | up to 128 characters |",
      operations: ["gacha.purchase", "redemption.prepare", ...WAREHOUSE_WRITES],
      checkedBy: { unchecked: "a write with a 129-character idempotency key, expecting 400" },
    },
    {
      id: "api.limits.vision-image",
      heading: "Other limits",
      sentence: "| Vision image | 10 MB; JPEG, PNG, WebP |",
      operations: ["vision.identify"],
      checkedBy: ["vision.image-too-large"],
    },
    {
      id: "api.limits.sellback-batch",
      heading: "Other limits",
      sentence: "| Sell-back batch | 50 tokens |",
      operations: ["sellback.quote", "sellback.prepare"],
      checkedBy: ["mystery.sellback-batch-limit"],
    },
    {
      id: "api.limits.webhooks",
      heading: "Other limits",
      sentence: "| Webhooks per key | 20 |",
      operations: ["webhooks.register"],
      checkedBy: ["webhooks.limit-20"],
    },
    {
      id: "api.limits.webhook-delivery",
      heading: "Other limits",
      sentence: "| Webhook delivery | 6 attempts, exponential backoff |",
      checkedBy: ["webhooks.failing-receiver", "lifecycle.webhook-retries"],
    },
    {
      id: "api.limits.buyback-retry",
      heading: "Other limits",
      sentence: "| Buyback transfer retry | every 15 minutes, 10 attempts |",
      events: ["buyback.transfer_held", "buyback.transfer_failed"],
      checkedBy: ["lifecycle.mystery-buyback-transfer-failed"],
    },
    {
      id: "api.limits.warehouse-read-pool",
      heading: "Other limits",
      sentence: "| Warehouse read pool | 20 concurrent requests; beyond that 503 |",
      operations: WAREHOUSE,
      checkedBy: {
        unchecked: "21 concurrent warehouse reads held open, expecting the 21st to be 503 with Retry-After",
      },
    },
    {
      id: "api.limits.rate-limit",
      heading: "Other limits",
      sentence:
        "| Rate limit | every request but `GET /health`; `X-RateLimit-Limit/Remaining/Reset` on every answer, Limit the ceiling in force; `Retry-After` on 429; rolling 60 s window |",
      operations: "all",
      checkedBy: [
        "pipeline.ratelimit-headers",
        "pipeline.ratelimit-ceiling",
        "pipeline.health-public",
        "wire:rateHeaders",
        "wire:rateSequence",
        "wire:retryAfter",
      ],
    },
    {
      id: "api.limits.buyback-offer",
      heading: "Other limits",
      sentence: "| Default buyback offer | 85% of card value |",
      operations: ["gacha.price", "sellback.quote"],
      checkedBy: ["mystery.price-85", "commerce.sellback-prepare"],
    },
    {
      id: "api.limits.business-days",
      heading: "Other limits",
      sentence: "| Warehouse business days | counted in US Central time; timestamps returned in UTC |",
      operations: ["warehouse.orders.create", "warehouse.orders.get"],
      checkedBy: [
        "warehouse.order-label-utc",
        "lifecycle.warehouse-order",
        "invariant:warehouse.deadline-central-cutoff",
        "invariant:time.iso-utc",
      ],
    },
    {
      id: "api.idempotency.keys",
      heading: "Idempotency",
      sentence: "Writes take an `idempotency_key` / `submission_key`.",
      operations: WAREHOUSE_WRITES,
      checkedBy: ["warehouse.idempotent-create", "warehouse.inbound-replay", "lifecycle.warehouse-withdrawal"],
    },
    {
      id: "api.idempotency.replay",
      heading: "Idempotency",
      sentence:
        "A replay returns the original record with the same 201, except an inbound-shipment replay, which is 200 with `created: false`.",
      operations: WAREHOUSE_WRITES,
      checkedBy: ["warehouse.idempotent-create", "warehouse.inbound-replay"],
    },
    {
      id: "api.idempotency.order-commit",
      heading: "Idempotency",
      sentence: "An order commit is safe to retry: each failure leaves the order `PENDING_PAYMENT`.",
      operations: ["warehouse.orders.create"],
      checkedBy: ["warehouse.order-failure-retry", "lifecycle.warehouse-order-retry"],
    },
    {
      id: "api.versioning.base",
      heading: "Versioning",
      sentence: "Every endpoint, top-up and webhooks included, lives under `/api/v1`.",
      operations: "all",
      checkedBy: ["pipeline.unknown-path-404", "x402.challenge", "webhooks.deliveries-shape"],
    },
    {
      id: "api.versioning.not-live",
      heading: "Versioning",
      sentence: "An endpoint documented but not yet live answers 404 (and costs nothing) until it is released.",
      operations: ["cards.priceHistory"],
      checkedBy: ["catalog.price-history-not-live"],
    },
  ],
  skipped: [
    {
      heading: "API rules",
      reason: "intro",
      text: "The rules of the service's published interface, restated as the emulator and the conformance suite rely on them.",
    },
    {
      heading: "API rules",
      reason: "intro",
      text: "They win wherever they speak (see [README.md](README.md) for the order of sources).",
    },
    {
      heading: "API rules",
      reason: "pointer",
      text: "Where this page says nothing, see [live-service.md](live-service.md) and [sdk-shapes.md](sdk-shapes.md).",
    },
    {
      heading: "API rules",
      reason: "meta",
      text: 'Code cites a heading of this page, e.g. `docs/reference/api-rules.md "Error codes"`.',
    },
    { heading: "Areas", reason: "intro", text: "One HTTP/JSON interface, four areas:" },
    {
      heading: "Areas",
      reason: "overview",
      text: "**Card Data catalog**: read-only cards, expansions and sealed products per game, prices, a card's printings, graded-certificate lookups, and image identification (vision).",
    },
    {
      heading: "Areas",
      reason: "overview",
      text: "**Credits**: an account balance spent by catalog and vision calls, topped up with a USD stablecoin over the x402 payment-challenge protocol.",
    },
    {
      heading: "Areas",
      reason: "overview",
      text: "**Mystery commerce for partners**: custodial and non-custodial purchase of randomised items (revealed by a VRF), physical redemption (the token burns when the item ships), buyback with forwarding to a partner pool wallet.",
    },
    {
      heading: "Areas",
      reason: "overview",
      text: "**Warehouse for tenants**: raw cards (each with a `unique_id`), inventory sweeps, shipping quotes and orders, transfers, withdrawals, inbound shipments, declared values, invoices, SLA, exceptions, service credits.",
    },
    { heading: "Areas", reason: "overview", text: "Webhooks carry events of the commerce and warehouse areas." },
    { heading: "Response envelope", reason: "pointer", text: 'Errors: see "Error envelope".' },
    { heading: "Raw card", reason: "intro", text: "A warehouse card:" },
    { heading: "Raw card", reason: "intro", text: "The three allowed combinations:" },
    { heading: "Scopes", reason: "intro", text: "Warehouse operations by scope (tenant key):" },
    {
      heading: "Scopes",
      reason: "pointer",
      text: 'Partner scopes: see `docs/reference/live-service.md "Partner scopes"`.',
    },
    {
      heading: "Events",
      reason: "pointer",
      text: 'Payloads, signature and the live event list: see `docs/reference/live-service.md "Webhook delivery and signatures"` and `docs/reference/sdk-shapes.md "Webhook event data"`.',
    },
  ],
};
