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
  const { http, HttpHandler } = require("msw") as typeof import("msw");
  const resolver = ({ request }: { request: Request }) => handle(request);
  // msw tries the handlers in turn, and each one it tries parses the request (URL, cookies, its path pattern
  // compiled anew): a call to the 59th operation paid that 58 times. Each operation's handler first asks a
  // question that can only say "maybe" when msw would match (method, then a regular expression of its path
  // that accepts all msw accepts), and leaves the exact match to msw.
  const no: Promise<null> = Promise.resolve(null);
  const last = { req: null as Request | null, method: "", url: "" };
  class OperationHandler extends HttpHandler {
    constructor(
      method: string,
      path: string,
      private readonly pattern: RegExp,
    ) {
      super(method, path, resolver);
    }
    override run(args: Parameters<HttpHandler["run"]>[0]): ReturnType<HttpHandler["run"]> {
      const req = args.request;
      if (last.req !== req) {
        const href = req.url;
        const end = href.search(/[?#]/);
        last.req = req;
        last.method = req.method.toUpperCase();
        last.url = end === -1 ? href : href.slice(0, end);
      }
      if (last.method !== this.info.method || !this.pattern.test(last.url)) return no;
      return super.run(args);
    }
  }
  return [
    ...OPERATIONS.map(
      (op) => new OperationHandler(op.method, `${origin}/api/v1${mswPath(op.path)}`, patternOf(origin, op.path)),
    ),
    http.all(`${origin}/*`, resolver),
  ];
}

/** A path's pattern as a filter before msw's own match: `:param` one non-empty segment, any case, a trailing `/` allowed. */
function patternOf(origin: string, path: string): RegExp {
  const segments = mswPath(path)
    .split("/")
    .map((s) => (s.startsWith(":") ? "[^/]+" : escapeRe(s)));
  return new RegExp(`^${escapeRe(origin)}/api/v1${segments.join("/")}/?$`, "i");
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** An operation's path as msw writes it: Hono's `:game{pokemon|onepiece|azuki}` constraint dropped (the app checks it). */
export const mswPath = (path: string): string => path.replace(/(:[A-Za-z_][A-Za-z0-9_]*)\{[^}]*\}/g, "$1");

/** For `onUnhandledRequest`: loopback traffic (supertest, viem, a local chain) passes through. */
export function isLoopback(url: string | URL): boolean {
  const host = new URL(url).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || host === "[::1]";
}
