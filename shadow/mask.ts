import { KEY_TEXT, REDACTED, redactJson, redactText } from "../conformance/redact.ts";

// What shadow mode writes down (reports, recordings) carries no key or secret: the conformance
// suite's redaction. A recording is masked without truncation and keeps 32-byte hex values
// (transaction hashes are data a replayed read must keep); a secret field or a key never survives.

/** A recorded body: secret fields and keys replaced, nothing else touched (the text is kept as is when nothing was). */
export function maskRecording(text: string, secrets: readonly string[]): string {
  let out = text;
  try {
    const parsed: unknown = JSON.parse(text);
    const masked = JSON.stringify(redactJson(parsed));
    if (masked !== JSON.stringify(parsed)) out = masked;
  } catch {
    /* not JSON: strings only */
  }
  for (const s of secrets) if (s.length >= 8) out = out.split(s).join(REDACTED);
  return out.replace(KEY_TEXT, REDACTED);
}

/** A report's sample: everything the conformance reports mask, and at most `max` characters. */
export function maskSample(text: string, secrets: readonly string[], max = 1000): string {
  const out = redactText(text, secrets);
  return out.length > max ? `${out.slice(0, max)}…` : out;
}
