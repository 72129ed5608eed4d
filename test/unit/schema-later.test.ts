import { describe, expect, it } from "vitest";
import { ApiError } from "../../emulator/pipeline/errors.ts";
import {
  checkLater,
  identifier,
  later,
  parsePart,
  withCode,
  z,
  type IssueParams,
} from "../../emulator/pipeline/schema.ts";

// Helpers for fields whose code is not the field's alone (an identifier over
// 255 characters, a refinement naming its own code) and for fields checked
// after a rule whose error must come first (`later`, `checkLater`).

const failure = (run: () => unknown): ApiError => {
  try {
    run();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected a 400");
};

describe("an issue's own code", () => {
  const body = z.object({
    ids: withCode(
      z.array(identifier(z.string().min(1))).refine((a) => a.length <= 2, {
        error: "too many",
        params: { code: "invalid_pagination" } satisfies IssueParams,
      }),
      "invalid_ids",
    ),
    owner: withCode(identifier().optional(), "invalid_owner"),
  });

  it("identifier(): over 255 characters is identifier_too_long whatever the field's code; 255 is an ordinary id", () => {
    const long = "x".repeat(256);
    const err = failure(() => parsePart("body", body, { ids: ["a", long] }));
    expect(err).toMatchObject({
      status: 400,
      code: "identifier_too_long",
      init: { details: { field: "ids.1", part: "body" } },
    });
    expect(err.message).toMatch(/^ids\.1: is 256 characters/);
    expect(failure(() => parsePart("body", body, { ids: ["a"], owner: long })).code).toBe("identifier_too_long");
    expect(parsePart("body", body, { ids: ["x".repeat(255)] })).toEqual({ ids: ["x".repeat(255)] });
  });

  it("a refinement's params.code wins; the field's code answers its other issues; the first issue decides", () => {
    expect(failure(() => parsePart("body", body, { ids: ["a", "b", "c"] })).code).toBe("invalid_pagination");
    expect(failure(() => parsePart("body", body, { ids: [""] })).code).toBe("invalid_ids");
    expect(failure(() => parsePart("body", body, { ids: "a" })).code).toBe("invalid_ids");
    expect(failure(() => parsePart("body", body, { ids: [5], owner: "x".repeat(300) })).code).toBe("invalid_ids");
  });

  it("documents the identifier limit", () => {
    expect(z.toJSONSchema(identifier())).toMatchObject({ type: "string", maxLength: 255 });
  });
});

describe("later / checkLater", () => {
  const note = withCode(z.string().max(3).nullish(), "invalid_note");
  const body = z.object({ to: withCode(z.string(), "invalid_to"), note: later(note) });

  it("the pipeline takes a later field as sent; checkLater answers it with its code, named", () => {
    expect(parsePart("body", body, { to: "a", note: 5 })).toEqual({ to: "a", note: 5 });
    expect(parsePart("body", body, { to: "a" })).toEqual({ to: "a" });
    expect(failure(() => parsePart("body", body, { note: 5 })).code).toBe("invalid_to");
    const err = failure(() => checkLater(note, 5, "note"));
    expect(err).toMatchObject({ code: "invalid_note", init: { details: { field: "note", part: "body" } } });
    expect(err.message).toMatch(/^note: /);
    expect(checkLater(note, "abc", "note")).toBe("abc");
    expect(checkLater(note, undefined, "note")).toBeUndefined();
  });

  it("a whole later body is checked as one, each field with its code", () => {
    const whole = z.object({ n: withCode(z.int(), "invalid_n"), s: withCode(z.string().optional(), "invalid_s") });
    expect(parsePart("body", later(whole), { n: "x" })).toEqual({ n: "x" });
    expect(failure(() => checkLater(whole, { n: "x" })).code).toBe("invalid_n");
    expect(failure(() => checkLater(whole, { n: 1, s: 2 })).message).toMatch(/^s: /);
    expect(checkLater(whole, { n: 1, extra: true })).toEqual({ n: 1 });
  });

  it("is documented as the schema it is checked with", () => {
    const { $schema: _s, ...json } = z.toJSONSchema(note, { io: "input" }) as Record<string, unknown>;
    const doc = z.toJSONSchema(body, { io: "input" }) as { properties: Record<string, unknown>; required: string[] };
    expect(doc.properties.note).toEqual(json);
    expect(doc.required).toEqual(["to"]);
  });
});
