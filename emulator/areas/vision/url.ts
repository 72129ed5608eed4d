import { isIP } from "node:net";
import { badRequest } from "../../pipeline/errors.ts";

// image_url must be a public https URL: http, loopback, private, link-local
// and other non-public hosts are refused before anything is fetched.

const notAllowed = (why: string, url?: string) =>
  badRequest("image_url_not_allowed", `image_url must be a public https URL: ${why}`, url ? { details: { url } } : undefined);

export function checkImageUrl(raw: unknown): URL {
  if (typeof raw !== "string") throw notAllowed("it is not a string");
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw notAllowed("it is not an absolute URL");
  }
  if (url.protocol !== "https:") throw notAllowed(`${url.protocol.replace(":", "")} is not allowed, only https`, url.href);
  if (url.username || url.password) throw notAllowed("credentials in the URL are not allowed", url.href);
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (isNonPublicHost(host)) throw notAllowed(`${host} is not a public host (loopback, private or link-local)`, url.href);
  return url;
}

export function isNonPublicHost(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal") || !host.includes(".") && isIP(host) === 0) return true;
  const v = isIP(host);
  if (v === 4) return isPrivateV4(host);
  if (v === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return isPrivateV4(mapped[1]!);
    if (host === "::1" || host === "::") return true;
    const first = Number.parseInt(host.split(":")[0] || "0", 16);
    return (first & 0xfe00) === 0xfc00 /* fc00::/7 unique local */ || (first & 0xffc0) === 0xfe80 /* fe80::/10 link-local */;
  }
  return false;
}

function isPrivateV4(ip: string): boolean {
  const [a, b] = ip.split(".").map(Number) as [number, number];
  return (
    a === 0 || a === 10 || a === 127 || // this network, private, loopback
    (a === 169 && b === 254) || // link-local (incl. cloud metadata)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    a >= 224 // multicast and reserved
  );
}
