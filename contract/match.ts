import type { Method, Operation } from "./operation.ts";

// Which operation answers `METHOD /api/v1/...`, from the contract alone (the
// conformance suite and shadow mode judge any target by it). A literal segment
// beats a parameter at the same place, as the server's routing does
// (`/webhooks/deliveries` before `/webhooks/:id`), whatever the declaration order.

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

interface Compiled {
  op: Operation;
  re: RegExp;
  /** One digit per segment, 1 for a literal, 0 for a parameter: the larger, the more specific. */
  rank: string;
}

/** A Hono path (`/:game{pokemon|onepiece}/cards/:id`) as a regular expression over `${prefix}${path}`. */
export function pathPattern(path: string, prefix = ""): RegExp {
  const parts = path.split("/").map((seg) => {
    const m = /^:(\w+)(?:\{(.*)\})?$/.exec(seg);
    if (!m) return escapeRe(seg);
    return m[2] ? `(?:${m[2]})` : "[^/]+";
  });
  return new RegExp(`^${escapeRe(prefix)}${parts.join("/")}$`);
}

/** Finds the operation for a method and a URL path (with its `/api/v1` prefix). */
export function operationMatcher(operations: readonly Operation[], prefix = "/api/v1"): (method: string, pathname: string) => Operation | null {
  const compiled: Compiled[] = operations
    .map((op) => ({ op, re: pathPattern(op.path, prefix), rank: op.path.split("/").map((s) => (s.startsWith(":") ? "0" : "1")).join("") }))
    .sort((a, b) => (a.rank < b.rank ? 1 : a.rank > b.rank ? -1 : 0));
  return (method, pathname) => {
    for (const c of compiled) if (c.op.method === (method as Method) && c.re.test(pathname)) return c.op;
    return null;
  };
}
