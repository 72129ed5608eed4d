import type { Services } from "./services.ts";
import type { KeyRecord } from "../state/schema.ts";
import { authenticate, authorize } from "./auth.ts";
import { ApiError, documentedError, internalError } from "./errors.ts";
import { asObject, MAX_JSON_BODY_BYTES, parseJson, readText } from "./body.ts";
import { own } from "../state/own.ts";
import { errorResponse, successText, textResponse, type HeaderBag } from "./envelope.ts";
import {
  freshWindow,
  inForce,
  ipBucket,
  surfaceBucket,
  surfaceLimit,
  surfaceOf,
  uncountedWindow,
  writeRateLimitHeaders,
  type RateDecision,
} from "./rate-limit.ts";
import { isFresh, ResponseCache } from "./response-cache.ts";
import {
  balanceOf,
  isMetered,
  recordUsage,
  refund,
  settle,
  take,
  newAccount,
  writeMeteringHeader,
  type Charge,
} from "./metering.ts";
import { checkIdentifier } from "./identifiers.ts";
import { requireIdempotencyKey } from "./idempotency.ts";
import { generation, replaced } from "./generation.ts";
import { parsePart, queryObject, responseProblem } from "./schema.ts";
import { answerProblems } from "../../contract/invariants/index.ts";
import { ParseMemo, paramsKey } from "./parse-memo.ts";
import type { HandlerContext, Reply, RouteSpec } from "./route.ts";
import { stubAnswer, stubsOf } from "./stubs.ts";

// The request pipeline, in the order docs/architecture.md “Request flow” gives (route match happens in
// app.ts before this runs): public routes → per-IP budget → authentication →
// per-key budget of the route's surface → kind and scope → the fresh=true budget
// (cached reads) → a stub of the operation, if one matches (answers as told, not
// billed) → concurrency gate → metering → handler (faults, identifier checks,
// input, the response cache) → refund on 4xx/5xx.

export interface PipelineInput {
  spec: RouteSpec;
  req: Request;
  params: Record<string, string>;
  ip: string;
  /** `X-Request-Id` of this answer. */
  requestId: string;
  /** The request's X-API-Key (read from the transport without building a Headers object). */
  apiKey: string | null;
  /** Where the pipeline tells the request journal which stub answered (if one did). */
  note?: { stub?: string };
}

export function createPipeline(services: Services) {
  const cache = new ResponseCache();
  // A reset, restore or import replaces what the cached answers were computed from, and the timeline the
  // rate-limit windows counted (a key minted again after a restore has the value of one minted before it).
  services.bus.on("state.replaced", () => {
    cache.clear();
    services.limiter.clear();
  });
  const stubs = stubsOf(services);
  return async function run({ spec, req, params, ip, requestId, apiKey, note }: PipelineInput): Promise<Response> {
    const { store, clock, limiter, gates, options } = services;
    const headers: HeaderBag = { "X-Request-Id": requestId };
    const target = new Target(req.url);
    // One reading of the clock for the checks before the handler (the handler may wait on it).
    const now = clock.now();
    let release: (() => void) | null = null;
    let charge: Charge | null = null;
    // The state the charge was taken from: a reset, restore or import meanwhile discards it (nothing to refund).
    let chargedIn = 0;
    let key: KeyRecord | null = null;
    // The window in force so far: written into the headers once, on the answer (X-RateLimit-* on every response).
    let window: RateDecision | null = null;

    try {
      if (spec.access === "public") {
        // Not counted (health is the one call without a key), yet X-RateLimit-* is on every answer: where the
        // caller's window stands (docs/reference/api-rules.md “Other limits”).
        const known = apiKey ? own(store.state.keys, apiKey) : undefined;
        const ipWindow = { bucket: ipBucket(ip), limit: options.ipRateLimitPerMin };
        writeRateLimitHeaders(headers, uncountedWindow(limiter, ipWindow, known, spec.path, now));
        writeMeteringHeader(headers, known);
        const reply = await spec.handle(context(services, req, target, params, null));
        return textResponse(reply.status ?? 200, successText(reply), withReplyHeaders(headers, reply));
      }

      // X-RateLimit-* on every response: the IP's window until a key is known
      // (so a 401 carries it), then whichever window's ceiling is in force.
      const ipDecision = (window = limiter.hit(ipBucket(ip), options.ipRateLimitPerMin, now));
      if (!ipDecision.allowed) throw rateLimited("this IP address");

      key = authenticate(apiKey, store.state.keys);
      writeMeteringHeader(headers, key);

      // Each surface has its own window and ceiling (docs/reference/live-service.md “Rate limits and caching”); the headers show the one in force.
      const surface = spec.surface ?? surfaceOf(spec.path);
      const keyDecision = limiter.hit(surfaceBucket(key, surface), surfaceLimit(key, surface), now);
      window = inForce(ipDecision, keyDecision);
      if (!keyDecision.allowed) throw rateLimited("this API key");

      authorize(key, spec.access);

      // A stub answers only a caller the real route would serve, and is not billed (pipeline/stubs.ts).
      if (stubs.size && spec.operation) {
        const stub = await stubs.take(spec.operation, { key, seed: options.seed, params, url: target.url, req });
        if (stub) {
          if (note) note.stub = stub.id;
          writeRateLimitHeaders(headers, window);
          return stubAnswer(stub, headers);
        }
      }

      // fresh=true recomputes a cached read, on its own budget (10/min/key, then 429 rate_limited).
      const fresh = spec.cache !== undefined && target.hasQuery && isFresh(target.url);
      if (fresh) {
        const budget = freshWindow(key);
        const freshDecision = limiter.hit(budget.bucket, budget.limit, now);
        window = inForce(ipDecision, keyDecision, freshDecision);
        if (!freshDecision.allowed) throw rateLimited("fresh=true on this API key (10 per minute)");
      }

      if (spec.gate) {
        release = gates.tryEnter(spec.gate);
        if (!release)
          throw new ApiError(503, "overloaded", "The endpoint is at its concurrency limit; retry in a second", {
            retryable: true,
            headers: { "Retry-After": "1" },
          });
      }

      if (spec.cost !== undefined) {
        if (isMetered(key)) {
          const acct = settle((store.state.credits[key.key] ??= newAccount(now)), now);
          charge = take(acct, spec.cost);
          chargedIn = generation(services);
          if (!charge) {
            headers["X-Credits-Cost"] = "0";
            headers["X-Credits-Remaining"] = String(balanceOf(acct));
            throw new ApiError(
              402,
              "insufficient_credits",
              `This call costs ${spec.cost} credits and the balance is ${balanceOf(acct)}. Top up with POST /api/v1/credits/topup?usd=<5..1000>.`,
              { details: { cost: spec.cost, balance: balanceOf(acct) } },
            );
          }
        }
      }

      const reply = await handle(
        services,
        spec,
        req,
        target,
        params,
        key,
        spec.cache ? { cache, fresh, ttlMs: spec.cache.ttl_ms } : null,
      );
      const status = reply.status ?? 200;
      settleCharge(status);
      writeRateLimitHeaders(headers, window);
      return textResponse(status, successText(reply), withReplyHeaders(headers, reply));
    } catch (thrown) {
      const err = thrown instanceof ApiError ? thrown : unexpected(thrown, spec, target.pathname);
      // The interface: "an integration issue is opened automatically for warehouse 500s", whatever caused them.
      if (err.status === 500 && spec.envelope === "warehouse" && key)
        services.bus.emit("warehouse.internal_error", {
          account_id: key.account_id,
          method: spec.method,
          path: target.pathname,
          at: clock.nowIso(),
        });
      settleCharge(err.status);
      if (window) writeRateLimitHeaders(headers, window);
      return errorResponse(err, spec.envelope, headers);
    } finally {
      release?.();
    }

    /** Bills 2xx/304, refunds everything else; sets the credit headers. */
    function settleCharge(status: number): void {
      if (!charge || !key) return;
      // Charged from a state that was replaced while the request ran: refunding or billing it here would add to
      // the new state's balance (free credits above their ceiling) what the new state never took.
      if (replaced(services, chargedIn)) {
        charge = null;
        return;
      }
      const acct = store.state.credits[key.key];
      const billed = (status >= 200 && status < 300) || status === 304;
      if (billed) recordUsage(acct, charge.free + charge.purchased, clock.now());
      else refund(acct, charge, clock.now());
      headers["X-Credits-Cost"] = String(billed ? charge.free + charge.purchased : 0);
      headers["X-Credits-Remaining"] = String(balanceOf(acct));
      charge = null;
    }
  };
}

/** Parsed GET input, shared by every emulator in the process (the schemas are module-level, the input is plain data). */
const memo = new ParseMemo();

async function handle(
  services: Services,
  spec: RouteSpec,
  req: Request,
  target: Target,
  params: Record<string, string>,
  key: KeyRecord,
  cached: { cache: ResponseCache; fresh: boolean; ttlMs: number } | null,
): Promise<Reply> {
  const fault = services.faults.take(req.method, target.pathname);
  if (fault?.latency_ms) await services.clock.sleep(fault.latency_ms);
  if (fault && fault.status >= 400)
    throw documentedError(fault.status, fault.error, fault.message ?? `Injected fault (${fault.id})`);
  for (const name in params) checkIdentifier(params[name]!, name);
  requireIdempotencyKey(spec.operation, req.headers);
  const c = context(services, req, target, params, key);
  const schema = spec.schema;
  if (schema) {
    // Most reads carry no query: no URLSearchParams to build for them.
    const query = () =>
      target.hasQuery ? queryObject(target.url.searchParams) : (Object.create(null) as Record<string, string>);
    if (spec.method === "GET") {
      // A read asked again with the same text reuses its parsed input (parse-memo.ts).
      const p = schema.params;
      const q = schema.query;
      c.input = {
        params: p ? memo.get(p, paramsKey(params), () => parsePart("params", p, params)) : params,
        query: q ? memo.get(q, target.search, () => parsePart("query", q, query())) : query(),
        body: undefined,
      };
    } else
      c.input = {
        params: schema.params ? parsePart("params", schema.params, params) : params,
        query: schema.query ? parsePart("query", schema.query, query()) : query(),
        body: schema.body ? parsePart("body", schema.body, await c.object()) : undefined,
      };
  }
  // After the input checks (a bad query never reaches a cached answer), before the handler.
  // A recorded read (--replay) answers as recorded, once the pipeline's own rules and the input checks passed.
  const recorded = services.replay?.find(spec.method, target.pathname, target.search);
  if (recorded) return { status: recorded.status, text: recorded.body };
  const entry = cached ? ResponseCache.keyOf(key.account_id, spec.method, target.url) : null;
  if (cached && entry && !cached.fresh) {
    const hit = cached.cache.get(entry, services.clock.now());
    if (hit) return hit;
  }
  const reply = await spec.handle(c);
  if (schema && services.options.validateResponses) {
    const problem = responseProblem(schema, reply.status ?? 200, reply.data, { top: reply.top, query: c.query });
    if (problem) throw new Error(`${spec.method} ${spec.path} answered outside its schema: ${problem}`);
    // The contract's invariants hold too: the same predicates the conformance suite applies to every answer.
    const broken = spec.operation
      ? answerProblems(
          spec.operation.id,
          { status: reply.status ?? 200, data: reply.data, ...(reply.top ? { top: reply.top } : {}), headers: {} },
          { method: spec.method, url: target.url, key: key?.key ?? "" },
        )
      : [];
    if (broken.length)
      throw new Error(
        `${spec.method} ${spec.path} broke ${broken.map((b) => `invariant ${b.invariant} at ${b.pointer}: ${b.text}`).join("; ")}`,
      );
  }
  return cached && entry ? cached.cache.put(entry, reply, cached.ttlMs, services.clock.now()) : reply;
}

function context(
  services: Services,
  req: Request,
  target: Target,
  params: Record<string, string>,
  key: KeyRecord | null,
): HandlerContext {
  return new Context(services, req, target, params, key);
}

/** A handler's context: a class, so a request allocates one object (no closures, no accessor literals). */
class Context implements HandlerContext {
  input: HandlerContext["input"];
  private body: Promise<unknown> | null = null;
  constructor(
    readonly services: Services,
    readonly req: Request,
    private readonly target: Target,
    readonly params: Record<string, string>,
    readonly key: KeyRecord | null,
  ) {
    this.input = { params, query: {}, body: undefined };
  }
  get url(): URL {
    return this.target.url;
  }
  get query(): URLSearchParams {
    return this.target.url.searchParams;
  }
  json<T = unknown>(): Promise<T> {
    this.body ??= readText(this.req, MAX_JSON_BODY_BYTES).then(parseJson);
    return this.body as Promise<T>;
  }
  async object(): Promise<Record<string, unknown>> {
    return asObject(await this.json());
  }
}

function withReplyHeaders(headers: HeaderBag, reply: Reply): HeaderBag {
  if (reply.headers) Object.assign(headers, reply.headers);
  return headers;
}

/**
 * The request's URL, parsed only when something reads more than its path: an href (the
 * node server and undici both hand one over normalised), so the path is a slice of it.
 */
class Target {
  private parsed: URL | null = null;
  readonly pathname: string;
  readonly hasQuery: boolean;
  constructor(readonly href: string) {
    const start = href.indexOf("/", href.indexOf(":") + 3);
    const q = href.indexOf("?", start);
    const h = href.indexOf("#", start);
    const end = q === -1 ? (h === -1 ? href.length : h) : h === -1 ? q : Math.min(q, h);
    this.pathname = start === -1 ? "/" : href.slice(start, end);
    this.hasQuery = q !== -1 && (h === -1 || q < h) && q + 1 < (h === -1 ? href.length : h);
  }
  /** The query as sent (without `?`), "" when none. */
  get search(): string {
    if (!this.hasQuery) return "";
    const q = this.href.indexOf("?", this.href.indexOf("/", this.href.indexOf(":") + 3));
    const h = this.href.indexOf("#", q);
    return this.href.slice(q + 1, h === -1 ? undefined : h);
  }
  get url(): URL {
    return (this.parsed ??= new URL(this.href));
  }
}

/** The window's headers (Retry-After included) are already on the response. */
function rateLimited(who: string): ApiError {
  return new ApiError(429, "rate_limited", `Rate limit exceeded for ${who}; wait for Retry-After seconds`, {
    retryable: true,
  });
}

function unexpected(thrown: unknown, spec: RouteSpec, pathname: string): ApiError {
  console.error(`[emulator] ${spec.method} ${pathname} failed:`, thrown);
  return internalError();
}
