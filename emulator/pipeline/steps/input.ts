import { parsePart, queryObject } from "../schema.ts";
import { ParseMemo, paramsKey } from "../parse-memo.ts";
import { requireIdempotencyKey } from "../idempotency.ts";
import { RouteContext, type PipelineContext, type Step } from "./context.ts";

/** Parsed GET input, shared by every emulator in the process (the schemas are module-level, the input is plain data). */
const memo = new ParseMemo();

/** The handler's context, and the request parsed by the route's schema (400 naming the field); a required Idempotency-Key first. */
export const input: Step = {
  name: "input",
  run(p) {
    // The contract's `idempotencyKey: "required"`: 400 missing_idempotency_key before the body is read.
    requireIdempotencyKey(p.spec.operation, p.req.headers);
    const c = (p.handlerContext = new RouteContext(p.services, p.req, p.target, p.params, p.key));
    const schema = p.spec.schema;
    if (!schema) return;
    const { target, params } = p;
    if (p.spec.method === "GET") {
      // A read asked again with the same text reuses its parsed input (parse-memo.ts).
      const ps = schema.params;
      const qs = schema.query;
      c.input = {
        params: ps ? memo.get(ps, paramsKey(params), () => parsePart("params", ps, params)) : params,
        query: qs ? memo.get(qs, target.search, () => parsePart("query", qs, query(p))) : query(p),
        body: undefined,
      };
    } else return parseWrite(p, c);
  },
};

async function parseWrite(p: PipelineContext, c: RouteContext): Promise<void> {
  const schema = p.spec.schema!;
  c.input = {
    params: schema.params ? parsePart("params", schema.params, p.params) : p.params,
    query: schema.query ? parsePart("query", schema.query, query(p)) : query(p),
    body: schema.body ? parsePart("body", schema.body, await c.object()) : undefined,
  };
}

/** Most reads carry no query: no URLSearchParams to build for them. */
function query(p: PipelineContext): Record<string, string> {
  return p.target.hasQuery ? queryObject(p.target.url.searchParams) : (Object.create(null) as Record<string, string>);
}
