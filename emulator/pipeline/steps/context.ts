import type { Services } from "../services.ts";
import type { KeyRecord } from "../../state/schema.ts";
import { ApiError, internalError } from "../errors.ts";
import { asObject, MAX_JSON_BODY_BYTES, parseJson, readText } from "../body.ts";
import type { HeaderBag } from "../envelope.ts";
import type { RateDecision } from "../rate-limit.ts";
import type { Charge } from "../metering.ts";
import type { ResponseCache } from "../response-cache.ts";
import type { Stubs } from "../stubs.ts";
import type { HandlerContext, Reply, RouteSpec } from "../route.ts";

// One object per request, handed from step to step (steps/index.ts names their order): what the request
// is, and what the steps so far decided (the key, the rate-limit window in force, the charge, the answer).

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

/** What every request of one emulator's pipeline shares. */
export interface PipelineShared {
  services: Services;
  /** The answers of cached reads (`RouteSpec.cache`). */
  cache: ResponseCache;
  stubs: Stubs;
}

/** One step of the pipeline. */
export interface Step {
  /** What it does, in a few words. */
  readonly name: string;
  /** It runs also once an earlier step answered or threw (the refund and the answer). */
  readonly always?: boolean;
  /**
   * Whether it has anything to do on a route, from what the route declares alone (a cost, a cache, a gate):
   * decided once per route, when the pipeline first serves it (its plan, pipeline/plan.ts). Without it, every route.
   */
  readonly on?: (spec: RouteSpec) => boolean;
  /** On a route it is `on`, it answers or refuses: no later step runs there but the `always` ones. */
  readonly ends?: boolean;
  /** Does its part; answers by setting `reply` (or `response`), refuses by throwing an `ApiError`. */
  run(p: PipelineContext): void | Promise<void>;
}

/** A request in the pipeline: its input, then what each step found (a class: one allocation, fixed shape). */
export class PipelineContext {
  readonly services: Services;
  readonly cache: ResponseCache;
  readonly stubs: Stubs;
  readonly spec: RouteSpec;
  readonly req: Request;
  readonly params: Record<string, string>;
  readonly ip: string;
  readonly apiKey: string | null;
  readonly note: { stub?: string } | undefined;
  /** The answer's headers, starting with its `X-Request-Id`. */
  readonly headers: HeaderBag;
  readonly target: Target;
  /** One reading of the clock for the checks before the handler (the handler may wait on it). */
  readonly now: number;
  /** The authenticated key (null before authentication and on public routes). */
  key: KeyRecord | null = null;
  ipDecision: RateDecision | null = null;
  keyDecision: RateDecision | null = null;
  /** The window in force so far: written into the headers once, on the answer (X-RateLimit-* on every response). */
  window: RateDecision | null = null;
  /** `fresh=true` on a cached read: recompute, on its own budget. */
  fresh = false;
  /** Leaves the concurrency gate entered (once, when the request is done). */
  release: (() => void) | null = null;
  charge: Charge | null = null;
  /** The state the charge was taken from: a reset, restore or import meanwhile discards it (nothing to refund). */
  chargedIn = 0;
  /** The handler's context, made by the input step (its `input` parsed by the route's schema). */
  handlerContext: RouteContext | null = null;
  /** The response cache's entry of a cached read. */
  cacheEntry: string | null = null;
  /** The answer, once a step gave it (the later steps but the `always` ones are skipped). */
  reply: Reply | null = null;
  /** An answer made whole (a stub's): sent as is. */
  response: Response | null = null;
  /** The refusal or failure the answer reports. */
  error: ApiError | null = null;

  constructor(shared: PipelineShared, input: PipelineInput) {
    this.services = shared.services;
    this.cache = shared.cache;
    this.stubs = shared.stubs;
    this.spec = input.spec;
    this.req = input.req;
    this.params = input.params;
    this.ip = input.ip;
    this.apiKey = input.apiKey;
    this.note = input.note;
    this.headers = { "X-Request-Id": input.requestId };
    this.target = new Target(input.req.url);
    this.now = shared.services.clock.now();
  }

  /** Whether the answer is decided (only the `always` steps still run). */
  get answered(): boolean {
    return this.reply !== null || this.response !== null || this.error !== null;
  }

  /** Records what a step threw: an `ApiError` as is, anything else as a logged 500. */
  fail(thrown: unknown): void {
    if (thrown instanceof ApiError) this.error = thrown;
    else {
      console.error(`[emulator] ${this.spec.method} ${this.target.pathname} failed:`, thrown);
      this.error = internalError();
    }
  }
}

/** A handler's context: a class, so a request allocates one object (no closures, no accessor literals). */
export class RouteContext implements HandlerContext {
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

/**
 * The request's URL, parsed only when something reads more than its path: an href (the
 * node server and undici both hand one over normalised), so the path is a slice of it.
 */
export class Target {
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
export function rateLimited(who: string): ApiError {
  return new ApiError(429, "rate_limited", `Rate limit exceeded for ${who}; wait for Retry-After seconds`, {
    retryable: true,
  });
}
