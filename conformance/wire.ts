import { OPERATIONS, operationMatcher, pointer, z, type Operation, type ResponseSpec } from "../contract/index.ts";
import type { Exchange } from "../harness/http.ts";
import { answerProblems, SequenceMemory, type Broken } from "../contract/invariants/index.ts";
import { webhookHeader } from "../contract/webhook-signature.ts";

// What every answer of the target must be, whatever the check that asked for
// it: the body against its operation's schema (matched by method and path in
// the contract, never from the target's internals, so it works against any
// URL), the envelope, the media type, the headers the references put on every
// response with consistent values, each page's paging fields, and, across the
// calls of one check, rate-limit and credit headers that agree with each other.
// A broken rule is a failure naming the JSON pointer (or header) and the
// expected versus the received value; a field the schema does not know is a
// warning (the live service may be newer than the suite).

const API = "/api/v1";

export interface Finding {
  level: "failure" | "warning";
  text: string;
  /** Which rule of which reference this is (docs/conformance.md lists them). */
  rule: WireRule;
  /** For rule `invariant`: the id of the broken invariant (contract/invariants/). */
  invariant?: string;
}

/** The rules every answer is held to, each with its source. */
export const WIRE_RULES = {
  schema: "issue 12 / docs/reference/api-rules.md “Resources”: each answer's data matches its route's schema",
  envelope:
    "docs/reference/api-rules.md “Response envelope” and “Errors”: {success:true, data, pagination?} or {success:false, message, error} (warehouse: + code)",
  media:
    "docs/reference/live-service.md “Hosts and request ids”: the service is HTTP/JSON; every answer is application/json, UTF-8 (RFC 8259 §8.1: a charset parameter other than utf-8 fails)",
  requestId:
    "docs/reference/live-service.md “Hosts and request ids” (X-Request-Id read by the SDK): every answer carries its own X-Request-Id",
  status: "the route's declared answers (OpenAPI document): a success status the route does not declare is wrong",
  rateHeaders:
    "docs/reference/api-rules.md “Other limits”: X-RateLimit-* on every response (GET /health too, though not counted); Limit is the ceiling in force; 0 ≤ Remaining ≤ Limit",
  rateSequence:
    "docs/reference/api-rules.md “Other limits” (rolling 60 s window): each counted request lowers X-RateLimit-Remaining by at least one until the window slides",
  retryAfter:
    "docs/reference/api-rules.md “Errors”: 429 and retryable 503 carry Retry-After (whole seconds > 0); 429 has X-RateLimit-Remaining 0",
  creditHeaders:
    "docs/reference/api-rules.md “Credits and billing”: metered 2xx carry X-Credits-Cost (the route's cost) and X-Credits-Remaining; a 4xx/5xx is refunded (cost 0); 401/403/429 come before metering; a route that is not metered (commerce, warehouse, webhooks: billed on volume) charges nothing",
  creditSequence:
    "docs/reference/api-rules.md “Credits and billing”: X-Credits-Remaining is the balance after the call, so it falls by exactly X-Credits-Cost from one call to the next",
  paging:
    "docs/reference/api-rules.md “Response envelope” / docs/reference/live-service.md “Pagination”: pagination {limit, offset, has_more} and Card Data page/page_size/total_count agree with the rows of every page",
  invariant:
    "contract/invariants/: every invariant governing the operation holds on each answer (relations, order, value domains) and across answers (a record read twice, a write then a read); each names its reference sentence",
} as const;
export type WireRule = keyof typeof WIRE_RULES;

const match = operationMatcher(OPERATIONS, API);

/** The contract operation answering `method path`, or null (the suite judges any target by the contract alone). */
export function routeFor(method: string, pathname: string): Operation | null {
  return match(method, pathname);
}

export { pointer };

function at(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const k of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[String(k)];
  }
  return v;
}

export function shown(v: unknown): string {
  if (v === undefined) return "nothing (missing)";
  const json = JSON.stringify(v);
  const text = json.length > 60 ? `${json.slice(0, 57)}…` : json;
  return `${text} (${v === null ? "null" : Array.isArray(v) ? "array" : typeof v})`;
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  values?: unknown[];
  keys?: string[];
  errors?: Issue[][];
}

function expectedOf(i: Issue): string {
  if (i.code === "invalid_type") return i.expected ?? i.message;
  if (i.code === "invalid_value" && i.values) return `one of ${i.values.map((v) => JSON.stringify(v)).join(", ")}`;
  return i.message;
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  valueType?: z.ZodType;
  in?: z.ZodType;
  getter?: () => z.ZodType;
  items?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
}
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/**
 * Fields of `value` that `schema` does not know (zod strips them silently from a plain object), as
 * pointers under `base`. A union follows the option the value matches.
 */
function unknownFields(schema: z.ZodType | undefined, value: unknown, base: PropertyKey[], out: PropertyKey[][]): void {
  if (!schema || value === null || value === undefined) return;
  const d = defOf(schema);
  switch (d.type) {
    case "object": {
      if (typeof value !== "object" || Array.isArray(value)) return;
      const shape = d.shape ?? {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (Object.hasOwn(shape, k)) unknownFields(shape[k], v, [...base, k], out);
        else if (!d.catchall) out.push([...base, k]);
        else unknownFields(d.catchall, v, [...base, k], out);
      }
      return;
    }
    case "array":
      if (Array.isArray(value)) value.forEach((v, i) => unknownFields(d.element, v, [...base, i], out));
      return;
    case "tuple":
      if (Array.isArray(value)) value.forEach((v, i) => unknownFields(d.items?.[i], v, [...base, i], out));
      return;
    case "record":
      if (value && typeof value === "object")
        for (const [k, v] of Object.entries(value)) unknownFields(d.valueType, v, [...base, k], out);
      return;
    case "union":
      return unknownFields(
        d.options?.find((o) => o.safeParse(value).success),
        value,
        base,
        out,
      );
    case "intersection":
      // Either side knows a field of the other; report only what neither knows.
      {
        const l: PropertyKey[][] = [];
        const r: PropertyKey[][] = [];
        unknownFields(d.left, value, base, l);
        unknownFields(d.right, value, base, r);
        const rs = new Set(r.map(pointer));
        out.push(...l.filter((p) => rs.has(pointer(p))));
      }
      return;
    case "pipe":
      return unknownFields(d.in, value, base, out);
    case "lazy":
      return unknownFields(d.getter?.(), value, base, out);
    default:
      if (d.innerType) unknownFields(d.innerType, value, base, out);
  }
}

/**
 * The schema an answer's `data` must match: the route's main shape, or its declared variant when the
 * request carries the variant's query parameter (Card Data's `select=`), so a missing field is never
 * excused as a selection nobody asked for.
 */
export function forRequest(spec: ResponseSpec, query: URLSearchParams): z.ZodType | undefined {
  return spec.variant && query.has(spec.variant.query) ? spec.variant.data : spec.data;
}

/** Checks `data` against a schema: failures (pointer, expected, received) and unknown fields (warnings). */
export function schemaFindings(
  schema: z.ZodType,
  data: unknown,
  base: PropertyKey[] = ["data"],
): { failures: string[]; unknown: string[] } {
  const failures: string[] = [];
  const unknown: string[] = [];
  const res = schema.safeParse(data);
  const visit = (issues: readonly Issue[], prefix: PropertyKey[]) => {
    for (const i of issues) {
      const path = [...prefix, ...i.path];
      if (i.code === "unrecognized_keys") for (const k of i.keys ?? []) unknown.push(pointer([...base, ...path, k]));
      else if (i.code === "invalid_union" && i.errors?.length) {
        // The option the value comes nearest to explains the mismatch best.
        const wrong = (branch: Issue[]) => branch.filter((b) => b.code !== "unrecognized_keys").length;
        visit([...i.errors].sort((a, b) => wrong(a) - wrong(b))[0]!, path);
      } else
        failures.push(`${pointer([...base, ...path])}: expected ${expectedOf(i)}, received ${shown(at(data, path))}`);
    }
  };
  if (!res.success) visit(res.error.issues as unknown as Issue[], []);
  if (failures.length === 0) {
    const found: PropertyKey[][] = [];
    unknownFields(schema, data, base, found);
    unknown.push(...found.map(pointer));
  }
  return { failures, unknown };
}

/** A broken invariant as a failure names it: rule id, operation, pointer, and the answer's request id. */
export const brokenText = (b: Broken, requestId: string | undefined): string =>
  `invariant ${b.invariant} broken by ${b.operation} at ${b.pointer}: ${b.text} (X-Request-Id ${requestId ?? "none"})`;

/** A broken delivery invariant, named by the delivery's id (a delivery has no X-Request-Id). */
export const brokenDeliveryText = (b: Broken, deliveryId: string | undefined): string =>
  `invariant ${b.invariant} broken by ${b.operation} at ${b.pointer || "the body"}: ${b.text} (X-Mystery-Delivery ${deliveryId ?? "none"})`;

/** One delivery as the suite's receiver got it. */
export interface ReceivedDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

const isInt = (s: string | undefined): boolean => s !== undefined && /^-?\d+$/.test(s);
const leadingInt = (s: string | null): number | null => {
  const m = s === null ? null : /^\s*(-?\d+)/.exec(s);
  return m ? Number(m[1]) : null;
};
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Keys of the success envelope: `pagination` on lists, Card Data's page fields beside `data`. */
const SUCCESS_KEYS = new Set(["success", "data", "pagination", "page", "page_size", "total_count", "language"]);
const ERROR_KEYS = new Set(["success", "message", "error", "code", "details", "retryable", "data"]);
/** A 402 challenge may also carry the x402 PaymentRequired in its body (x402 v2 HTTP transport). */
const X402_KEYS = new Set(["x402Version", "accepts", "resource", "extensions", "error"]);
/** Statuses the pipeline answers on any keyed route before or around the handler. */
const PIPELINE_STATUSES = new Set([400, 401, 403, 404, 413, 429, 500, 503]);

/** The rows of a list answer: `data` itself, or its one array-valued field (data.cards, data.items …). */
function rowsOf(data: unknown): unknown[] | null {
  if (Array.isArray(data)) return data;
  if (!isObj(data)) return null;
  const arrays = Object.values(data).filter(Array.isArray);
  return arrays.length === 1 ? (arrays[0] as unknown[]) : null;
}

interface RateSeen {
  limit: number;
  remaining: number;
  reset: number;
  /** After a 429, when its Retry-After ran out (performance.now() ms): the window has slid by then. */
  slid?: number;
}

/**
 * One check's view of the wire: validates each answer as it arrives and keeps
 * what the next answer must agree with (per key: the rate-limit window and the
 * credit balance). A call to the control plane forgets both (it may move the
 * clock or change balances).
 */
export class WireSession {
  /**
   * `realtime`: the target's clock is the wall clock (sandbox and read-only modes, where no control
   * plane moves it): a key's window may slide between two answers once its Reset second is near,
   * as earlier traffic on the partner's key leaves it. `now`: the target's time in ms (default the wall clock; the
   * suite's WaitClock when a test hands in the target's own).
   */
  constructor(private readonly opts: { realtime?: boolean; now?: () => number } = {}) {}

  readonly findings: Finding[] = [];
  private readonly requestIds = new Set<string>();
  private readonly rate = new Map<string, RateSeen>();
  private readonly balance = new Map<string, number>();
  private readonly warned = new Set<string>();
  /** Per key, when its last answer arrived: a call sent before that overlapped it, and overlapping calls have no order. */
  private readonly lastEnd = new Map<string, number>();
  private readonly sequences = new SequenceMemory();
  /** The webhooks the answers registered or changed: id → URL and the signing secret registration showed. */
  private readonly hooks = new Map<unknown, { url: unknown; secret?: string }>();

  /** Validates one webhook delivery the suite's receiver got; returns its failures (the delivery invariants). */
  observeDelivery(d: ReceivedDelivery): Finding[] {
    const secrets = [...this.hooks.values()].flatMap((h) => (h.url === d.url && h.secret ? [h.secret] : []));
    const id = webhookHeader(d.headers, "delivery");
    const found: Finding[] = this.sequences.observeDelivery({ ...d, secrets }).map((b) => ({
      level: "failure",
      rule: "invariant",
      text: `POST ${d.url} (a delivery): ${brokenDeliveryText(b, id)}`,
      invariant: b.invariant,
    }));
    this.findings.push(...found);
    return found;
  }

  /** Remembers a webhook's URL and secret from a register or change answer (the delivery signature rule needs them). */
  private webhookSeen(route: Operation, status: number, data: unknown): void {
    if (status >= 400 || !route.id.startsWith("webhooks.") || !isObj(data)) return;
    const w = isObj(data.webhook) ? data.webhook : data;
    if (w.id === undefined || typeof w.url !== "string") return;
    const known = this.hooks.get(w.id);
    const secret = typeof w.signing_secret === "string" ? w.signing_secret : known?.secret;
    this.hooks.set(w.id, { url: w.url, ...(secret ? { secret } : {}) });
  }

  /** Validates one exchange; returns the failures it found (warnings are kept in `findings`). */
  observe(x: Exchange): Finding[] {
    const path = x.url.pathname;
    if (path.startsWith("/_emulator")) {
      this.rate.clear();
      this.balance.clear();
      // Only a reset starts records over (ids are reused); a moved clock only moves them forward.
      if (path.startsWith("/_emulator/reset")) this.sequences.forget();
      // An operator's restock or a state put back moves stock no answer showed: the running stock readings start over.
      else if (x.method !== "GET" && /restock|state|restore|import|snapshot/.test(path)) this.sequences.forgetCarried();
      // A rotated secret is shown to the operator only: the session no longer knows the one deliveries use.
      if (path.endsWith("/rotate-secret")) for (const h of this.hooks.values()) delete h.secret;
      return [];
    }
    if (!path.startsWith(API + "/") && path !== API) return [];
    const route = routeFor(x.method, path);
    const found: Finding[] = [];
    const call = `${x.method} ${path}${x.url.search} → ${x.result.status}`;
    const fail = (rule: WireRule, text: string, invariant?: string) =>
      found.push({ level: "failure", rule, text: `${call}: ${text}`, ...(invariant ? { invariant } : {}) });
    const warn = (rule: WireRule, text: string) => {
      const id = `${x.method} ${route?.path ?? path} ${text}`;
      if (this.warned.has(id)) return;
      this.warned.add(id);
      found.push({ level: "warning", rule, text: `${x.method} ${path} → ${x.result.status}: ${text}` });
    };
    const key = x.requestHeaders["x-api-key"] ?? "";
    const end = x.startedAt + x.ms;
    const sequential = !key || x.startedAt >= (this.lastEnd.get(key) ?? -Infinity);
    if (key) this.lastEnd.set(key, Math.max(end, this.lastEnd.get(key) ?? -Infinity));
    this.check(x, route, fail, warn, sequential);
    this.findings.push(...found);
    return found.filter((f) => f.level === "failure");
  }

  private check(
    x: Exchange,
    route: Operation | null,
    fail: (r: WireRule, t: string, invariant?: string) => void,
    warn: (r: WireRule, t: string) => void,
    sequential: boolean,
  ): void {
    const { status, headers: h, body } = x.result;
    const ctype = h["content-type"] ?? "";
    if (!/^application\/json\s*(;|$)/i.test(ctype))
      fail("media", `Content-Type must be application/json, received ${shown(h["content-type"])}`);
    // JSON is UTF-8 (RFC 8259 §8.1): a charset parameter, when sent, says so.
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(ctype)?.[1];
    if (charset !== undefined && charset.toLowerCase() !== "utf-8")
      fail("media", `Content-Type's charset must be utf-8 (RFC 8259 §8.1), received ${shown(h["content-type"])}`);
    const rid = h["x-request-id"];
    if (!rid) fail("requestId", "X-Request-Id must be on every answer, received nothing");
    else if (this.requestIds.has(rid)) fail("requestId", `X-Request-Id ${rid} was already given to an earlier answer`);
    else this.requestIds.add(rid);

    const envelope = route?.envelope ?? "partner";
    if (!isObj(body)) {
      fail("envelope", `the body must be a JSON object envelope, received ${shown(x.result.text.slice(0, 60))}`);
      return;
    }
    if (status < 400) {
      if (body.success !== true) fail("envelope", `/success: expected true, received ${shown(body.success)}`);
      if (!("data" in body)) fail("envelope", "/data: expected the payload, received nothing (missing)");
      for (const k of Object.keys(body))
        if (!SUCCESS_KEYS.has(k)) warn("envelope", `/${k}: a field the envelope does not know`);
    } else {
      if (body.success !== false) fail("envelope", `/success: expected false, received ${shown(body.success)}`);
      if (typeof body.message !== "string")
        fail("envelope", `/message: expected string, received ${shown(body.message)}`);
      if (typeof body.error !== "string") fail("envelope", `/error: expected string, received ${shown(body.error)}`);
      if (envelope === "warehouse" && typeof body.code !== "string")
        fail("envelope", `/code: expected string (the warehouse's machine code), received ${shown(body.code)}`);
      if ("details" in body && !isObj(body.details))
        fail("envelope", `/details: expected object, received ${shown(body.details)}`);
      if ("retryable" in body && typeof body.retryable !== "boolean")
        fail("envelope", `/retryable: expected boolean, received ${shown(body.retryable)}`);
      for (const k of Object.keys(body))
        if (!ERROR_KEYS.has(k) && !(status === 402 && X402_KEYS.has(k)))
          warn("envelope", `/${k}: a field the error envelope does not know`);
    }

    if (route?.schema) {
      const declared = route.schema.responses[status];
      const pipeline =
        PIPELINE_STATUSES.has(status) ||
        (status === 402 && (route.cost !== undefined || /\/credits\//.test(route.path)));
      if (!declared && status < 400)
        fail("status", `the route declares ${Object.keys(route.schema.responses).join(", ")}, not ${status}`);
      else if (!declared && !pipeline)
        fail(
          "status",
          `status ${status} is not among the route's declared answers (${Object.keys(route.schema.responses).join(", ")})`,
        );
      const shape = declared && forRequest(declared, x.url.searchParams);
      if (shape && status < 400) {
        const { failures, unknown } = schemaFindings(shape, body.data);
        for (const f of failures) fail("schema", f);
        for (const u of unknown) warn("schema", `${u}: a field the route's schema does not know`);
      }
      const code = envelope === "warehouse" ? body.code : body.error;
      if (
        status >= 400 &&
        declared?.codes?.length &&
        typeof code === "string" &&
        !declared.codes.includes(code) &&
        !pipeline
      )
        fail(
          "status",
          `code ${JSON.stringify(code)} is not among the codes the route declares for ${status} (${declared.codes.join(", ")})`,
        );
    }

    this.headers(x, route, fail, sequential);
    if (status < 400) this.paging(x, route, body, fail);
    if (route) for (const b of this.invariants(x, route, body)) fail("invariant", brokenText(b, rid), b.invariant);
    if (route) this.webhookSeen(route, status, body.data);
  }

  /** Every invariant governing the route, on this answer and against the answers before it. */
  private invariants(x: Exchange, route: Operation, body: Obj): Broken[] {
    const { status, headers } = x.result;
    const answer = { status, data: status < 400 ? body.data : body, top: body, headers };
    const request = { method: x.method, url: x.url, key: x.requestHeaders["x-api-key"] ?? "" };
    return [
      ...answerProblems(route.id, answer, request),
      ...this.sequences.observe(route.id, answer, request, { start: x.startedAt, end: x.startedAt + x.ms }),
    ];
  }

  /** `sequential`: the call did not overlap the key's previous one, so the two can be compared. */
  private headers(
    x: Exchange,
    route: Operation | null,
    fail: (r: WireRule, t: string) => void,
    sequential: boolean,
  ): void {
    const { status, headers: h } = x.result;
    const key = x.requestHeaders["x-api-key"] ?? "";
    const names = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"];
    const bad = names.filter((n) => !isInt(h[n]));
    for (const n of bad) fail("rateHeaders", `${n} must be an integer, received ${shown(h[n])}`);
    if (bad.length === 0) {
      const cur = {
        limit: Number(h["x-ratelimit-limit"]),
        remaining: Number(h["x-ratelimit-remaining"]),
        reset: Number(h["x-ratelimit-reset"]),
      };
      if (cur.limit < 1) fail("rateHeaders", `X-RateLimit-Limit must be a positive ceiling, received ${cur.limit}`);
      if (cur.remaining < 0 || cur.remaining > cur.limit)
        fail("rateHeaders", `X-RateLimit-Remaining must lie in 0..${cur.limit} (the Limit), received ${cur.remaining}`);
      if (cur.reset < 1_000_000_000 || cur.reset >= 100_000_000_000)
        fail("rateHeaders", `X-RateLimit-Reset must be unix seconds (10 digits), received ${cur.reset}`);
      if (status === 429 && cur.remaining !== 0)
        fail("retryAfter", `a 429 must show X-RateLimit-Remaining 0, received ${cur.remaining}`);
      // Counted requests of a known key (a matched route, past authentication) share one window; health is not counted.
      if (route && route.access !== "public" && status !== 401 && key) {
        const prev = this.rate.get(key);
        const waitedOut =
          (prev?.slid !== undefined && x.startedAt >= prev.slid) ||
          (this.opts.realtime === true && prev !== undefined && (this.opts.now ?? Date.now)() / 1000 >= prev.reset - 2);
        if (sequential && prev && !waitedOut && prev.limit === cur.limit && cur.reset <= prev.reset) {
          if (cur.reset < prev.reset)
            fail("rateSequence", `X-RateLimit-Reset went back from ${prev.reset} to ${cur.reset} within one window`);
          else if (cur.remaining > Math.max(prev.remaining - 1, 0))
            fail(
              "rateSequence",
              `X-RateLimit-Remaining must fall by at least one per request (Reset unchanged at ${cur.reset}): expected ≤ ${Math.max(prev.remaining - 1, 0)}, received ${cur.remaining} after ${prev.remaining}`,
            );
        }
        const ra = Number(h["retry-after"]);
        this.rate.set(key, status === 429 && ra > 0 ? { ...cur, slid: x.startedAt + x.ms + ra * 1000 } : cur);
      }
    }
    // A 503 that says it is not retryable (chain_unavailable: restart without --no-chain) has nothing to wait for.
    const notRetryable = status === 503 && isObj(x.result.body) && x.result.body.retryable === false;
    if ((status === 429 || status === 503) && !notRetryable) {
      const ra = h["retry-after"];
      if (!isInt(ra) || Number(ra) < 1)
        fail("retryAfter", `Retry-After must be whole seconds > 0, received ${shown(ra)}`);
    }
    const metering = h["x-credits-metering"];
    if (metering !== undefined && metering !== "unmetered")
      fail("creditHeaders", `X-Credits-Metering may only say "unmetered", received ${shown(metering)}`);
    const creditsRaw = h["x-credits-cost"];
    const remRaw = h["x-credits-remaining"];
    for (const [n, v] of [
      ["X-Credits-Cost", creditsRaw],
      ["X-Credits-Remaining", remRaw],
    ] as const)
      if (v !== undefined && (!isInt(v) || Number(v) < 0))
        fail("creditHeaders", `${n} must be a non-negative integer, received ${shown(v)}`);
    if (!route || metering === "unmetered") return;
    if (route.cost === undefined && creditsRaw !== undefined && creditsRaw !== "0")
      fail(
        "creditHeaders",
        `${route.id} is not metered (billed on volume, not in credits): X-Credits-Cost must be absent or 0, received ${shown(creditsRaw)}`,
      );
    const beforeMetering = status === 401 || status === 403 || status === 429;
    if (route.cost !== undefined) {
      if (beforeMetering && creditsRaw !== undefined && creditsRaw !== "0")
        fail(
          "creditHeaders",
          `a ${status} comes before metering: X-Credits-Cost must be absent or 0, received ${shown(creditsRaw)}`,
        );
      if (status < 400) {
        if (creditsRaw === undefined)
          fail(
            "creditHeaders",
            `X-Credits-Cost must be on a metered answer (the route costs ${route.cost}), received nothing`,
          );
        else if (Number(creditsRaw) !== route.cost)
          fail("creditHeaders", `X-Credits-Cost must be the route's cost ${route.cost}, received ${creditsRaw}`);
        if (remRaw === undefined)
          fail("creditHeaders", "X-Credits-Remaining must be on a metered answer, received nothing");
      } else if (creditsRaw !== undefined && creditsRaw !== "0")
        fail("creditHeaders", `a ${status} is refunded: X-Credits-Cost must be 0, received ${creditsRaw}`);
    }
    if (!key || !isInt(remRaw)) return;
    const remaining = Number(remRaw);
    const charged = isInt(creditsRaw) ? Number(creditsRaw) : 0;
    const prev = this.balance.get(key);
    // Only metered routes are held to the arithmetic; others that show the balance (a top-up) set it.
    if (sequential && route.cost !== undefined && prev !== undefined && remaining !== prev - charged)
      fail(
        "creditSequence",
        `X-Credits-Remaining must be the balance after this call: ${prev} − X-Credits-Cost ${charged} = ${prev - charged}, received ${remaining}`,
      );
    this.balance.set(key, remaining);
  }

  private paging(x: Exchange, route: Operation | null, body: Obj, fail: (r: WireRule, t: string) => void): void {
    const q = x.url.searchParams;
    if ("total_count" in body || "page_size" in body) {
      const { page, page_size: size, total_count: total } = body;
      const rows = Array.isArray(body.data) ? body.data : null;
      if (!Number.isInteger(page) || (page as number) < 1)
        fail("paging", `/page: expected an integer ≥ 1, received ${shown(page)}`);
      if (!Number.isInteger(size) || (size as number) < 1 || (size as number) > 100)
        fail("paging", `/page_size: expected an integer in 1..100, received ${shown(size)}`);
      if (!Number.isInteger(total) || (total as number) < 0)
        fail("paging", `/total_count: expected an integer ≥ 0, received ${shown(total)}`);
      if (!rows) return fail("paging", `/data: a Card Data page lists its rows in data, received ${shown(body.data)}`);
      if (!Number.isInteger(page) || !Number.isInteger(size) || !Number.isInteger(total)) return;
      const [p, s, t] = [page as number, size as number, total as number];
      const askedPage = leadingInt(q.get("page"));
      const askedSize = leadingInt(q.get("page_size"));
      if (askedPage !== null && askedPage >= 1 && p !== askedPage)
        fail("paging", `/page: expected ${askedPage} (asked), received ${p}`);
      if (
        askedSize !== null &&
        askedSize >= 1 &&
        askedSize <= 100 &&
        s !== askedSize &&
        !route?.path.endsWith("/printings")
      )
        fail("paging", `/page_size: expected ${askedSize} (asked), received ${s}`);
      if (rows.length > s && !route?.path.endsWith("/printings"))
        fail("paging", `/data: a page of page_size ${s} holds at most ${s} rows, received ${rows.length}`);
      if ((p - 1) * s + rows.length > t)
        fail("paging", `/total_count: ${t} is less than the rows up to this page ((${p} − 1) × ${s} + ${rows.length})`);
      // A page before the last is full (printings are one terminal page, whatever the family's size).
      if (!route?.path.endsWith("/printings") && p * s < t && rows.length !== s)
        fail(
          "paging",
          `/data: page ${p} of ${Math.ceil(t / s)} (total_count ${t}) must hold page_size ${s} rows, received ${rows.length}`,
        );
      return;
    }
    const pag = body.pagination;
    if (pag === undefined) return;
    if (!isObj(pag)) return fail("paging", `/pagination: expected {limit, offset, has_more}, received ${shown(pag)}`);
    const { limit, offset, has_more: more, next_offset: next } = pag;
    if (!Number.isInteger(limit) || (limit as number) < 0)
      fail("paging", `/pagination/limit: expected an integer ≥ 0, received ${shown(limit)}`);
    if (!Number.isInteger(offset) || (offset as number) < 0)
      fail("paging", `/pagination/offset: expected an integer ≥ 0, received ${shown(offset)}`);
    if (typeof more !== "boolean") fail("paging", `/pagination/has_more: expected boolean, received ${shown(more)}`);
    if (!Number.isInteger(limit) || !Number.isInteger(offset) || typeof more !== "boolean") return;
    const [l, o] = [limit as number, offset as number];
    const askedLimit = leadingInt(q.get("limit"));
    const askedOffset = leadingInt(q.get("offset"));
    if (askedLimit !== null && askedLimit >= 1 && l !== Math.min(askedLimit, 100))
      fail(
        "paging",
        `/pagination/limit: expected ${Math.min(askedLimit, 100)} (asked ${askedLimit}, at most 100), received ${l}`,
      );
    if (askedOffset !== null && askedOffset >= 0 && askedOffset <= 10_000 && o !== askedOffset)
      fail("paging", `/pagination/offset: expected ${askedOffset} (asked), received ${o}`);
    if (next !== undefined && (!more || next !== o + l))
      fail(
        "paging",
        `/pagination/next_offset: expected ${more ? o + l : "nothing (no more rows)"}, received ${shown(next)}`,
      );
    const rows = rowsOf(body.data);
    if (!rows) return;
    if (rows.length > l) fail("paging", `/data: limit ${l} allows at most ${l} rows, received ${rows.length}`);
    if (more && rows.length < l)
      fail(
        "paging",
        `/pagination/has_more: true with ${rows.length} rows on a page of limit ${l} (a page before the last is full)`,
      );
    const total = isObj(body.data) ? body.data.total : undefined;
    if (Number.isInteger(total) && more !== o + rows.length < (total as number))
      fail(
        "paging",
        `/pagination/has_more: expected ${o + rows.length < (total as number)} (offset ${o} + ${rows.length} rows of total ${String(total)}), received ${more}`,
      );
  }
}
