import { createRequire } from "node:module";
import type { HttpHandler } from "msw";
import { OPERATIONS } from "../contract/index.ts";

// msw is loaded on first use (`emu.handlers`): the CLI never needs it, and it
// costs a few hundred milliseconds of start-up.
const require = createRequire(import.meta.url);

/**
 * In-process mode: one msw handler per contract operation (so `server.use()` of a handler for one
 * path overrides that operation alone), then one for the rest of the origin (control plane, unknown
 * paths); every one hands the request to the same fetch handler the HTTP server uses. No port involved.
 */
export function createHandlers(origin: string, handle: (req: Request) => Promise<Response>): HttpHandler[] {
  const { http } = require("msw") as typeof import("msw");
  const resolver = ({ request }: { request: Request }) => handle(request);
  const verbs = { GET: http.get, POST: http.post, PUT: http.put, PATCH: http.patch, DELETE: http.delete };
  return [
    ...OPERATIONS.map((op) => verbs[op.method](`${origin}/api/v1${mswPath(op.path)}`, resolver)),
    http.all(`${origin}/*`, resolver),
  ];
}

/** An operation's path as msw writes it: Hono's `:game{pokemon|onepiece|azuki}` constraint dropped (the app checks it). */
export const mswPath = (path: string): string => path.replace(/(:[A-Za-z_][A-Za-z0-9_]*)\{[^}]*\}/g, "$1");

/** For `onUnhandledRequest`: loopback traffic (supertest, viem, a local chain) passes through. */
export function isLoopback(url: string | URL): boolean {
  const host = new URL(url).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || host === "[::1]";
}
