import { http, type HttpHandler } from "msw";

/**
 * In-process mode: msw handlers that route every request for the emulator's
 * origin to the same fetch handler the HTTP server uses. No port involved.
 */
export function createHandlers(origin: string, handle: (req: Request) => Promise<Response>): HttpHandler[] {
  return [http.all(`${origin}/*`, ({ request }) => handle(request))];
}

/** For `onUnhandledRequest`: loopback traffic (supertest, viem, a local chain) passes through. */
export function isLoopback(url: string | URL): boolean {
  const host = new URL(url).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || host === "[::1]";
}
