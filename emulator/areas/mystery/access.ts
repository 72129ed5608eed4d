import type { AccessRule } from "../../pipeline/auth.ts";
import type { RouteSpec } from "../../pipeline/route.ts";

// Scopes per service-facts §2.2. Partner keys only; a tenant key gets 403.
export const partner = (scope: string, models?: AccessRule["models"]): AccessRule => ({ kinds: ["partner"], scopes: [scope], ...(models ? { models } : {}) });

export function route(method: RouteSpec["method"], path: string, access: AccessRule, gate: string, handle: RouteSpec["handle"]): RouteSpec {
  return { method, path, access, envelope: "partner", gate, handle };
}
