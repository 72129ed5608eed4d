// Rolling 60 s windows on the virtual clock, one per bucket (a key or an IP).

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
 * One bucket's hits in time order, as a queue over an array: expired hits
 * leave by moving `head` (no splice), and the array is compacted only when
 * the dead prefix outweighs the live part, so each request costs amortised
 * O(1) whatever the ceiling.
 */
class Window {
  times: number[] = [];
  head = 0;

  expire(now: number): void {
    const { times } = this;
    while (this.head < times.length && times[this.head]! <= now - WINDOW_MS) this.head++;
    if (this.head === times.length) {
      this.times = [];
      this.head = 0;
    } else if (this.head > 64 && this.head * 2 > times.length) {
      this.times = times.slice(this.head);
      this.head = 0;
    }
  }

  get count(): number {
    return this.times.length - this.head;
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
    if (allowed) w.times.push(now);
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
 * requests left (the interface: `X-RateLimit-Limit` shows the ceiling in force).
 */
export function inForce(ip: RateDecision, key: RateDecision): RateDecision {
  if (!ip.allowed) return ip;
  if (!key.allowed) return key;
  if (ip.remaining !== key.remaining) return ip.remaining < key.remaining ? ip : key;
  return ip.limit < key.limit ? ip : key;
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
