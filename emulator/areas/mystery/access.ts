import type { AccessRule } from "../../pipeline/auth.ts";
import { defineRoute, type Method, type Reply, type RouteSpec, type TypedContext } from "../../pipeline/route.ts";
import type { RouteSchema } from "../../pipeline/schema.ts";

// Scopes per docs/reference/live-service.md “Partner scopes”. Partner keys only; a tenant key gets 403.
export const partner = (scope: string, models?: AccessRule["models"]): AccessRule => ({ kinds: ["partner"], scopes: [scope], ...(models ? { models } : {}) });

export function route(method: RouteSpec["method"], path: string, access: AccessRule, gate: string, handle: RouteSpec["handle"]): RouteSpec {
  return { method, path, access, envelope: "partner", gate, handle };
}

/** `route` with a schema: the handler gets `c.input` parsed and typed (pipeline/schema.ts). */
export const schemaRoute = <S extends RouteSchema>(
  method: Method,
  path: string,
  access: AccessRule,
  gate: string,
  schema: S,
  handle: (c: TypedContext<S>) => Reply | Promise<Reply>,
): RouteSpec => defineRoute({ method, path, access, envelope: "partner", gate, schema, handle });
