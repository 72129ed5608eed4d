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

export class RateLimiter {
  private windows = new Map<string, number[]>();

  /** Counts a request in `bucket` if the window has room. */
  hit(bucket: string, limit: number, now: number): RateDecision {
    const hits = this.live(bucket, now);
    const allowed = hits.length < limit;
    if (allowed) hits.push(now);
    const oldest = hits[0] ?? now;
    const freesAt = oldest + WINDOW_MS;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - hits.length),
      resetAt: Math.ceil(freesAt / 1000),
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((freesAt - now) / 1000)),
    };
  }

  /** The state of a window without counting a request (never a refusal: nothing was asked). */
  peek(bucket: string, limit: number, now: number): RateDecision {
    const hits = this.live(bucket, now);
    const oldest = hits[0] ?? now;
    return {
      allowed: true,
      limit,
      remaining: Math.max(0, limit - hits.length),
      resetAt: Math.ceil((oldest + WINDOW_MS) / 1000),
      retryAfter: 0,
    };
  }

  clear(): void {
    this.windows.clear();
  }

  private live(bucket: string, now: number): number[] {
    let hits = this.windows.get(bucket);
    if (!hits) {
      hits = [];
      this.windows.set(bucket, hits);
    }
    let drop = 0;
    while (drop < hits.length && hits[drop] <= now - WINDOW_MS) drop++;
    if (drop) hits.splice(0, drop);
    return hits;
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

/** The `X-RateLimit-*` headers; `Retry-After` only on a refusal (a 429). */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const h: Record<string, string> = {
    "X-RateLimit-Limit": String(d.limit),
    "X-RateLimit-Remaining": String(d.remaining),
    "X-RateLimit-Reset": String(d.resetAt),
  };
  if (!d.allowed && d.retryAfter > 0) h["Retry-After"] = String(d.retryAfter);
  return h;
}
