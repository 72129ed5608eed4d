// The one route matcher: the emulator's Hono app routes through it
// (emulator/pipeline/router.ts) and the conformance suite and shadow mode find
// a request's operation with it (match.ts). Routes are bucketed by method and
// segment count, then walked as a tree over their leading static segments: a
// request follows its own segments through map lookups and compares only the
// few patterns whose first parameter sits on that walk (Hono's trie router
// walks every candidate node of ~150 routes; its RegExpRouter refuses
// `/webhooks/:id` beside `/webhooks/deliveries`).
// Semantics are Hono's: among the routes that match, the first registered wins;
// `:name` takes one non-empty segment, `:name{a|b}` one of the words, and
// `:name{regex}` what the pattern matches, across `/` too (`/images/:path{.+}`).
// Params come back as they are in the path (Hono decodes them when read).

interface Segment {
  /** Static text, or null for a parameter. */
  text: string | null;
  name?: string;
  /** `:name{a|b|c}` of plain words: the words (a Set lookup instead of a regular expression). */
  words?: ReadonlySet<string>;
}

interface Entry {
  /** Registration order: the table's value of this route, and which of two matches wins. */
  order: number;
  /** Segment by segment; absent for a path matched whole by `pattern`. */
  segments?: Segment[];
  /** A path with a `{regex}` parameter or a wildcard, matched whole; its params by group name. */
  pattern?: RegExp;
}

type Params = Record<string, string>;

export interface Matched<T> {
  value: T;
  params: Record<string, string>;
}

interface Node {
  /** Routes whose static prefix ends here (their next segment is a parameter, or they end here). */
  here: Entry[];
  next: Map<string, Node>;
}

const node = (): Node => ({ here: [], next: new Map() });
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const WORDS = /^[\w-]+(\|[\w-]+)*$/;

/** A path segment by segment, or null when one of its parameters is a pattern matched across segments. */
function compile(path: string): Segment[] | null {
  const segments: Segment[] = [];
  for (const part of path.split("/").slice(1)) {
    if (part.includes("*") || (part.includes(":") && !part.startsWith(":"))) return null;
    if (!part.startsWith(":")) {
      segments.push({ text: part });
      continue;
    }
    const brace = part.indexOf("{");
    if (brace === -1) segments.push({ text: null, name: part.slice(1) });
    else {
      const source = part.slice(brace + 1, -1);
      if (!WORDS.test(source)) return null;
      segments.push({ text: null, name: part.slice(1, brace), words: new Set(source.split("|")) });
    }
  }
  return segments;
}

/** The whole path as one regular expression (Hono's reading of `{regex}` and `*`), params as named groups. */
function wholePattern(path: string): RegExp {
  const parts = path.split("/").map((seg) => {
    if (seg === "*") return ".*";
    const m = /^:(\w+)(?:\{(.*)\})?$/.exec(seg);
    if (!m) return escapeRe(seg);
    return `(?<${m[1]}>${m[2] ?? "[^/]+"})`;
  });
  return new RegExp(`^${parts.join("/")}$`);
}

/** A list of routes compiled: paths only (the values stay in their table), so tables of the same routes share it. */
interface Compiled {
  /** Method → segment count → tree over the leading static segments. */
  trees: Map<string, Node[]>;
  /** Method → first segment → the routes matched whole (rare: a `{regex}` parameter, a wildcard). */
  whole: Map<string, Map<string, Entry[]>>;
}

/**
 * Compiled route lists by their routes (`METHOD path` lines): every emulator of a process registers the
 * same ~200 routes, so the second one's table compiles nothing (issue 38 goal 2). A memo of a pure
 * function of the key, bounded: a process sees one list per set of plugins and the contract's matcher.
 */
const compiledLists = new Map<string, Compiled>();
const MAX_COMPILED = 16;

function compiledOf(routes: readonly string[]): Compiled {
  const key = routes.join("\n");
  let compiled = compiledLists.get(key);
  if (!compiled) {
    compiled = compileRoutes(routes);
    if (compiledLists.size >= MAX_COMPILED) compiledLists.delete(compiledLists.keys().next().value!);
    compiledLists.set(key, compiled);
  }
  return compiled;
}

function compileRoutes(routes: readonly string[]): Compiled {
  const trees = new Map<string, Node[]>();
  const whole = new Map<string, Map<string, Entry[]>>();
  routes.forEach((route, order) => {
    const space = route.indexOf(" ");
    const method = route.slice(0, space);
    const path = route.slice(space + 1);
    const segments = compile(path);
    if (!segments) {
      const first = path.split("/")[1] ?? "";
      const byFirst = whole.get(method) ?? new Map<string, Entry[]>();
      whole.set(method, byFirst);
      const key = first.startsWith(":") || first.includes("*") ? "" : first;
      byFirst.set(key, [...(byFirst.get(key) ?? []), { order, pattern: wholePattern(path) }]);
      return;
    }
    const byCount = trees.get(method) ?? [];
    trees.set(method, byCount);
    let at = (byCount[segments.length] ??= node());
    for (const seg of segments) {
      if (seg.text === null) break;
      let child = at.next.get(seg.text);
      if (!child) at.next.set(seg.text, (child = node()));
      at = child;
    }
    at.here.push({ order, segments });
  });
  return { trees, whole };
}

export class RouteTable<T> {
  /** `METHOD path` by registration order, and each route's value. */
  private readonly routes: string[] = [];
  private readonly values: T[] = [];
  /** Compiled on the first match (and again after a later add), shared with tables of the same routes. */
  private compiled: Compiled | null = null;

  add(method: string, path: string, value: T): void {
    if (path.includes("?") && /:\w+(\{[^}]*\})?\?/.test(path))
      throw new Error(`RouteTable: optional parameters are not supported (${path})`);
    this.routes.push(`${method} ${path}`);
    this.values.push(value);
    this.compiled = null;
  }

  /** The first registered route matching `path` (`/a/b`, as the request has it), or null. */
  match(method: string, path: string): Matched<T> | null {
    const { trees, whole: wholeByMethod } = (this.compiled ??= compiledOf(this.routes));
    const parts = path.split("/").slice(1);
    let best: { order: number; params: Record<string, string> } | null = null;
    let at = trees.get(method)?.[parts.length];
    for (let i = 0; at; i++) {
      // Each list is in registration order: only an earlier route than the best so far can win.
      for (const entry of at.here) {
        if (best && entry.order >= best.order) break;
        const params = matchSegments(entry.segments!, parts, i);
        if (params) {
          best = { order: entry.order, params };
          break;
        }
      }
      at = i < parts.length ? at.next.get(parts[i]!) : undefined;
    }
    const whole = wholeByMethod.get(method);
    if (whole)
      for (const list of [whole.get(parts[0]!), whole.get("")])
        for (const entry of list ?? []) {
          if (best && entry.order >= best.order) break;
          const m = entry.pattern!.exec(path);
          if (m) {
            best = { order: entry.order, params: { ...m.groups } };
            break;
          }
        }
    return best && { value: this.values[best.order]!, params: best.params };
  }
}

/** Params of `parts` against `pattern`, whose first `from` segments are static and matched; null if none. */
function matchSegments(pattern: readonly Segment[], parts: readonly string[], from: number): Params | null {
  let params: Record<string, string> | null = null;
  for (let i = from; i < pattern.length; i++) {
    const seg = pattern[i]!;
    const part = parts[i]!;
    if (seg.text !== null) {
      if (seg.text !== part) return null;
    } else {
      if (part === "" || (seg.words && !seg.words.has(part))) return null;
      (params ??= {})[seg.name!] = part;
    }
  }
  return params ?? {};
}
