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
  /** `:name{a|b|c}` of plain words: the words (a Set lookup instead of a regular expression). */
  words?: ReadonlySet<string>;
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
      const source = part.slice(brace + 1, -1);
      const name = part.slice(1, brace);
      if (/^[\w-]+(\|[\w-]+)*$/.test(source)) return { text: null, name, words: new Set(source.split("|")) };
      return { text: null, name, pattern: new RegExp(`^(?:${source})$`) };
    });
}

/** Routes by method, then segment count, then first segment (`:` for a parameter). */
type Buckets<T> = Map<string, Map<string, Entry<T>[]>[]>;

export class RouteTable<T> {
  private buckets: Buckets<T> = new Map();
  private count = 0;

  /** Only plain patterns: static segments, `:name` and `:name{regex}` (no wildcards, no optional parts). */
  static supports(path: string): boolean {
    return !/[*?]/.test(path) && path.split("/").slice(1).every((p) => p !== "" && (!p.includes(":") || p.startsWith(":")));
  }

  add(method: string, path: string, value: T): void {
    const segments = compile(path);
    let byCount = this.buckets.get(method);
    if (!byCount) this.buckets.set(method, (byCount = []));
    const byFirst = (byCount[segments.length] ??= new Map());
    const first = segments[0]!.text ?? ":";
    let list = byFirst.get(first);
    if (!list) byFirst.set(first, (list = []));
    list.push({ order: this.count++, segments, value });
  }

  /** The first registered route matching `segments` (non-empty, undecoded), or null. */
  match(method: string, segments: readonly string[]): Matched<T> | null {
    const byFirst = this.buckets.get(method)?.[segments.length];
    if (!byFirst) return null;
    // The static first segment's routes, then the parameter-first ones: the earlier registered match wins.
    const best = firstMatch(byFirst.get(segments[0]!), segments, Infinity);
    const other = firstMatch(byFirst.get(":"), segments, best ? best.order : Infinity);
    const won = other ?? best;
    return won ? { value: won.entry.value, params: won.params } : null;
  }
}

function firstMatch<T>(list: Entry<T>[] | undefined, parts: readonly string[], before: number): { entry: Entry<T>; order: number; params: Record<string, string> } | null {
  if (!list) return null;
  for (const entry of list) {
    if (entry.order >= before) return null; // each list is in registration order
    const params = matchSegments(entry.segments, parts);
    if (params) return { entry, order: entry.order, params };
  }
  return null;
}

function matchSegments(pattern: readonly Segment[], parts: readonly string[]): Record<string, string> | null {
  let params: Record<string, string> | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const seg = pattern[i]!;
    const part = parts[i]!;
    if (seg.text !== null) {
      if (seg.text !== part) return null;
    } else {
      if (seg.words ? !seg.words.has(part) : seg.pattern && !seg.pattern.test(part)) return null;
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
