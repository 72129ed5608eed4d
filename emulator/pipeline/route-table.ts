// A pre-match for the API routes, in front of Hono's router. Hono's trie router
// walks every candidate node of ~150 routes on each request (its RegExpRouter,
// which would not, refuses `/webhooks/:id` beside `/webhooks/deliveries`); most
// of that work is known at registration. Here the routes are bucketed by method,
// segment count and first segment, so a request compares a handful of patterns.
// Semantics are Hono's for the paths it answers: among the routes that match,
// the first registered wins; `:name` takes one non-empty segment, `:name{a|b}`
// one that matches the pattern whole. A path it does not take on (percent
// escapes, empty segments, no match at all) goes to Hono unchanged, so
// Hono's decoding and its 404 stay the one behaviour for everything else.

interface Segment {
  /** Static text, or null for a parameter. */
  text: string | null;
  name?: string;
  pattern?: RegExp;
}

interface Entry<T> {
  order: number;
  segments: Segment[];
  value: T;
}

export interface Matched<T> {
  value: T;
  params: Record<string, string>;
}

function compile(path: string): Segment[] {
  return path
    .split("/")
    .slice(1)
    .map((part) => {
      if (!part.startsWith(":")) return { text: part };
      const brace = part.indexOf("{");
      if (brace === -1) return { text: null, name: part.slice(1) };
      return { text: null, name: part.slice(1, brace), pattern: new RegExp(`^(?:${part.slice(brace + 1, -1)})$`) };
    });
}

export class RouteTable<T> {
  private buckets = new Map<string, Entry<T>[]>();
  private count = 0;

  /** Only plain patterns: static segments, `:name` and `:name{regex}` (no wildcards, no optional parts). */
  static supports(path: string): boolean {
    return !/[*?]/.test(path) && path.split("/").slice(1).every((p) => p !== "" && (!p.includes(":") || p.startsWith(":")));
  }

  add(method: string, path: string, value: T): void {
    const segments = compile(path);
    const first = segments[0]!;
    const bucket = `${method} ${segments.length} ${first.text ?? ":"}`;
    let list = this.buckets.get(bucket);
    if (!list) this.buckets.set(bucket, (list = []));
    list.push({ order: this.count++, segments, value });
  }

  /** The first registered route matching `segments` (non-empty, undecoded), or null. */
  match(method: string, segments: readonly string[]): Matched<T> | null {
    const n = segments.length;
    const exact = this.buckets.get(`${method} ${n} ${segments[0]}`);
    const param = this.buckets.get(`${method} ${n} :`);
    let best: Matched<T> | null = null;
    let bestOrder = Infinity;
    for (const list of [exact, param]) {
      if (!list) continue;
      for (const e of list) {
        if (e.order >= bestOrder) break; // each list is in registration order
        const params = matchSegments(e.segments, segments);
        if (params) {
          best = { value: e.value, params };
          bestOrder = e.order;
          break;
        }
      }
    }
    return best;
  }
}

function matchSegments(pattern: readonly Segment[], parts: readonly string[]): Record<string, string> | null {
  let params: Record<string, string> | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const seg = pattern[i]!;
    const part = parts[i]!;
    if (seg.text !== null) {
      if (seg.text !== part) return null;
    } else {
      if (seg.pattern && !seg.pattern.test(part)) return null;
      (params ??= {})[seg.name!] = part;
    }
  }
  return params ?? {};
}

/**
 * The path segments after `prefix` of a request URL (`http://host/api/v1/a/b?x` → ["a", "b"]),
 * or null when the path is not under the prefix or needs Hono's handling (a percent escape, an
 * empty segment, a trailing slash).
 */
export function segmentsUnder(url: string, prefix: string): string[] | null {
  const start = url.indexOf("/", url.indexOf(":") + 3);
  if (start === -1 || !url.startsWith(prefix, start)) return null;
  let end = url.length;
  for (let i = start + prefix.length; i < url.length; i++) {
    const ch = url.charCodeAt(i);
    if (ch === 37 /* % */) return null;
    if (ch === 63 /* ? */ || ch === 35 /* # */) {
      end = i;
      break;
    }
  }
  const rest = url.slice(start + prefix.length, end);
  if (rest === "") return null;
  const parts = rest.split("/");
  for (const p of parts) if (p === "") return null;
  return parts;
}
