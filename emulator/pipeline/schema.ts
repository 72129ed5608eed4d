import { codeOf, z, type IssueParams, type RouteSchema } from "../../contract/index.ts";
import { badRequest } from "./errors.ts";

// Route schemas: one declaration per route of what it takes (path params,
// query, body) and what it answers (each status, its body, its error codes).
// The pipeline validates requests from them, handlers receive the parsed
// input, tests check answers against them, and the OpenAPI document is
// written from them. zod 4 (chosen by measurement: see docs/decisions.md).

export {
  z,
  withCode,
  identifier,
  distinct,
  firstRepeat,
  later,
  type IssueParams,
  type ResponseSpec,
  type RouteSchema,
} from "../../contract/index.ts";

export interface ParsedInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/** Query parameters as strings (a repeated one keeps its last value, as the routes read them). */
export function queryObject(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of query) out[k] = v;
  return out;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
/** Through optional, nullable, default and pipe-less wrappers to the schema they wrap. */
const inner = (schema: z.ZodType): z.ZodType | undefined => defOf(schema).innerType;

/** The code for an issue at `path` under `root`: the nearest schema on the path that carries one. */
function codeAt(root: z.ZodType, path: readonly PropertyKey[], fallback: string): string {
  let found = fallback;
  // The nearest code wins: a wrapper (optional, nullable) or the schema it wraps, at each step.
  const visit = (n: z.ZodType | undefined): z.ZodType | undefined => {
    let cur = n;
    while (cur) {
      const code = codeOf(cur);
      if (code) found = code;
      const next = inner(cur);
      if (!next) break;
      cur = next;
    }
    return cur;
  };
  let node = visit(root);
  for (const key of path) {
    if (!node) break;
    const def: Def = defOf(node);
    if (def.type === "object" && typeof key === "string") node = visit(def.shape?.[key]);
    else if (def.type === "array") node = visit(def.element);
    else break;
  }
  return found;
}

/** Checks a `later` body field (`name`) or a whole `later` body now: its 400 as if the pipeline had parsed it. */
export function checkLater<T>(schema: z.ZodType<T>, value: unknown, name?: string): T {
  if (name === undefined) return parsePart("body", schema, value);
  return parsePart("body", z.object({ [name]: schema }), { [name]: value })[name] as T;
}

const where = (part: string, path: readonly PropertyKey[]) => (path.length ? path.map(String).join(".") : part);

/** Parses one part of a request; a failure is the field's documented 400, naming the field. */
export function parsePart<T>(
  part: "params" | "query" | "body",
  schema: z.ZodType<T>,
  value: unknown,
  fallback = "invalid_value",
): T {
  const res = schema.safeParse(value);
  if (res.success) return res.data;
  const issue = res.error.issues[0]!;
  const field = where(part, issue.path);
  const params = issue.code === "custom" ? (issue.params as IssueParams | undefined) : undefined;
  const details = params?.details === undefined ? { field, part, ...params?.moreDetails } : params.details;
  throw badRequest(params?.code ?? codeAt(schema, issue.path, fallback), `${field}: ${issue.message}`, {
    ...(details ? { details } : {}),
  });
}

/**
 * A request's parts parsed by its route's schema (API and control routes share this):
 * each failing part is its field's documented 400. `body` is read only when declared.
 */
export async function parseInput(
  schema: RouteSchema,
  params: Record<string, string>,
  query: URLSearchParams,
  body: () => Promise<Record<string, unknown>>,
): Promise<ParsedInput> {
  return {
    params: schema.params ? parsePart("params", schema.params, params) : params,
    query: schema.query ? parsePart("query", schema.query, queryObject(query)) : queryObject(query),
    body: schema.body ? parsePart("body", schema.body, await body()) : undefined,
  };
}

/** Checks an answer's `data` against the route's declaration; returns what is wrong, or null. */
export function responseProblem(
  schema: RouteSchema,
  status: number,
  data: unknown,
  reply: { top?: Record<string, unknown>; query?: URLSearchParams } = {},
): string | null {
  const spec = schema.responses[status];
  if (!spec) return `status ${status} is not declared (declared: ${Object.keys(schema.responses).join(", ")})`;
  if (status >= 400) return null;
  if (spec.top) {
    const problem = firstProblem(spec.top, reply.top ?? {}, "");
    if (problem) return problem;
  }
  if (!spec.data) return null;
  const shape = spec.variant && reply.query?.has(spec.variant.query) ? spec.variant.data : spec.data;
  return firstProblem(shape, data, "data.");
}

function firstProblem(schema: z.ZodType, value: unknown, prefix: string): string | null {
  const res = schema.safeParse(value);
  if (res.success) return null;
  const issue = res.error.issues[0]!;
  return `${prefix}${issue.path.map(String).join(".")}: ${issue.message}`;
}
