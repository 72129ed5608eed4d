import type { JournalEntry } from "../emulator/ui/journal.ts";

// The terminal's request log while `npx emulator` runs in a TTY: one concise
// line per API call from the same journal the dashboard shows (time on the
// virtual clock, method, path, status and error code, key label, credits
// charged, latency). `--quiet` turns it off; `--json` never prints it.

const paint = (code: number, s: string, color: boolean) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
const STATUS_COLOR: Record<string, number> = { "2": 32, "3": 36, "4": 33, "5": 31 };

export function requestLine(e: JournalEntry, color: boolean): string {
  const status =
    paint(STATUS_COLOR[String(e.status)[0]!] ?? 0, String(e.status), color) + (e.error ? ` ${e.error}` : "");
  // The label without its parenthesised detail ("Demo partner (POOL model, …)" → "Demo partner"); the key masked otherwise.
  const who = e.key_label?.replace(/\s*\(.*$/, "") || e.key || "no key";
  const ms = e.latency_ms < 10 ? e.latency_ms.toFixed(1) : String(Math.round(e.latency_ms));
  const credits = e.credits_cost === null ? "" : `  ${e.credits_cost} cr`;
  const time = paint(2, e.at.slice(11, 23), color);
  return `  ${time}  ${e.method.padEnd(6)} ${e.path}  ${status}  ${paint(2, `${who}${credits}  ${ms} ms`, color)}\n`;
}
