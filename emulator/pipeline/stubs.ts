import { OPERATIONS, pointer, type Operation } from "../../contract/index.ts";
import { fixtureKeyNamed, fixtureKeyValue } from "../../fixtures/keys.ts";
import type { KeyRecord } from "../state/schema.ts";
import { MAX_JSON_BODY_BYTES, readText } from "./body.ts";
import { badRequest } from "./errors.ts";
import type { HeaderBag } from "./envelope.ts";
import { runtimeSlot, type RuntimeOwner } from "./runtime.ts";
import { own } from "../state/own.ts";
import type { Stub, StubMatch, StubSpec } from "./stub-spec.ts";

export type { Stub, StubMatch, StubSpec };

// Stubs (POST /_emulator/stubs): one operation answers as told, any status, for
// the calls its `match` picks. The pipeline asks after authentication, rate
// limits and kind/scope (a stub never opens a hole the real route would not)
// and before the concurrency gate, metering, faults and the handler (a stubbed
// answer is not billed). A 2xx stub must satisfy the operation's contract
// unless `unchecked`, so a test cannot build on an answer the service never gives.

/** The parts of a call a stub's `match` reads. */
export interface StubCall {
  key: KeyRecord;
  seed: number;
  params: Record<string, string>;
  url: URL;
  req: Request;
}

/** The operation of an id, or a 400 naming the field. */
function operationOf(id: string): Operation {
  const op = OPERATIONS.find((o) => o.id === id);
  if (!op) throw badRequest("invalid_value", `operation: no operation "${id}" in the contract (e.g. gacha.purchase)`);
  return op;
}

/** Where a 2xx stub body breaks the operation's contract: the JSON pointer and what is wrong, or null. */
function contractProblem(op: Operation, status: number, body: unknown): { pointer: string; problem: string } | null {
  const spec = op.schema.responses[status];
  if (!spec)
    return {
      pointer: "",
      problem: `status ${status} is not an answer of ${op.id} (declared: ${Object.keys(op.schema.responses).join(", ")})`,
    };
  if (!body || typeof body !== "object" || Array.isArray(body))
    return { pointer: "", problem: "a success body is a JSON object ({ success: true, data })" };
  const record = body as Record<string, unknown>;
  if (record.success !== true) return { pointer: "/success", problem: "a success body has success: true" };
  for (const [schema, value, base] of [
    [spec.top, record, []],
    [spec.data, record.data, ["data"]],
  ] as const) {
    if (!schema) continue;
    const res = schema.safeParse(value);
    if (!res.success) {
      const issue = res.error.issues[0]!;
      return { pointer: pointer([...base, ...issue.path]), problem: issue.message };
    }
  }
  return null;
}

export class Stubs {
  private list: Stub[] = [];
  private seq = 0;

  get size(): number {
    return this.list.length;
  }

  /** Checks the spec against the contract (400 `invalid_stub` naming the pointer) and adds it; the newest wins. */
  add(spec: StubSpec): Stub {
    const op = operationOf(spec.operation);
    if (spec.status >= 200 && spec.status < 300 && !spec.unchecked) {
      const problem = contractProblem(op, spec.status, spec.body);
      if (problem)
        throw badRequest(
          "invalid_stub",
          `body${problem.pointer}: ${problem.problem} (the contract of ${op.id}; unchecked: true sends it anyway)`,
          { details: problem },
        );
    }
    const stub: Stub = { ...spec, id: `stub_${++this.seq}`, hits: 0 };
    this.list.unshift(stub);
    return stub;
  }

  all(): Stub[] {
    return this.list.map((s) => ({ ...s }));
  }

  /** Also restarts the ids (reset calls it), as faults do: the same test after a reset names the same stubs. */
  clear(): number {
    const n = this.list.length;
    this.list = [];
    this.seq = 0;
    return n;
  }

  /** The stub that answers this call of `op`, if any (counts it). */
  async take(op: Operation, call: StubCall): Promise<Stub | null> {
    let body: unknown;
    for (const s of this.list) {
      if (s.operation !== op.id || (s.times !== undefined && s.hits >= s.times)) continue;
      const m = s.match;
      if (m?.key !== undefined && !keyMatches(m.key, call.key, call.seed)) continue;
      if (m?.params && !Object.entries(m.params).every(([k, v]) => own(call.params, k) === v)) continue;
      if (m?.query && !Object.entries(m.query).every(([k, v]) => call.url.searchParams.get(k) === v)) continue;
      if (m?.body) {
        body ??= await jsonOf(call.req);
        if (!contains(body, m.body)) continue;
      }
      s.hits++;
      return s;
    }
    return null;
  }
}

/** A stub's answer: its status and body, the pipeline's headers (request id, rate limits) and its own on top. */
export function stubAnswer(stub: Stub, headers: HeaderBag): Response {
  return new Response(JSON.stringify(stub.body), {
    status: stub.status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers, ...stub.headers },
  });
}

function keyMatches(want: string, key: KeyRecord, seed: number): boolean {
  if (want === key.key || want === key.label) return true;
  const fixture = fixtureKeyNamed(want);
  return fixture !== undefined && fixtureKeyValue(seed, fixture) === key.key;
}

/** The request's JSON body read from a clone (the handler still reads the original), or undefined. */
async function jsonOf(req: Request): Promise<unknown> {
  try {
    return JSON.parse(await readText(req.clone(), MAX_JSON_BODY_BYTES)) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether `value` holds every member of `pattern` with equal values (objects compared member by member). */
function contains(value: unknown, pattern: unknown): boolean {
  if (pattern === null || typeof pattern !== "object" || Array.isArray(pattern))
    return JSON.stringify(value) === JSON.stringify(pattern);
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  return Object.entries(pattern).every(([k, v]) => contains(own(value as Record<string, unknown>, k), v));
}

/** Each emulator's stubs, in its runtime. */
const STUBS = runtimeSlot("stubs", () => new Stubs());

export function stubsOf(s: RuntimeOwner): Stubs {
  return s.runtime.of(STUBS);
}
