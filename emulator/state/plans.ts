// The plans, scopes and limits every part reads (docs/reference/api-rules.md “Limits” and
// “Scopes”; docs/reference/live-service.md “Partner scopes” for partner scopes): one place for each value.

// Scopes exactly as docs/reference/api-rules.md “Scopes” (tenant) and docs/reference/live-service.md “Partner scopes” (partner).
export const PARTNER_SCOPES = [
  "read:catalog",
  "wallet:read",
  "wallet:deposit",
  "packs:purchase",
  "packs:read",
  "packs:buyback",
  "cards:redeem",
  "pool:manage",
  "webhooks:manage",
  "payout:manage",
] as const;

export const TENANT_SCOPES = [
  "read:inventory",
  "write:transfer",
  "write:withdrawal",
  "write:order",
  "write:inbound_shipment",
  "write:declared_value",
  "write:service_credit",
  "webhooks:manage",
] as const;

export const LEGACY_SCOPES = ["read:catalog"] as const;

export const ALL_SCOPES: readonly string[] = [...new Set<string>([...PARTNER_SCOPES, ...TENANT_SCOPES])];

/** The plan's per-key ceiling (Card Data; the warehouse API): docs/reference/api-rules.md “Plans”. */
export const DEFAULT_RATE_LIMIT_PER_MIN = 300;
/** Partner commerce (Gacha, Instant, wallet, webhooks) per key: docs/reference/live-service.md “Rate limits and caching”. */
export const DEFAULT_PARTNER_RATE_LIMIT_PER_MIN = 240;
/** `fresh=true` calls per key per minute on the cached reads: docs/reference/live-service.md “Rate limits and caching”. */
export const FRESH_CALLS_PER_MIN = 10;
export const FREE_CREDITS_PER_MONTH = 500;
