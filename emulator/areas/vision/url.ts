import { badRequest } from "../../pipeline/errors.ts";
import { classifyHost, describeHost, type HostClass } from "../../pipeline/address-policy.ts";

// image_url must be a public https URL: http, credentials, and any host the
// shared classifier does not call public (loopback, private, link-local,
// unspecified, multicast, reserved, in any spelling) are refused before
// anything is fetched.

const notAllowed = (why: string, url?: string) =>
  badRequest(
    "image_url_not_allowed",
    `image_url must be a public https URL: ${why}`,
    url ? { details: { url } } : undefined,
  );

export interface ImageUrl {
  url: URL;
  /** The host as classified: lower case, no trailing dot. */
  host: HostClass;
}

export function checkImageUrl(raw: unknown): ImageUrl {
  if (typeof raw !== "string") throw notAllowed("it is not a string");
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw notAllowed("it is not an absolute URL");
  }
  if (url.protocol !== "https:")
    throw notAllowed(`${url.protocol.replace(":", "")} is not allowed, only https`, url.href);
  if (url.username || url.password) throw notAllowed("credentials in the URL are not allowed", url.href);
  const host = classifyHost(url.hostname);
  if (host.class !== "public") throw notAllowed(`${describeHost(host)}, not a public host`, url.href);
  return { url, host };
}
