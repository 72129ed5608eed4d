import type { Exchange } from "../harness/http.ts";
import type { TranscriptEntry } from "./types.ts";
import { WEBHOOK_HEADERS } from "../contract/webhook-signature.ts";

// Transcripts of failed checks go into reports and certification bundles that
// are shared with the service, so they carry no key, signature or secret:
// credential headers are replaced, JSON fields named like secrets are
// replaced, and any key the run used is blanked wherever it appears.

const SECRET_HEADERS = new Set([
  "x-api-key",
  "authorization",
  "cookie",
  "set-cookie",
  "payment-signature",
  "x-payment",
  WEBHOOK_HEADERS.signature.toLowerCase(),
]);
/** JSON fields whose value is a credential (a signature, a secret, a private key, a key itself). */
const SECRET_FIELD = /(secret|signature|private_key|privatekey|api_key|password|mnemonic|^key$|authorization)/i;
/** Key-shaped strings (`rip_v1_…`) and 32-byte hex strings (private keys) wherever they appear. */
export const KEY_TEXT = /rip_v1_[A-Za-z0-9_-]+/g;
const HEX32 = /\b0x[0-9a-fA-F]{64}\b/g;
const MAX_BODY = 4_000;
export const REDACTED = "[redacted]";

export function redactJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(redactJson);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, SECRET_FIELD.test(k) && x !== null ? REDACTED : redactJson(x)]),
    );
  return v;
}

/** Text with secrets removed: JSON by field names, then key-shaped and `secrets` strings everywhere. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  try {
    out = JSON.stringify(redactJson(JSON.parse(text)));
  } catch {
    /* not JSON: strings only */
  }
  for (const s of secrets) if (s.length >= 8) out = out.split(s).join(REDACTED);
  out = out.replace(KEY_TEXT, REDACTED);
  // 32-byte hex is a private key or a signature part; transaction hashes are 32 bytes too, but a
  // failed check's transcript loses little without them and the partner's key must never leak.
  out = out.replace(HEX32, "0x" + REDACTED);
  return out.length > MAX_BODY ? `${out.slice(0, MAX_BODY)}… (${out.length - MAX_BODY} more characters)` : out;
}

function redactHeaders(h: Record<string, string>, secrets: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(h).map(([k, v]) => [
      k.toLowerCase(),
      SECRET_HEADERS.has(k.toLowerCase()) ? REDACTED : redactText(v, secrets),
    ]),
  );
}

export function transcriptEntry(x: Exchange, secrets: readonly string[]): TranscriptEntry {
  return {
    method: x.method,
    path: redactText(x.url.pathname + x.url.search, secrets),
    request_headers: redactHeaders(x.requestHeaders, secrets),
    request_body: x.requestBody === undefined ? null : redactText(x.requestBody, secrets),
    status: x.result.status,
    response_headers: redactHeaders(x.result.headers, secrets),
    response_body: redactText(x.result.text, secrets),
  };
}
