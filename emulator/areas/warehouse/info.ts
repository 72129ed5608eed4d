import { WAREHOUSE_ACTIVITY, type KeyInfo } from "../../../contract/index.ts";
import { ok, type RouteSpec } from "../../pipeline/route.ts";
import { keyOf, read } from "./http.ts";
import { tenantForKey } from "./state.ts";

// GET /api/v1/info verifies a key. The interface lists it among the warehouse
// endpoints, and a non-tenant key on a warehouse endpoint is 403 (Insufficient
// permissions), so it is tenant-only like every other warehouse route, and as
// a read it goes through the warehouse read pool. (The SDK README's use of it
// to report a partner's billing model is not in the interface, which wins.)

const PLAN = "Pay as you go";

export const infoRoute: RouteSpec = read(WAREHOUSE_ACTIVITY.info, (c) => {
  const key = keyOf(c);
  const t = tenantForKey(c.services, key);
  // The route is tenant-only, so the key's kind is tenant.
  const info: KeyInfo = {
    key: { kind: "tenant", label: key.label, scopes: [...key.scopes], created_at: key.created_at },
    plan: PLAN,
    rate_limit: { limit_per_min: key.rate_limit_per_min, window_seconds: 60 },
    tenant: { account_id: t.account_id, name: t.name, unique_id_prefix: `CARD-${t.prefix}` },
  };
  return ok(info);
});
