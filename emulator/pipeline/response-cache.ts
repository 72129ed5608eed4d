import type { Reply } from "./route.ts";

// The short response cache of the live service's cached reads (docs/mystery.md:
// `/mystery/price` ~60 s; catalog, odds, price and the feeds accept `fresh=true` to
// recompute, on a budget of 10 calls per minute per key). A route opts in with
// `cache: {ttl_ms}`; the pipeline serves a 200 it answered less than ttl_ms ago (on
// the virtual clock) for the same account, path and query, until `fresh=true`
// recomputes it (and refills the entry). Only 200s are kept. The references name no
// header for a cached answer, so none is sent: what shows is the data, as on the live
// service (a purchase is not in the feed until the entry expires or `fresh=true`).

/** `/mystery/price`: "cached ~60 s" (docs/mystery.md, SDK). */
export const PRICE_CACHE_MS = 60_000;
/** Catalog, odds and the feeds: "short" in the references, no figure; 30 s is the emulator's choice. */
export const READ_CACHE_MS = 30_000;

/** Whether a request asks to bypass the cache. */
export function isFresh(url: URL): boolean {
  const v = url.searchParams.get("fresh");
  return v === "true" || v === "1";
}

interface Entry {
  expiresAt: number;
  reply: Reply;
}

export class ResponseCache {
  private map = new Map<string, Entry>();
  constructor(private readonly capacity = 2048) {}

  /** The entry's key: the account, the route and the query without `fresh` (order-insensitive). */
  static keyOf(account: string, method: string, url: URL): string {
    const q = new URLSearchParams(url.searchParams);
    q.delete("fresh");
    q.sort();
    return `${account} ${method} ${url.pathname}?${q}`;
  }

  get(key: string, now: number): Reply | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.expiresAt > now) return e.reply;
    this.map.delete(key);
    return undefined;
  }

  /** Keeps a 200 (with its data serialised once); returns the reply to send. */
  put(key: string, reply: Reply, ttlMs: number, now: number): Reply {
    if ((reply.status ?? 200) !== 200 || reply.raw) return reply;
    // The data as text, taken now: later changes to the objects the handler returned cannot leak in.
    const { data, ...rest } = reply;
    const kept: Reply = { ...rest, status: 200, dataJson: reply.dataJson ?? JSON.stringify(data ?? {}) };
    this.map.delete(key);
    this.map.set(key, { expiresAt: now + ttlMs, reply: kept });
    // Oldest first out: a bounded map whatever the callers ask.
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
    return kept;
  }

  clear(): void {
    this.map.clear();
  }
}
