import type { Method, Operation } from "./operation.ts";
import { RouteTable } from "./route-table.ts";

// Which operation answers `METHOD /api/v1/...`, from the contract alone (the
// conformance suite and shadow mode judge any target by it), through the same
// route table the emulator's Hono app routes with. A literal segment beats a
// parameter at the same place, as the server's routing does
// (`/webhooks/deliveries` before `/webhooks/:id`), whatever the declaration
// order: the operations are registered most specific first.

/** One digit per segment, 1 for a literal, 0 for a parameter: the larger, the more specific. */
const rank = (path: string) =>
  path
    .split("/")
    .map((s) => (s.startsWith(":") ? "0" : "1"))
    .join("");

/** Finds the operation for a method and a URL path (with its `/api/v1` prefix). */
export function operationMatcher(
  operations: readonly Operation[],
  prefix = "/api/v1",
): (method: string, pathname: string) => Operation | null {
  const table = new RouteTable<Operation>();
  const ranked = operations
    .map((op) => ({ op, rank: rank(op.path) }))
    .sort((a, b) => (a.rank < b.rank ? 1 : a.rank > b.rank ? -1 : 0));
  for (const { op } of ranked) table.add(op.method, `${prefix}${op.path}`, op);
  return (method, pathname) => table.match(method as Method, pathname)?.value ?? null;
}
