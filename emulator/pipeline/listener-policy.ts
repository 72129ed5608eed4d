import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { WEBHOOK_HEADERS } from "../../contract/webhook-signature.ts";
import { classifyHost, parseIPv4, parseIPv6 } from "./address-policy.ts";

// The one policy of every listener the project opens (the emulator's API, control plane and dashboard,
// the chain's JSON-RPC, the shadow proxy, the webhook receivers): any web page the developer has open
// can send requests to 127.0.0.1, so
// - Host (DNS rebinding, as Vite's server.allowedHosts): a page on evil.example re-pointed at 127.0.0.1
//   arrives with `Host: evil.example`; only hosts that cannot be rebound are answered: loopback names and
//   addresses, any IP literal (no DNS involved), and the names the user allowed;
// - Origin (cross-site requests: forms, text/plain fetches, no-cors GETs): a request from a web page must
//   come from a loopback origin, its own origin (same host as Host), or an origin the user allowed; a
//   page that hides its Origin still sends Fetch Metadata (Sec-Fetch-Site), judged the same way.
// Clients that are not browsers (curl, SDKs, viem in Node, the harness) send neither and pass.
// In-process calls (emu.fetch, msw) never reach a listener, so never pass here.

export interface ListenerPolicyOptions {
  /** Host names answered besides loopback names and IP literals: exact, or `.example.test` for a domain and its subdomains. */
  allowedHosts?: readonly string[];
  /** Web origins (`http://host:port`) accepted besides loopback ones and the listener's own. */
  allowedOrigins?: readonly string[];
  /** How the user allows a host or an origin, for the refusal's message. */
  hint?: { host?: (host: string) => string; origin?: (origin: string) => string };
}

export type RefusalCode = "host_not_allowed" | "cross_origin_request";

export interface Refusal {
  status: 403;
  code: RefusalCode;
  message: string;
}

export interface ListenerPolicy {
  /** The refusal for a request's headers, or null to serve it. */
  check(headers: IncomingHttpHeaders): Refusal | null;
  /** Whether a web page sent it (an Origin, or Fetch Metadata other than a typed address): such callers get less. */
  fromBrowser(headers: IncomingHttpHeaders): boolean;
  /** CORS headers for a browser origin the policy accepts (none for other callers; never `*`). */
  corsHeaders(headers: IncomingHttpHeaders): Record<string, string>;
}

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** The host part of a Host header: no port, no brackets, lower case, no trailing dot. */
export function hostname(header: string): string {
  let h = header.trim().toLowerCase();
  if (h.startsWith("[")) h = h.slice(1, h.indexOf("]") === -1 ? h.length : h.indexOf("]"));
  else if (h.indexOf(":") === h.lastIndexOf(":") && h.includes(":")) h = h.slice(0, h.indexOf(":"));
  return h.replace(/\.+$/, "");
}

function hostByDefault(host: string): boolean {
  if (host.includes(":")) return parseIPv6(host) !== null;
  if (parseIPv4(host) !== null) return true;
  return classifyHost(host).class === "loopback";
}

/** `http://host:port` as the URL parser spells it, or null when it is not a web origin. */
function originOf(raw: string): URL | null {
  try {
    const u = new URL(raw);
    return u.protocol === "http:" || u.protocol === "https:" ? u : null;
  } catch {
    return null;
  }
}

export function listenerPolicy(o: ListenerPolicyOptions = {}): ListenerPolicy {
  const names = (o.allowedHosts ?? []).map(hostname).filter(Boolean);
  const origins = new Set((o.allowedOrigins ?? []).map((s) => originOf(s)?.origin ?? s));
  const verdicts = new Map<string, boolean>();
  const hostAllowed = (header: string): boolean => {
    let ok = verdicts.get(header);
    if (ok === undefined) {
      const host = hostname(header);
      ok =
        hostByDefault(host) ||
        names.some((n) => (n.startsWith(".") ? host === n.slice(1) || host.endsWith(n) : host === n));
      // A handful of hosts in practice; the cap only bounds a flood of made-up ones.
      if (verdicts.size > 256) verdicts.clear();
      verdicts.set(header, ok);
    }
    return ok;
  };
  /** null: accepted; else the origin as the message names it. */
  const originRefused = (headers: IncomingHttpHeaders): string | null => {
    const origin = one(headers.origin);
    if (origin === undefined) {
      // No Origin: a typed address ("none") or a same-origin load is fine, a load from another page is not.
      const site = one(headers["sec-fetch-site"]);
      return site === undefined || site === "none" || site === "same-origin" ? null : `a ${site} page`;
    }
    const url = originOf(origin);
    if (!url) return origin; // "null" (sandboxed frames, file://) and anything unparsable
    if (origins.has(url.origin)) return null;
    if (classifyHost(url.hostname).class === "loopback") return null;
    // Its own origin (the dashboard served from a LAN address): the Host header passed the check above.
    const host = one(headers.host);
    if (host !== undefined && url.host === host.trim().toLowerCase()) return null;
    return origin;
  };
  return {
    check(headers) {
      const host = one(headers.host);
      // HTTP/1.0 without a Host: not a browser.
      if (host !== undefined && !hostAllowed(host)) {
        const name = hostname(host);
        return {
          status: 403,
          code: "host_not_allowed",
          message:
            `Host "${name}" is not allowed: only loopback names (localhost, *.localhost, 127.0.0.1, [::1]) and IP addresses are answered, ` +
            `so a web page cannot reach this server through DNS rebinding. ` +
            (o.hint?.host?.(name) ??
              `To allow it, pass allowedHosts: ["${name}"] (--allowed-host ${name} on the command line).`),
        };
      }
      const origin = originRefused(headers);
      if (origin === null) return null;
      return {
        status: 403,
        code: "cross_origin_request",
        message:
          `Requests from web pages are accepted only from loopback origins (http://localhost:…, http://127.0.0.1:…) or this server's own; ` +
          `this request came from ${origin}. ` +
          (o.hint?.origin?.(origin) ?? "Scripts and tools that send no Origin are not affected."),
      };
    },
    fromBrowser(headers) {
      const site = one(headers["sec-fetch-site"]);
      return one(headers.origin) !== undefined || (site !== undefined && site !== "none");
    },
    corsHeaders(headers): Record<string, string> {
      const origin = one(headers.origin);
      if (origin === undefined || originRefused(headers) !== null) return {};
      return {
        "access-control-allow-origin": origin,
        "access-control-allow-methods": "POST, GET, OPTIONS",
        "access-control-allow-headers": "content-type",
        "access-control-max-age": "600",
        vary: "Origin",
      };
    },
  };
}

/** For a node:http listener: answers the refusal as JSON (`body`) and returns true, or false to serve the request. */
export function refuseNodeRequest(
  policy: ListenerPolicy,
  req: IncomingMessage,
  res: ServerResponse,
  body: (r: Refusal) => unknown = (r) => ({ success: false, error: r.code, message: r.message }),
): boolean {
  const refused = policy.check(req.headers);
  if (!refused) return false;
  req.resume(); // the body is never read; drain it so the connection can close cleanly
  res.writeHead(refused.status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body(refused)));
  return true;
}

/**
 * A webhook delivery (it carries the delivery signature or the sender's user agent): it may reach a
 * receiver, never a control plane or a chain's JSON-RPC (a key could register http://127.0.0.1:PORT/_emulator/reset).
 */
export function isWebhookDelivery(headers: IncomingHttpHeaders): boolean {
  return (
    headers[WEBHOOK_HEADERS.signature.toLowerCase()] !== undefined ||
    /^CardOS-Webhooks\//i.test(one(headers["user-agent"]) ?? "")
  );
}
