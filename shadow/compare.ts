import type { Operation } from "../contract/index.ts";
import { contractDifferences } from "./contract.ts";
import { shapeDifferences, typeName, type Difference } from "./shape.ts";

// One read answered by the upstream and by the emulator, compared by the contract: status, error
// code, the headers the interface names, the body's shape, and each side against its declaration
// (a contract break the emulator shares is the emulator's own, not drift).

/** An answer as the proxy saw it: status, headers by lower-case name, body text. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** The headers compared, as the interface names them: how each is compared. */
const HEADERS: readonly { name: string; by: "presence" | "integer" | "value" }[] = [
  { name: "X-Request-Id", by: "presence" },
  { name: "X-RateLimit-Limit", by: "integer" },
  { name: "X-RateLimit-Remaining", by: "integer" },
  { name: "X-RateLimit-Reset", by: "integer" },
  { name: "Retry-After", by: "integer" },
  // The cost is the operation's price, the same on both sides; the balance differs by account.
  { name: "X-Credits-Cost", by: "value" },
  { name: "X-Credits-Remaining", by: "integer" },
  { name: "X-Credits-Metering", by: "value" },
];

export function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** "not JSON (why)" for a non-empty body that does not parse, else null. */
export function bodyProblem(text: string): string | null {
  if (!text) return null;
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    return `not JSON (${(err as Error).message.slice(0, 80)})`;
  }
}

/** The machine code of an error body: `error` in the partner envelope, `code` in the warehouse one. */
export function errorCode(op: Operation, body: unknown): string {
  if (!body || typeof body !== "object") return "(no JSON body)";
  const b = body as Record<string, unknown>;
  const code = op.envelope === "warehouse" ? b.code : b.error;
  return typeof code === "string" ? code : "(none)";
}

function headerDifferences(up: Answer, emu: Answer): Difference[] {
  const out: Difference[] = [];
  for (const { name, by } of HEADERS) {
    const a = up.headers[name.toLowerCase()];
    const b = emu.headers[name.toLowerCase()];
    const where = `header ${name}`;
    if (a === undefined && b === undefined) continue;
    if (a === undefined || b === undefined)
      out.push({
        kind: "header",
        where,
        upstream: a === undefined ? "absent" : "present",
        emulator: b === undefined ? "absent" : "present",
      });
    else if (by === "integer" && /^\d+$/.test(a) !== /^\d+$/.test(b))
      out.push({
        kind: "header",
        where,
        upstream: /^\d+$/.test(a) ? "integer" : "not an integer",
        emulator: /^\d+$/.test(b) ? "integer" : "not an integer",
      });
    else if (by === "value" && a !== b) out.push({ kind: "header", where, upstream: a, emulator: b });
  }
  return out;
}

const keyOf = (d: Difference) => `${d.kind} ${d.where}`;

/** The differences between the upstream's and the emulator's answer to one read. */
export function compareRead(op: Operation, query: URLSearchParams, up: Answer, emu: Answer): Difference[] {
  if (up.status !== emu.status)
    return [{ kind: "status", where: "status", upstream: String(up.status), emulator: String(emu.status) }];
  const upBody = parseBody(up.text);
  const emuBody = parseBody(emu.text);
  const out: Difference[] = [];
  // A body that is not JSON (an HTML error page, one cut short) has no shape to compare: say so once.
  const notJson = bodyProblem(up.text);
  if (notJson && !bodyProblem(emu.text)) {
    out.push({ kind: "type", where: "/", upstream: notJson, emulator: typeName(emuBody) });
    return out;
  }
  if (up.status >= 400) {
    const a = errorCode(op, upBody);
    const b = errorCode(op, emuBody);
    if (a !== b) out.push({ kind: "error_code", where: "code", upstream: a, emulator: b });
  }
  out.push(...headerDifferences(up, emu));
  out.push(...shapeDifferences(upBody, emuBody));
  // The upstream's contract breaks the emulator does not share (nullability, enum values, formats).
  const shared = new Set(contractDifferences(op, emu.status, emuBody, query).map(keyOf));
  const seen = new Set(out.map(keyOf));
  for (const d of contractDifferences(op, up.status, upBody, query)) {
    if (shared.has(keyOf(d)) || seen.has(keyOf(d))) continue;
    seen.add(keyOf(d));
    out.push(d);
  }
  return out;
}
