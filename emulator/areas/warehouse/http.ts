import type { AccessRule } from "../../pipeline/auth.ts";
import { ApiError, badRequest } from "../../pipeline/errors.ts";
import { idempotent } from "../../pipeline/idempotency.ts";
import { checkIdentifier, intId } from "../../pipeline/identifiers.ts";
import { paginate, parseOffsetPage } from "../../pipeline/pagination.ts";
import { ok, type HandlerContext, type Method, type Reply, type RouteSpec } from "../../pipeline/route.ts";
import type { KeyRecord } from "../../state/schema.ts";
import type { TenantState } from "./model.ts";
import { tenantForKey } from "./state.ts";

// Route plumbing shared by the warehouse route files: tenant-only access with
// the interface's scopes, the warehouse envelope, the read pool, body checks.

/** "Tenant key only" rows of the scope table (orders list/get, cards list/get). */
export const TENANT: AccessRule = { kinds: ["tenant"] };
export const scoped = (scope: string): AccessRule => ({ kinds: ["tenant"], scopes: [scope] });

/** Reads go through the warehouse read pool (20; 503 overloaded beyond it). */
export const read = (path: string, access: AccessRule, handle: RouteSpec["handle"]): RouteSpec => ({
  method: "GET",
  path,
  access,
  envelope: "warehouse",
  gate: "warehouse_read",
  handle,
});

export const write = (method: Method, path: string, access: AccessRule, handle: RouteSpec["handle"]): RouteSpec => ({
  method,
  path,
  access,
  envelope: "warehouse",
  handle,
});

export const keyOf = (c: HandlerContext): KeyRecord => c.key as KeyRecord;
export const tenant = (c: HandlerContext): TenantState => tenantForKey(c.services, keyOf(c));
export const now = (c: HandlerContext) => c.services.clock.nowIso();


/** An offset-paged list under `data.<name>` with `pagination`. */
export function list<T>(c: HandlerContext, name: string, rows: readonly T[], extra: Record<string, unknown> = {}): Reply {
  const { items, pagination } = paginate(rows, parseOffsetPage(c.query));
  return ok({ [name]: items, total: rows.length, ...extra }, { pagination });
}

/** Integer path parameter, in the canonical form the API hands ids out in (404 when it cannot name a record). */
export function intParam(c: HandlerContext, name: string, what: string): number {
  const raw = c.params[name];
  const id = intId(raw, name);
  if (id === null) throw new ApiError(404, "not_found", `No ${what} ${raw}`);
  return id;
}

export function optStr(b: Record<string, unknown>, name: string, code: string, max = 500): string | undefined {
  const v = b[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.trim() === "") throw badRequest(code, `${name} must be a non-empty string`);
  if (v.length > max) throw badRequest(code, `${name} must be at most ${max} characters`);
  return v;
}

export function reqStr(b: Record<string, unknown>, name: string, code: string, max = 500): string {
  const v = optStr(b, name, code, max);
  if (v === undefined) throw badRequest(code, `${name} is required`);
  return v;
}

/**
 * An identifier from a body (unique_id, account id, site id …): a non-empty
 * string (400 `code`), at most 255 characters like a path identifier
 * (400 identifier_too_long), before anything looks it up.
 */
export function optId(b: Record<string, unknown>, name: string, code: string): string | undefined {
  const v = optStr(b, name, code, Number.MAX_SAFE_INTEGER);
  if (v !== undefined) checkIdentifier(v, name);
  return v;
}

export function reqId(b: Record<string, unknown>, name: string, code: string): string {
  const v = optId(b, name, code);
  if (v === undefined) throw badRequest(code, `${name} is required`);
  return v;
}

/** An identifier from the query string (null when absent; 400 identifier_too_long over 255 characters). */
export function queryId(c: HandlerContext, name: string): string | null {
  const v = c.query.get(name);
  if (v !== null) checkIdentifier(v, name);
  return v;
}

/** USD cents: a positive integer. */
export function cents(b: Record<string, unknown>, name: string, required: boolean): number | undefined {
  const v = b[name];
  if (v === undefined || v === null) {
    if (required) throw badRequest("invalid_amount", `${name} is required (USD cents, a positive integer)`);
    return undefined;
  }
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v <= 0)
    throw badRequest("invalid_amount", `${name} must be a positive integer number of USD cents (got ${JSON.stringify(v)})`);
  return v;
}

/** A status filter checked against the allowed values (400 invalid_status). */
export function statusFilter(c: HandlerContext, allowed: readonly string[]): string | null {
  const s = c.query.get("status");
  if (s === null) return null;
  const up = s.toUpperCase();
  if (!allowed.includes(up)) throw badRequest("invalid_status", `status must be one of ${allowed.join(", ")} (got "${s.slice(0, 40)}")`);
  return up;
}

/**
 * Creates idempotently on `idempotency_key` (body) or the Idempotency-Key
 * header: a replay returns the original record with the same 201; the same key
 * on a different request is 409 idempotency_mismatch. `target` names what the
 * path adds to the request (the card of a transfer, the shipment of an
 * attachment): it is part of the fingerprint, never of the key space, so one
 * key used on two targets is a mismatch, not two creations.
 */
export function idempotentCreate(
  c: HandlerContext,
  kind: string,
  b: Record<string, unknown>,
  run: () => Reply,
  target: Record<string, string> = {},
): Promise<Reply> | Reply {
  const raw = b.idempotency_key ?? c.req.headers.get("idempotency-key") ?? undefined;
  if (raw === undefined) return run();
  if (typeof raw !== "string") throw badRequest("invalid_idempotency_key", "idempotency_key must be a string");
  const { idempotency_key: _k, ...rest } = b;
  return idempotent(
    c.services.store,
    { scope: `warehouse:${keyOf(c).account_id}:${kind}`, key: raw, fingerprint: Object.keys(target).length ? { target, body: rest } : rest, now: now(c), field: "idempotency_key" },
    run,
  );
}
