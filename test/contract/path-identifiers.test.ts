import { describe, expect, it } from "vitest";
import { MAX_IDENTIFIER, z, type IssueParams } from "../../contract/index.ts";
import { apiRoutes } from "../../emulator/app.ts";
import { useEmulator, type Api, type Emulator } from "../helpers.ts";
import { expectError } from "../../conformance/assert.ts";

// An identifier's length is decided in one place, the contract's `identifier()` (contract/zod.ts): every path
// parameter of every API route declares it, and an over-long one answers identifier_too_long before the
// parameter's other rules (a tier id's digits, a card id's lookup) — the pipeline has no check of its own.

const LONG = "1".repeat(MAX_IDENTIFIER + 1);

/** The 400 code a value's first issue answers with (a refinement's own, else zod's issue code). */
function firstCode(schema: z.ZodType, value: string): string | undefined {
  const issue = schema.safeParse(value).error?.issues[0];
  return issue?.code === "custom" ? (issue.params as IssueParams | undefined)?.code : issue?.code;
}

describe("every path parameter is an identifier() of the contract", () => {
  const routes = apiRoutes.filter((r) => r.path.includes(":"));

  it("declared, at most 255 characters in the OpenAPI schema, identifier_too_long first", () => {
    expect(routes.length).toBeGreaterThan(30);
    let checked = 0;
    for (const route of routes) {
      const shape = (route.schema?.params?.shape ?? {}) as Record<string, z.ZodType>;
      // `:game{pokemon|onepiece|azuki}`: the router's own pattern bounds it, no over-long value reaches a handler.
      for (const [, name, pattern] of route.path.matchAll(/:(\w+)(\{[^}]*\})?/g)) {
        if (pattern) continue;
        const what = `${route.method} ${route.path} :${name}`;
        expect(shape[name!], what).toBeDefined();
        const json = z.toJSONSchema(shape[name!]!, { io: "input", unrepresentable: "any" }) as { maxLength?: number };
        expect(json.maxLength, what).toBe(MAX_IDENTIFIER);
        expect(firstCode(shape[name!]!, LONG), what).toBe("identifier_too_long");
        expect(firstCode(shape[name!]!, "1".repeat(MAX_IDENTIFIER)), what).not.toBe("identifier_too_long");
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(40);
  });
});

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

describe("over-long path ids over HTTP: identifier_too_long, refunded", () => {
  it("webhooks, vision confirm, graded certs and a tier's odds (not invalid_tier / not_found)", async () => {
    const key = emu.key("demo");
    const before = (await api.get("/_emulator/credits/demo").expect(200)).body.data.balance as number;
    const cases: [string, () => Promise<unknown>][] = [
      ["GET /webhooks/:id", () => api.get(`/api/v1/webhooks/${LONG}`).set("X-API-Key", key)],
      ["PATCH /webhooks/:id", () => api.patch(`/api/v1/webhooks/${LONG}`).set("X-API-Key", key).send({})],
      ["PUT /webhooks/:id", () => api.put(`/api/v1/webhooks/${LONG}`).set("X-API-Key", key).send({})],
      ["DELETE /webhooks/:id", () => api.delete(`/api/v1/webhooks/${LONG}`).set("X-API-Key", key)],
      [
        "POST /vision/identify/:feedback_id/confirm",
        () => api.post(`/api/v1/vision/identify/${LONG}/confirm`).set("X-API-Key", key).send({}),
      ],
      [
        "GET /grading/certs/:provider/:certNumber",
        () => api.get(`/api/v1/grading/certs/PSA/${LONG}`).set("X-API-Key", key),
      ],
      [
        "GET /grading/certs/:provider",
        () => api.get(`/api/v1/grading/certs/${"P".repeat(256)}/1`).set("X-API-Key", key),
      ],
      [
        "GET /mystery/catalog/:tier_id/odds",
        () => api.get(`/api/v1/mystery/catalog/${LONG}/odds`).set("X-API-Key", key),
      ],
      ["GET /pokemon/cards/:id", () => api.get(`/api/v1/pokemon/cards/${"a".repeat(256)}`).set("X-API-Key", key)],
    ];
    for (const [what, call] of cases) {
      const res = (await call()) as Parameters<typeof expectError>[0];
      expect(expectError(res, 400, "identifier_too_long", what).message, what).toMatch(
        /is 256 characters; identifiers are at most 255$/,
      );
    }
    // 255 characters is an ordinary id: the parameter's own rule answers.
    expectError(
      await api.get(`/api/v1/mystery/catalog/${"1".repeat(255)}/odds`).set("X-API-Key", key),
      400,
      "invalid_tier",
    );
    expectError(await api.get(`/api/v1/webhooks/${"1".repeat(255)}`).set("X-API-Key", key), 404, "not_found");
    expect((await api.get("/_emulator/credits/demo").expect(200)).body.data.balance).toBe(before);
  });
});
