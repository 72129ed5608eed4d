import type { KeyKind, KeyRecord } from "../state/schema.ts";
import { ApiError, forbidden } from "./errors.ts";

/** Who may call a route. `kinds` is checked before scopes; both give 403, never charged. */
export type { AccessRule } from "../../contract/index.ts";
import type { AccessRule } from "../../contract/index.ts";

/** `raw`: the X-API-Key header's value (null when absent). */
export function authenticate(raw: string | null, keys: Record<string, KeyRecord>): KeyRecord {
  if (!raw) throw new ApiError(401, "API key required", "Missing API key: send it in the X-API-Key header");
  const id = raw.trim();
  const key = Object.hasOwn(keys, id) ? keys[id] : undefined;
  if (!key || !key.active) throw new ApiError(401, "API key not found or inactive", "Invalid API key");
  return key;
}

export function authorize(key: KeyRecord, rule: AccessRule): void {
  if (!rule.kinds.includes(key.kind)) throw forbidden(kindMessage(rule.kinds));
  for (const scope of rule.scopes ?? []) {
    if (!key.scopes.includes(scope)) throw forbidden(`Insufficient permissions: this key lacks the ${scope} scope`);
  }
  if (rule.models && key.billing_model && !rule.models.includes(key.billing_model)) {
    if (rule.models.includes("TIER")) throw forbidden("This endpoint is for TIER-model partners", "not_tier_partner");
    throw forbidden("Not available on your plan (POOL-model partners only)", "not_pool_partner");
  }
}

function kindMessage(kinds: readonly KeyKind[]): string {
  if (kinds.length === 1 && kinds[0] === "tenant")
    return "Insufficient permissions: a warehouse tenant key is required";
  if (kinds.includes("partner") && !kinds.includes("tenant"))
    return "Insufficient permissions: not a partner-scoped key";
  return "Insufficient permissions";
}
