import { classifyHost, describeHost } from "../../pipeline/address-policy.ts";

// Which delivery URLs a registration accepts. The live service takes only
// public https (its SSRF guard rejects private, loopback and link-local
// targets); the emulator, by default, also takes http and loopback so a
// receiver on the developer's machine works. `strictWebhookUrls` restores the
// live rule: the host must be public by the shared classifier
// (pipeline/address-policy.ts), which judges IP literals by range in every
// spelling and names by definition (`localhost`, `*.localhost`, `*.local`,
// `*.internal`, single-label names) without resolving them (offline,
// deterministic).

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
  const host = classifyHost(url.hostname);
  if (host.class !== "public") return `url host ${describeHost(host)}, not public`;
  return null;
}
