import { ok, type RouteSpec } from "../../pipeline/route.ts";
import { keyOf } from "./http.ts";
import { tenantForKey } from "./state.ts";

// GET /api/v1/info verifies a key. The interface lists it with the warehouse
// endpoints; the SDK README says it also reports a partner's billing model
// (TIER vs POOL). So it answers every key kind: a tenant gets its tenant,
// scopes, plan and rate limit; a partner its slug and billing_model. One route,
// one envelope: the warehouse one (401s carry `code`).

const PLAN = "Pay as you go";

export const infoRoute: RouteSpec = {
  method: "GET",
  path: "/info",
  access: { kinds: ["tenant", "partner", "legacy"] },
  envelope: "warehouse",
  handle(c) {
    const key = keyOf(c);
    const common = {
      key: { kind: key.kind, label: key.label, scopes: [...key.scopes], created_at: key.created_at },
      plan: PLAN,
      rate_limit: { limit_per_min: key.rate_limit_per_min, window_seconds: 60 },
    };
    if (key.kind === "tenant") {
      const t = tenantForKey(c.services, key);
      return ok({ ...common, tenant: { account_id: t.account_id, name: t.name, unique_id_prefix: `CARD-${t.prefix}` } });
    }
    if (key.kind === "partner")
      return ok({ ...common, partner: { slug: key.account_id, billing_model: key.billing_model ?? "TIER" }, billing_model: key.billing_model ?? "TIER" });
    return ok({ ...common, metering: "unmetered" });
  },
};
