import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../contract/index.ts";
import { EXAMPLES, NO_EXAMPLE } from "../../contract/examples.ts";
import { apiDocument } from "../../emulator/openapi/document.ts";
import { apiAreas } from "../../emulator/app.ts";

// contract/examples.json (scripts/openapi-examples.mts) holds one real answer per operation: every
// operation with a success has one (or a stated reason), each still fits the operation's declared
// shape, and the OpenAPI document shows it on that success.

const successes = (op: (typeof OPERATIONS)[number]) =>
  Object.keys(op.schema.responses)
    .map(Number)
    .filter((s) => s < 300);

describe("contract/examples.json", () => {
  it("has an example for every operation with a success, except those listed with a reason", () => {
    const missing = OPERATIONS.filter((op) => successes(op).length && !EXAMPLES[op.id] && !NO_EXAMPLE[op.id]).map(
      (op) => op.id,
    );
    expect(missing).toEqual([]);
    const known = new Set(OPERATIONS.map((op) => op.id));
    expect(Object.keys(EXAMPLES).filter((id) => !known.has(id))).toEqual([]);
    for (const id of Object.keys(NO_EXAMPLE)) expect(EXAMPLES[id], id).toBeUndefined();
  });

  it("each example is a declared success status whose data (and fields beside it) fit the declared shapes", () => {
    for (const op of OPERATIONS) {
      const ex = EXAMPLES[op.id];
      if (!ex) continue;
      const spec = op.schema.responses[ex.status];
      expect(spec, `${op.id}: status ${ex.status} is not declared`).toBeDefined();
      if (spec!.data) {
        const r = spec!.data.safeParse(ex.data);
        expect(r.success ? [] : r.error.issues.slice(0, 3), op.id).toEqual([]);
      }
      if (spec!.top) {
        const own = Object.fromEntries(
          Object.keys(spec!.top.shape)
            .filter((k) => k in ex)
            .map((k) => [k, ex[k]]),
        );
        const r = spec!.top.safeParse(own);
        expect(r.success ? [] : r.error.issues.slice(0, 3), `${op.id} (fields beside data)`).toEqual([]);
      }
    }
  });

  it("the OpenAPI document carries each example, as the whole envelope, on its success response", () => {
    type Media = { example?: { success: boolean; data?: unknown } };
    const doc = apiDocument(apiAreas(), "http://localhost") as {
      paths: Record<
        string,
        Record<string, { operationId: string; responses: Record<string, { content?: Record<string, Media> }> }>
      >;
    };
    const byId = new Map(
      Object.values(doc.paths)
        .flatMap((ops) => Object.values(ops))
        .map((o) => [o.operationId, o]),
    );
    for (const [id, ex] of Object.entries(EXAMPLES)) {
      const media = byId.get(id)?.responses[String(ex.status)]?.content?.["application/json"];
      expect(media?.example, id).toEqual({
        success: true,
        ...Object.fromEntries(Object.entries(ex).filter(([k]) => k !== "status")),
      });
    }
  });
});
