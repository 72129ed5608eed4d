import type { KeyRecord } from "../state/schema.ts";
import { DEFAULT_PARTNER_RATE_LIMIT_PER_MIN, FRESH_CALLS_PER_MIN } from "../state/plans.ts";

// Rolling 60 s windows on the virtual clock, one per bucket (an IP, a key's
// surface, a key's fresh=true budget).

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds (virtual) when the oldest request in the window leaves it. */
  resetAt: number;
  /** Whole seconds to wait before a retry can succeed (0 when allowed). */
  retryAfter: number;
}

export const WINDOW_MS = 60_000;

/**
 * One bucket's hits in time order, as a queue over two arrays: the distinct
 * times and how many hits each holds (at thousands of requests a second many
 * share a millisecond, so the queue holds one entry per millisecond, not per
 * hit). Expired entries leave by moving `head` (no splice), and the arrays are
 * compacted only when the dead prefix outweighs the live part, so each request
 * costs amortised O(1) whatever the ceiling. Exact: a hit leaves the window
 * 60 s after its own time.
 */
class Window {
  times: number[] = [];
  counts: number[] = [];
  head = 0;
  count = 0;

  expire(now: number): void {
    const { times, counts } = this;
    while (this.head < times.length && times[this.head]! <= now - WINDOW_MS) this.count -= counts[this.head++]!;
    if (this.head === times.length) {
      this.times = [];
      this.counts = [];
      this.head = 0;
    } else if (this.head > 64 && this.head * 2 > times.length) {
      this.times = times.slice(this.head);
      this.counts = counts.slice(this.head);
      this.head = 0;
    }
  }

  add(now: number): void {
    const last = this.times.length - 1;
    if (last >= this.head && this.times[last] === now) this.counts[last]!++;
    else {
      this.times.push(now);
      this.counts.push(1);
    }
    this.count++;
  }

  get oldest(): number | undefined {
    return this.count > 0 ? this.times[this.head] : undefined;
  }
}

export class RateLimiter {
  private windows = new Map<string, Window>();

  /** Counts a request in `bucket` if the window has room. */
  hit(bucket: string, limit: number, now: number): RateDecision {
    const w = this.live(bucket, now);
    const allowed = w.count < limit;
    if (allowed) w.add(now);
    const freesAt = (w.oldest ?? now) + WINDOW_MS;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - w.count),
      resetAt: Math.ceil(freesAt / 1000),
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((freesAt - now) / 1000)),
    };
  }

  /** The state of a window without counting a request (never a refusal: nothing was asked). */
  peek(bucket: string, limit: number, now: number): RateDecision {
    const w = this.live(bucket, now);
    return {
      allowed: true,
      limit,
      remaining: Math.max(0, limit - w.count),
      resetAt: Math.ceil(((w.oldest ?? now) + WINDOW_MS) / 1000),
      retryAfter: 0,
    };
  }

  clear(): void {
    this.windows.clear();
  }

  private live(bucket: string, now: number): Window {
    let w = this.windows.get(bucket);
    if (!w) {
      w = new Window();
      this.windows.set(bucket, w);
    }
    w.expire(now);
    return w;
  }
}

/**
 * The window whose ceiling is in force: a refused one, else the one with fewer
 * requests left, else the lower ceiling (the interface: `X-RateLimit-Limit` shows
 * the ceiling in force). Earlier windows win ties.
 */
export function inForce(first: RateDecision, ...rest: RateDecision[]): RateDecision {
  let best = first;
  for (const d of rest) {
    if (!best.allowed) return best;
    if (!d.allowed || d.remaining < best.remaining || (d.remaining === best.remaining && d.limit < best.limit))
      best = d;
  }
  return best;
}

/**
 * The surfaces a key's requests are counted on, each with its own rolling window
 * (docs/reference/live-service.md “Rate limits and caching”): partner commerce (Gacha, Instant, wallet, webhooks: 240/min
 * per key, the SDK's figure) and the plan's surface (Card Data for partner and legacy keys,
 * the warehouse API for tenant keys: 300/min per key, docs/reference/api-rules.md “Plans”).
 */
export type Surface = "partner" | "card_data" | "warehouse";

const PARTNER_PREFIXES = ["/mystery", "/instant", "/wallet", "/payout-wallet", "/webhooks"];
const CARD_DATA_PREFIXES = [
  "/pokemon",
  "/onepiece",
  "/azuki",
  "/grading",
  "/vision",
  "/credits",
  "/account/usage",
  "/health",
];

/** The surface of a path under /api/v1 (a route's is worked out once, when the app registers it). */
export function surfaceOf(path: string): Surface {
  const hit = (p: string) => path.startsWith(p) && (path.length === p.length || path[p.length] === "/");
  if (PARTNER_PREFIXES.some(hit)) return "partner";
  if (CARD_DATA_PREFIXES.some(hit) || path.startsWith("/:game")) return "card_data";
  return "warehouse";
}

// Bucket names are built once per key record and IP: the same string each request, so the
// window map hashes it once (a new `key:…` string per request is hashed every time).
interface KeyBuckets {
  plan: string;
  partner: string;
  fresh: string;
}
const keyBuckets = new WeakMap<KeyRecord, KeyBuckets>();
const bucketsOf = (key: KeyRecord): KeyBuckets => {
  let b = keyBuckets.get(key);
  if (!b)
    keyBuckets.set(key, (b = { plan: `key:${key.key}`, partner: `key:${key.key}:partner`, fresh: `fresh:${key.key}` }));
  return b;
};
const ipBuckets = new Map<string, string>();

/** The per-IP window's bucket. */
export function ipBucket(ip: string): string {
  let b = ipBuckets.get(ip);
  if (b === undefined) {
    if (ipBuckets.size >= 10_000) ipBuckets.clear();
    ipBuckets.set(ip, (b = `ip:${ip}`));
  }
  return b;
}

/** Whether the key counts on its partner-commerce window there: a partner key's; a tenant key on a shared path (webhooks) counts in its plan's. */
const onPartnerWindow = (key: KeyRecord, surface: Surface) => surface === "partner" && key.kind === "partner";

/** The key's window on a surface: its bucket name. */
export function surfaceBucket(key: KeyRecord, surface: Surface): string {
  return onPartnerWindow(key, surface) ? bucketsOf(key).partner : bucketsOf(key).plan;
}

/** The key's ceiling on a surface. */
export function surfaceLimit(key: KeyRecord, surface: Surface): number {
  return onPartnerWindow(key, surface)
    ? (key.partner_rate_limit_per_min ?? DEFAULT_PARTNER_RATE_LIMIT_PER_MIN)
    : key.rate_limit_per_min;
}

/** The key's `fresh=true` budget (docs/reference/live-service.md “Rate limits and caching”: 10 calls per minute per key, 429 beyond). */
export function freshWindow(key: KeyRecord): { bucket: string; limit: number } {
  return { bucket: bucketsOf(key).fresh, limit: key.fresh_per_min ?? FRESH_CALLS_PER_MIN };
}

/**
 * Where a caller's window stands, counting nothing: for answers that are not counted (GET /health, an unknown
 * path) yet carry `X-RateLimit-*` like every answer (docs/reference/api-rules.md “Other limits”). The IP's window,
 * or with a known key the one in force on the path's surface (`surfaceOf` a path under /api/v1).
 */
export function uncountedWindow(
  limiter: RateLimiter,
  ip: { bucket: string; limit: number },
  key: KeyRecord | undefined,
  surface: Surface,
  now: number,
): RateDecision {
  const ipWindow = limiter.peek(ip.bucket, ip.limit, now);
  if (!key) return ipWindow;
  return inForce(ipWindow, limiter.peek(surfaceBucket(key, surface), surfaceLimit(key, surface), now));
}

/**
 * Writes the `X-RateLimit-*` headers into `h` in place (the hot path adds no object); `Retry-After`
 * only on a refusal, which ends the request, so it is never written twice.
 */
export function writeRateLimitHeaders(h: Record<string, string>, d: RateDecision): Record<string, string> {
  h["X-RateLimit-Limit"] = String(d.limit);
  h["X-RateLimit-Remaining"] = String(d.remaining);
  h["X-RateLimit-Reset"] = String(d.resetAt);
  if (!d.allowed && d.retryAfter > 0) h["Retry-After"] = String(d.retryAfter);
  return h;
}

/** The `X-RateLimit-*` headers as a new object. */
export const rateLimitHeaders = (d: RateDecision): Record<string, string> => writeRateLimitHeaders({}, d);
