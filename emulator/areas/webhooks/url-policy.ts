import { isIP } from "node:net";

// Which delivery URLs a registration accepts. The live service takes only
// public https (its SSRF guard rejects private, loopback and link-local
// targets); the emulator, by default, also takes http and loopback so a
// receiver on the developer's machine works. `strictWebhookUrls` restores the
// live rule. Host names are not resolved (deterministic, offline): names that
// are local by definition (`localhost`, `*.localhost`, `*.local`, `*.internal`)
// are rejected in strict mode; IP literals are checked by range.

export const MAX_URL_LENGTH = 2048;

/** Returns why the URL is refused, or null when it is acceptable. */
export function urlProblem(raw: string, strict: boolean): string | null {
  if (raw.length > MAX_URL_LENGTH) return `url must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "url is not an absolute URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "url must use https";
  if (!url.hostname) return "url has no host";
  if (!strict) return null;
  if (url.protocol !== "https:") return "url must use https (strict webhook URLs)";
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "localhost" || /\.(localhost|local|internal)$/.test(host)) return `url host ${host} is not public`;
  const kind = isIP(host);
  if (kind === 4 && !isPublicIPv4(host)) return `url host ${host} is a private, loopback or link-local address`;
  if (kind === 6 && !isPublicIPv6(host)) return `url host ${host} is a private, loopback or link-local address`;
  return null;
}

function isPublicIPv4(ip: string): boolean {
  const [a, b] = ip.split(".").map(Number);
  if (a === 0 || a === 10 || a === 127) return false; // this network, private, loopback
  if (a === 169 && b === 254) return false; // link-local
  if (a === 172 && b >= 16 && b <= 31) return false; // private
  if (a === 192 && b === 168) return false; // private
  if (a === 100 && b >= 64 && b <= 127) return false; // carrier-grade NAT
  if (a >= 224) return false; // multicast, reserved, broadcast
  return true;
}

function isPublicIPv6(ip: string): boolean {
  const lower = ip.toLowerCase();
  if (lower === "::" || lower === "::1") return false; // unspecified, loopback
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isPublicIPv4(mapped[1]);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return isPublicIPv4(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  const first = parseInt(lower.split(":")[0] || "0", 16);
  if ((first & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((first & 0xff00) === 0xff00) return false; // multicast
  return true;
}
