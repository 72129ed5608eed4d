import type { Operation } from "../../../contract/index.ts";
import { ApiError } from "../../pipeline/errors.ts";
import { idempotent } from "../../pipeline/idempotency.ts";
import { intId } from "../../pipeline/identifiers.ts";
import { paginate, type OffsetPage } from "../../pipeline/pagination.ts";
import { ok, serve, type HandlerContext, type Reply, type RouteSpec, type TypedContext } from "../../pipeline/route.ts";
import type { RouteSchema } from "../../pipeline/schema.ts";
import type { KeyRecord } from "../../state/schema.ts";
import type { TenantState } from "./model.ts";
import { tenantForKey } from "./state.ts";

// Route plumbing shared by the warehouse route files: the read pool, lists,
// path ids and idempotent creates. What each route takes and answers, who may
// call it and its envelope are its contract operation (contract/warehouse/).

type Handler<S extends RouteSchema> = (c: TypedContext<S>) => Reply | Promise<Reply>;

/** Reads go through the warehouse read pool (20; 503 overloaded beyond it). */
export const read = <S extends RouteSchema>(op: Operation<S>, handle: Handler<S>): RouteSpec =>
  serve(op, { gate: "warehouse_read", handle });

export const write = <S extends RouteSchema>(op: Operation<S>, handle: Handler<S>): RouteSpec => serve(op, { handle });

export const keyOf = (c: HandlerContext): KeyRecord => c.key as KeyRecord;
export const tenant = (c: HandlerContext): TenantState => tenantForKey(c.services, keyOf(c));
export const now = (c: HandlerContext) => c.services.clock.nowIso();

/** An offset-paged list under `data.<name>` with `total` and `pagination`; `wire` shows each row of the page. */
export function list<T, W>(name: string, rows: readonly T[], page: OffsetPage, wire: (row: T) => W): Reply {
  const { items, pagination } = paginate(rows, page);
  return ok({ [name]: items.map(wire), total: rows.length }, { pagination });
}

/** An integer path id, in the canonical form the API hands ids out in (404 when it cannot name a record). */
export function intParam(raw: string, name: string, what: string): number {
  const id = intId(raw, name);
  if (id === null) throw new ApiError(404, "not_found", `No ${what} ${raw}`);
  return id;
}

export interface IdempotentOptions {
  /** The body field holding the key (its shape is checked by the route's schema). */
  field?: "idempotency_key" | "submission_key";
  /** What the path adds to the request (the card of a transfer, the shipment of an attachment). */
  target?: Record<string, string>;
  /** Shapes a replay (inbound shipments answer 200 with created: false). */
  replay?: (original: Reply) => Reply;
}

/**
 * Creates idempotently on the body's key (or, for `idempotency_key`, the
 * Idempotency-Key header): a replay returns the original record with the same
 * 201; the same key on a different request is 409 idempotency_mismatch. The
 * fingerprint is the body as sent, without the key; `target` is part of it,
 * never of the key space, so one key used on two targets is a mismatch, not
 * two creations.
 */
export async function idempotentCreate(
  c: HandlerContext,
  kind: string,
  key: string | null | undefined,
  run: () => Reply | Promise<Reply>,
  opts: IdempotentOptions = {},
): Promise<Reply> {
  const field = opts.field ?? "idempotency_key";
  const raw = key ?? (field === "idempotency_key" ? c.req.headers.get("idempotency-key") : null);
  if (raw === null) return run();
  const { [field]: _key, ...sent } = await c.object();
  const target = opts.target ?? {};
  return idempotent(
    c.services,
    {
      scope: `warehouse:${keyOf(c).account_id}:${kind}`,
      key: raw,
      fingerprint: Object.keys(target).length ? { target, body: sent } : sent,
      now: now(c),
      field,
      replay: opts.replay,
    },
    run,
  );
}
