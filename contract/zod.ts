import { z } from "zod";

// The contract's one schema library (zod 4; docs/decisions.md says why) and the
// one annotation the wire adds to it: the 400 code a field answers when it is
// invalid. Leaf module: imports nothing of the project.

export { z };

/** The code each annotated schema answers with; static metadata of declarations, never changed after load. */
const CODES = new WeakMap<z.ZodType, string>();

/** Names the 400 code `schema` answers when the value is invalid (default `invalid_value`). */
export function withCode<T extends z.ZodType>(schema: T, code: string): T {
  CODES.set(schema, code);
  return schema;
}

/** The code `withCode` gave `schema`, if any. */
export const codeOf = (schema: z.ZodType): string | undefined => CODES.get(schema);

/** What a refinement's issue may carry: its own 400 code, answered instead of the field's. */
export interface IssueParams {
  code?: string;
  /** The error's `details` instead of the field and part it names; null for none (Card Data's errors carry only details.position). */
  details?: Record<string, unknown> | null;
  /** Details the 400 carries beside the field and part it names (which sub-fields are at fault). */
  moreDetails?: Record<string, unknown>;
}

/** Identifiers (a record's id in a path, query or body) are at most 255 characters (docs/reference: "Limits"). */
export const MAX_IDENTIFIER = 255;

/** An identifier a request names: over 255 characters it is 400 identifier_too_long whatever the field's own code. */
export const identifier = (schema: z.ZodString = z.string()) =>
  schema
    .refine((s) => s.length <= MAX_IDENTIFIER, {
      error: (iss) => `is ${String(iss.input).length} characters; identifiers are at most ${MAX_IDENTIFIER}`,
      params: { code: "identifier_too_long" } satisfies IssueParams,
    })
    .meta({ maxLength: MAX_IDENTIFIER });

/** The first id a list names twice, if any: a request naming a record twice would act on it twice. */
export function firstRepeat<T>(ids: readonly T[]): T | undefined {
  const seen = new Set<T>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

/** A list of ids that names each at most once (the message names the first repeat and what `what` is). */
export const distinct = <T extends z.ZodArray>(schema: T, what: string) =>
  schema.superRefine((ids, ctx) => {
    const again = firstRepeat(ids as unknown[]);
    if (again !== undefined)
      ctx.addIssue({ code: "custom", input: ids, message: `names ${what} ${String(again)} twice` });
  });

/**
 * Checks one field by `schema` inside a transform or superRefine, for a rule whose turn comes after another
 * field's or a cross-field rule: its parsed value, or `z.NEVER` with its first issue added at `path`, carrying
 * the issue's own code, else `schema`'s `withCode` code.
 */
export function within<T>(ctx: z.RefinementCtx, path: PropertyKey[], schema: z.ZodType<T>, value: unknown): T {
  const res = schema.safeParse(value);
  if (res.success) return res.data;
  const issue = res.error.issues[0]!;
  const own = issue.code === "custom" ? (issue.params as IssueParams | undefined)?.code : undefined;
  ctx.addIssue({
    code: "custom",
    input: value,
    path: [...path, ...issue.path],
    message: issue.message,
    params: { code: own ?? codeOf(schema) ?? "invalid_value" } satisfies IssueParams,
  });
  return z.NEVER;
}

/** Idempotency and submission keys are at most 128 characters (docs/reference: "Limits"). */
export const MAX_IDEMPOTENCY_KEY = 128;

/** The JSON Schema a request part is documented with. */
function documented(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _s, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return json;
}

/**
 * A request field (or a whole body) documented as `schema` but accepted as sent: the server
 * checks it once a rule whose error must come first (a record's 404 or 409) has run. Always
 * optional to the parser; `schema` decides what absence means.
 */
export const later = (schema: z.ZodType) => z.unknown().optional().meta(documented(schema));
