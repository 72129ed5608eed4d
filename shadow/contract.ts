import type { Operation, z } from "../contract/index.ts";
import { typeName, type Difference } from "./shape.ts";

// An answer held to the contract's declaration of its operation and status: the success `data`
// (and Card Data's page fields beside it) against their zod schemas. This is what a write's answer
// is judged by (it is never sent to the emulator), and how a read's nullability and enum values are
// judged (the shape comparison leaves values alone).

type Issue = z.core.$ZodIssue & { input?: unknown };

/** A value as report text, whatever it is (undefined, a bigint or a cycle must not break the report). */
function shown(v: unknown): string {
  try {
    return JSON.stringify(v) ?? typeName(v);
  } catch {
    return typeName(v);
  }
}

const pointer = (prefix: string, path: readonly PropertyKey[]) =>
  prefix +
  path.map((k) => (typeof k === "number" ? "/*" : `/${String(k).replace(/~/g, "~0").replace(/\//g, "~1")}`)).join("");

function fromIssue(issue: Issue, prefix: string, out: Difference[]): void {
  const where = pointer(prefix, issue.path);
  switch (issue.code) {
    case "invalid_type": {
      const expected = issue.expected;
      if (issue.input === undefined) out.push({ kind: "missing", where, upstream: "nothing", emulator: expected });
      else if (issue.input === null)
        out.push({ kind: "nullability", where, upstream: "null", emulator: `${expected} (not nullable)` });
      else out.push({ kind: "type", where, upstream: typeName(issue.input), emulator: expected });
      return;
    }
    case "invalid_value": {
      const values = `one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
      // A missing enum field is missing, not a value outside the enum (JSON.stringify(undefined) is no text).
      if (issue.input === undefined) out.push({ kind: "missing", where, upstream: "nothing", emulator: values });
      else if (issue.input === null)
        out.push({ kind: "nullability", where, upstream: "null", emulator: `${values} (not nullable)` });
      else out.push({ kind: "enum", where, upstream: shown(issue.input), emulator: values });
      return;
    }
    case "unrecognized_keys":
      for (const k of issue.keys)
        out.push({ kind: "extra", where: pointer(where, [k]), upstream: "present", emulator: "nothing" });
      return;
    case "invalid_union":
      out.push({ kind: "type", where, upstream: typeName(issue.input), emulator: "one of the declared shapes" });
      return;
    default:
      out.push({ kind: "format", where, upstream: issue.message, emulator: "as declared" });
  }
}

/** Where `body` (an answer of `op` with `status`) breaks the contract; nothing for an error (its envelope is compared, not declared). */
export function contractDifferences(
  op: Operation,
  status: number,
  body: unknown,
  query: URLSearchParams,
): Difference[] {
  const out: Difference[] = [];
  const spec = op.schema.responses[status];
  if (!spec) {
    const declared = Object.keys(op.schema.responses).filter((s) => Number(s) < 300);
    if (status < 300)
      out.push({
        kind: "status",
        where: "status",
        upstream: String(status),
        emulator: `declared: ${declared.join(", ")}`,
      });
    return out;
  }
  if (!spec.data || status >= 300) return out;
  if (!body || typeof body !== "object" || Array.isArray(body) || !("data" in body)) {
    out.push({ kind: "missing", where: "/data", upstream: "nothing", emulator: "the success envelope's data" });
    return out;
  }
  const schema = spec.variant && query.has(spec.variant.query) ? spec.variant.data : spec.data;
  const parsed = schema.safeParse((body as { data: unknown }).data, { reportInput: true });
  if (!parsed.success) for (const issue of parsed.error.issues) fromIssue(issue as Issue, "/data", out);
  if (spec.top) {
    const top = spec.top.safeParse(body, { reportInput: true });
    if (!top.success) for (const issue of top.error.issues) fromIssue(issue as Issue, "", out);
  }
  return out;
}
