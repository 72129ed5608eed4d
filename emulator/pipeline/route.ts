import type { KeyRecord } from "../state/schema.ts";
import type { Services } from "./services.ts";
import type { AccessRule } from "./auth.ts";
import type { EnvelopeKind } from "./errors.ts";
import type { ParsedInput, RouteSchema, z } from "./schema.ts";
import type { Operation } from "../../contract/index.ts";
import type { Surface } from "./rate-limit.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Pagination {
  limit: number;
  offset: number;
  has_more: boolean;
  next_offset?: number;
}

/** What a handler returns; the pipeline turns it into the envelope. */
export interface Reply {
  status?: number;
  data?: unknown;
  pagination?: Pagination;
  /** Extra top-level fields beside `data` (Card Data's page, page_size, total_count, language). */
  top?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** `data` already serialised (must equal JSON.stringify(data)); lets hot paths reuse cached JSON. */
  dataJson?: string;
  /** The whole success body already serialised (must equal what `successText` writes for this reply): a cached answer sent as is. */
  text?: string;
  /** Control plane only: a ready-made response sent as is (binary bodies such as fixture images). */
  raw?: Response;
}

export interface HandlerContext {
  req: Request;
  url: URL;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The authenticated key (null only on public routes). */
  key: KeyRecord | null;
  services: Services;
  /** Parsed JSON body; 400 invalid_json when it is not JSON. */
  json<T = unknown>(): Promise<T>;
  /** The JSON body as an object (`{}` when empty); 400 invalid_json for anything else. */
  object(): Promise<Record<string, unknown>>;
  /** The request parsed by the route's schema (without one: the raw params and query, no body). */
  input: ParsedInput;
}

export interface RouteSpec {
  /** The contract operation this route serves (its id names it in the OpenAPI document). */
  operation?: Operation;
  method: Method;
  /** Hono path under /api/v1, e.g. `/:game{pokemon|onepiece|azuki}/cards`. */
  path: string;
  /** `public`: no key, not rate limited (only GET /health). */
  access: AccessRule | "public";
  envelope: EnvelopeKind;
  /** Credits per call; metered routes carry the credit headers. */
  cost?: number;
  /** Concurrency gate name (see concurrency.ts). */
  gate?: string;
  /** Whose rate-limit window counts the route; absent: worked out from the path once (rate-limit.ts `surfaceOf`). */
  surface?: Surface;
  /** A cached read: a 200 is served again for `ttl_ms` until `fresh=true` recomputes it (response-cache.ts). */
  cache?: { ttl_ms: number };
  /** What the route takes and answers: validated by the pipeline, written into the OpenAPI document. */
  schema?: RouteSchema;
  handle(ctx: HandlerContext): Reply | Promise<Reply>;
}

type Out<T> = T extends z.ZodType ? z.output<T> : Record<string, never>;

/** The input a route's schema parses, typed (API and control-plane routes alike). */
export interface InputOf<S extends RouteSchema> {
  params: Out<S["params"]>;
  query: Out<S["query"]>;
  body: S["body"] extends z.ZodType ? z.output<S["body"]> : undefined;
}

/** The handler's context with its input typed by the route's schema. */
export interface TypedContext<S extends RouteSchema> extends HandlerContext {
  input: InputOf<S>;
}

export const ok = (data: unknown, rest: Omit<Reply, "data"> = {}): Reply => ({ status: 200, data, ...rest });
export const created = (data: unknown, rest: Omit<Reply, "data"> = {}): Reply => ({ status: 201, data, ...rest });
export const accepted = (data: unknown, rest: Omit<Reply, "data"> = {}): Reply => ({ status: 202, data, ...rest });

/** What the emulator adds to a contract operation to serve it; the request is parsed by the contract's schema alone. */
export interface Serving<S extends RouteSchema> {
  gate?: string;
  surface?: Surface;
  cache?: { ttl_ms: number };
  handle(c: TypedContext<S>): Reply | Promise<Reply>;
}

/** A route serving a contract operation: method, path, access, envelope, cost and answers come from the contract. */
export function serve<S extends RouteSchema>(op: Operation<S>, run: Serving<S>): RouteSpec {
  const spec: RouteSpec = {
    operation: op,
    method: op.method,
    path: op.path,
    access: op.access,
    envelope: op.envelope,
    schema: op.schema,
    ...run,
    handle: run.handle as RouteSpec["handle"],
  };
  if (op.cost !== undefined) spec.cost = op.cost;
  return spec;
}
