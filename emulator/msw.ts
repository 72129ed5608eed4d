import { createRequire } from "node:module";
import type { HttpHandler } from "msw";

// msw is loaded on first use (`emu.handlers`): the CLI never needs it, and it
// costs a few hundred milliseconds of start-up.
const require = createRequire(import.meta.url);

/**
 * In-process mode: msw handlers that route every request for the emulator's
 * origin to the same fetch handler the HTTP server uses. No port involved.
 */
export function createHandlers(origin: string, handle: (req: Request) => Promise<Response>): HttpHandler[] {
  const { http } = require("msw") as typeof import("msw");
  return [http.all(`${origin}/*`, ({ request }) => handle(request))];
}

/** For `onUnhandledRequest`: loopback traffic (supertest, viem, a local chain) passes through. */
export function isLoopback(url: string | URL): boolean {
  const host = new URL(url).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || host === "[::1]";
}
