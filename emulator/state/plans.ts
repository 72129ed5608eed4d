// The plans, scopes and limits every part reads (interface.md "Limits" and the
// scope table; service-facts §2.2 for partner scopes): one place for each value.

// Scopes exactly as the interface document's table (tenant) and service-facts §2.2 (partner).
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

export const DEFAULT_RATE_LIMIT_PER_MIN = 300;
export const FREE_CREDITS_PER_MONTH = 500;
