import { ApiError } from "../pipeline/errors.ts";
import { isWebhookDelivery } from "../pipeline/listener-policy.ts";

// CSRF guard for control-plane writes. Any page the developer has open can
// send a "simple" cross-site request (a form, or fetch with no-cors: text/plain,
// urlencoded or multipart, never application/json) to 127.0.0.1. So a write
// must come from the emulator's own origin, or from no browser at all (scripts
// and curl send no Origin), and any body it declares must be JSON, which a
// cross-site page cannot send without a preflight the emulator never grants.

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Throws the refusal for a control write a web page could have forged; reads pass. */
export function checkControlWrite(req: Request): void {
  // A webhook delivery is a JSON POST with no Origin: refused by what it carries, whatever URL reached us.
  if (isWebhookDelivery(Object.fromEntries(req.headers)))
    throw new ApiError(
      403,
      "webhook_delivery_refused",
      "A webhook delivery may not call the control plane: register your own receiver's URL, not the emulator's.",
    );
  if (req.method === "GET" || req.method === "HEAD") return;
  const own = new URL(req.url).origin;
  const origin = req.headers.get("origin");
  // Browsers that strip Origin (privacy settings) still send Fetch Metadata.
  const site = req.headers.get("sec-fetch-site");
  if ((origin !== null && origin !== own) || (site !== null && site !== "same-origin" && site !== "none"))
    throw new ApiError(
      403,
      "cross_origin_request",
      `Control-plane changes are accepted only from the emulator's own pages (${own}) or from clients that send no Origin (scripts, curl); ` +
        `this request came from ${origin ?? `a ${site} page`}.`,
    );
  const type = req.headers.get("content-type");
  if (type !== null && !JSON_TYPE.test(type.trim()))
    throw new ApiError(
      415,
      "unsupported_media_type",
      `Control-plane bodies are JSON: send Content-Type: application/json (curl: -H 'content-type: application/json'); got ${type}.`,
    );
}
