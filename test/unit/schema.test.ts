import { describe, expect, it } from "vitest";
import { ApiError } from "../../emulator/pipeline/errors.ts";
import { parsePart, responseProblem, withCode, z } from "../../emulator/pipeline/schema.ts";
import { offsetPageQuery } from "../../emulator/pipeline/pagination.ts";

// The schema mechanism: a failing field answers its own documented code and
// names itself; answers are checked against what the route declares.

const body = z.object({
  url: withCode(z.string().min(1), "invalid_url"),
  tags: withCode(z.array(z.string()).optional(), "invalid_tags"),
  nested: z.object({ n: withCode(z.number().int().nullable().optional(), "invalid_n") }).optional(),
  plain: z.boolean().optional(),
});

const fails = (value: unknown) => {
  try {
    parsePart("body", body, value);
  } catch (err) {
    return err as ApiError;
  }
  throw new Error("expected a failure");
};

describe("parsePart", () => {
  it("answers the field's code through optional and nullable wrappers, at any depth, and names the field", () => {
    expect(fails({}).code).toBe("invalid_url");
    expect(fails({ url: "x", tags: "a" })).toMatchObject({ status: 400, code: "invalid_tags" });
    expect(fails({ url: "x", tags: ["a", 5] }).code).toBe("invalid_tags");
    const deep = fails({ url: "x", nested: { n: 1.5 } });
    expect(deep.code).toBe("invalid_n");
    expect(deep.message).toMatch(/^nested\.n: /);
    expect(deep.init.details).toEqual({ field: "nested.n", part: "body" });
    // A field without a code takes the default.
    expect(fails({ url: "x", plain: "yes" }).code).toBe("invalid_value");
    expect(parsePart("body", body, { url: "x", tags: ["a"] })).toEqual({ url: "x", tags: ["a"] });
  });

  it("offset paging parses to numbers with the interface's rules", () => {
    const q = z.object(offsetPageQuery());
    expect(parsePart("query", q, {})).toEqual({ limit: 50, offset: 0 });
    expect(parsePart("query", q, { limit: "20abc", offset: "-3" })).toEqual({ limit: 20, offset: 0 });
    expect(parsePart("query", q, { limit: "500", offset: "99999" })).toEqual({ limit: 100, offset: 10_000 });
    try {
      parsePart("query", q, { limit: "abc" });
      throw new Error("expected a failure");
    } catch (err) {
      expect((err as ApiError).code).toBe("invalid_pagination");
      expect((err as ApiError).message).toMatch(/^limit: /);
    }
  });
});

describe("responseProblem", () => {
  const schema = {
    responses: {
      200: { description: "ok", data: z.object({ id: z.number() }) },
      404: { description: "nf", codes: ["not_found"] },
    },
  };
  it("accepts a declared answer, names the field of a wrong one, refuses an undeclared status", () => {
    expect(responseProblem(schema, 200, { id: 1 })).toBeNull();
    expect(responseProblem(schema, 200, { id: "1" })).toMatch(/^data\.id: /);
    expect(responseProblem(schema, 404, undefined)).toBeNull();
    expect(responseProblem(schema, 201, { id: 1 })).toMatch(/not declared/);
  });

  it("checks the fields beside data, and holds data to its variant only when the request asks for it", () => {
    const full = z.strictObject({ id: z.string(), name: z.string() });
    const page = {
      responses: {
        200: {
          description: "page",
          data: z.array(full),
          top: z.strictObject({ total_count: z.number().int() }),
          variant: {
            query: "select",
            description: "trimmed",
            data: z.array(full.partial().extend({ id: z.string() })),
          },
        },
      },
    };
    const top = { total_count: 1 };
    expect(responseProblem(page, 200, [{ id: "a", name: "A" }], { top })).toBeNull();
    expect(responseProblem(page, 200, [{ id: "a", name: "A" }], { top: {} })).toMatch(/^total_count: /);
    expect(responseProblem(page, 200, [{ id: "a" }], { top, query: new URLSearchParams() })).toMatch(
      /^data\.0\.name: /,
    );
    expect(responseProblem(page, 200, [{ id: "a" }], { top, query: new URLSearchParams("select=id") })).toBeNull();
    expect(responseProblem(page, 200, [{ name: "A" }], { top, query: new URLSearchParams("select=name") })).toMatch(
      /^data\.0\.id: /,
    );
  });
});
