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
  // msw tries the handlers in turn, and each one it tries parses the request (a URL, the cookies, its path
  // compiled anew by path-to-regexp): a call to the 59th operation paid that 58 times. An operation's handler
  // matches by method and a regular expression of its path that accepts exactly what msw's pattern accepts for
  // these paths (literal segments in any case, `:param` one non-empty segment, an optional trailing `/`): one
  // that does not match says so at once; one that does skips msw's parse (its resolver reads only the request).
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
    private matches(req: Request): boolean {
      if (last.req !== req) {
        const href = req.url;
        const end = href.search(/[?#]/);
        last.req = req;
        last.method = req.method.toUpperCase();
        last.url = end === -1 ? href : href.slice(0, end);
      }
      return last.method === this.info.method && this.pattern.test(last.url);
    }
    override run(args: Parameters<HttpHandler["run"]>[0]): ReturnType<HttpHandler["run"]> {
      return this.matches(args.request) ? super.run(args) : no;
    }
    override parse(args: Parameters<HttpHandler["parse"]>[0]): ReturnType<HttpHandler["parse"]> {
      return Promise.resolve({ match: { matches: this.matches(args.request), params: {} }, cookies: {} });
    }
  }
  return [
    ...OPERATIONS.map(
      (op) => new OperationHandler(op.method, `${origin}/api/v1${mswPath(op.path)}`, patternOf(origin, op.path)),
    ),
    http.all(`${origin}/*`, resolver),
  ];
}

/** What msw's pattern of an operation's URL matches (the request's URL without query and fragment). */
function patternOf(origin: string, path: string): RegExp {
  const segments = mswPath(path)
    .split("/")
    .map((s) => {
      // Plain segments and parameters, as every path is (test/http/in-process.test.ts compares with msw's own match).
      if (!/^(?::[A-Za-z_]\w*|[\w.-]*)$/.test(s))
        throw new Error(`msw handler: unsupported path segment "${s}" in ${path}`);
      return s.startsWith(":") ? "[^/]+" : escapeRe(s);
    });
  return new RegExp(`^${escapeRe(origin)}/api/v1${segments.join("/")}/?$`, "i");
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** An operation's path as msw writes it: Hono's `:game{pokemon|onepiece|azuki}` constraint dropped (the app checks it). */
export const mswPath = (path: string): string => path.replace(/(:[A-Za-z_][A-Za-z0-9_]*)\{[^}]*\}/g, "$1");

export { isLoopback } from "./pipeline/address-policy.ts";
