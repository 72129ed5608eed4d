import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { apiRoutes, controlRoutes } from "../emulator/app.ts";
import { openApiPath } from "../emulator/openapi/document.ts";
import { createEmulator, type Emulator } from "../emulator/index.ts";

// The OpenAPI documents come from the route table: every route the emulator
// serves is in them with the same method and path, they lint clean with
// Redocly's recommended rules, and the YAML and CLI forms say the same.

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: Record<string, unknown>;
};

let emu: Emulator;
beforeAll(async () => (emu = await createEmulator({ seed: 1, clock: "manual", port: 0 })));
afterAll(() => emu.close());

const get = async (path: string) => (await request(emu.url).get(path).buffer(true)).text;
const operations = (doc: Doc) =>
  Object.entries(doc.paths)
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
    .sort();

/**
 * Redocly's recommended rules, less three that the service's own shape breaks (docs/decisions.md, "OpenAPI"):
 * `/{game}/cards` beside `/webhooks/{id}` is ambiguous to a linter only (the game is an enum); health has
 * no 4xx and the announced price history no 2xx, by the service's rules.
 */
const OFF = { "no-ambiguous-paths": "off", "operation-4xx-response": "off", "operation-2xx-response": "off" } as const;

async function lint(text: string, name: string) {
  const config = await createConfig({ extends: ["recommended"], rules: OFF });
  return lintFromString({ source: text, absoluteRef: `/${name}`, config });
}

describe("GET /_emulator/openapi.json", () => {
  it("is OpenAPI 3.1 listing exactly the routes the emulator serves", async () => {
    const doc = JSON.parse(await get("/_emulator/openapi.json")) as Doc;
    expect(doc.openapi).toBe("3.1.0");
    const served = apiRoutes.map((r) => `${r.method} ${openApiPath(`/api/v1${r.path}`).path}`).sort();
    expect(operations(doc)).toEqual(served);
    expect(served.length).toBeGreaterThan(100);
  });

  it("each operation carries its security, cost, scopes and the pipeline's answers", async () => {
    const doc = JSON.parse(await get("/_emulator/openapi.json")) as Doc;
    const card = doc.paths["/api/v1/{game}/cards/{id}"]!.get!;
    expect(card.security).toEqual([{ ApiKey: [] }]);
    expect(card["x-credits-cost"]).toBe(1);
    expect(card["x-scopes"]).toEqual(["read:catalog"]);
    expect(Object.keys(card.responses as object).sort()).toEqual([
      "200",
      "400",
      "401",
      "402",
      "403",
      "404",
      "429",
      "500",
      "503",
    ]);
    expect((card.parameters as { name: string; schema: { enum?: string[] } }[])[0]).toMatchObject({
      name: "game",
      schema: { enum: ["pokemon", "onepiece", "azuki"] },
    });
    const health = doc.paths["/api/v1/health"]!.get!;
    expect(health.security).toEqual([]);
    expect(health["x-credits-cost"]).toBeUndefined();
    const orders = doc.paths["/api/v1/orders"]!.get!;
    expect(orders["x-key-kinds"]).toEqual(["tenant"]);
    expect(orders["x-envelope"]).toBe("warehouse");
    expect(doc.components).toHaveProperty("securitySchemes.ApiKey.name", "X-API-Key");
  });

  it("a route with a schema documents its parameters, body, answers and codes from it", async () => {
    const doc = JSON.parse(await get("/_emulator/openapi.json")) as Doc;
    const register = doc.paths["/api/v1/webhooks"]!.post! as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> };
      responses: Record<
        string,
        {
          content: Record<
            string,
            {
              schema: {
                allOf?: {
                  properties?: { data?: { properties?: Record<string, unknown> }; error?: { enum: string[] } };
                }[];
              };
            }
          >;
        }
      >;
    };
    const body = register.requestBody.content["application/json"]!.schema;
    expect(Object.keys(body.properties).sort()).toEqual(["event_types", "is_active", "url"]);
    expect(body.required).toEqual(["url"]);
    const created = register.responses["201"]!.content["application/json"]!.schema.allOf![1]!.properties!.data! as {
      $ref?: string;
    };
    // The contract's named shapes are components, each written once and referenced.
    expect(created.$ref).toBe("#/components/schemas/WebhookRegistration");
    const shape = (doc.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas
      .WebhookRegistration!;
    expect(Object.keys(shape.properties)).toContain("signing_secret");
    expect(register.responses["409"]!.content["application/json"]!.schema.allOf![1]!.properties!.error!.enum).toEqual([
      "webhook_limit",
    ]);
    expect(register.responses["400"]!.content["application/json"]!.schema.allOf![1]!.properties!.error!.enum).toContain(
      "invalid_event_types",
    );
    const deliveries = doc.paths["/api/v1/webhooks/deliveries"]!.get! as { parameters: { name: string; in: string }[] };
    expect(deliveries.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(["query:limit", "query:offset"]);
  });

  it("shows the rules the contract's query schemas enforce (Card Data: q's cap, paging digits, include's vocabulary)", async () => {
    const doc = JSON.parse(await get("/_emulator/openapi.json")) as Doc;
    const search = doc.paths["/api/v1/{game}/cards"]!.get! as {
      parameters: { name: string; in: string; schema: Record<string, unknown> }[];
    };
    const param = (name: string) => search.parameters.find((p) => p.in === "query" && p.name === name)!.schema;
    expect(param("q")).toMatchObject({ type: "string", maxLength: 512 });
    expect(param("page_size")).toMatchObject({ type: "string", pattern: String.raw`^\s*\d+\s*$` });
    expect(param("include")).toMatchObject({ pattern: String.raw`^\s*(prices\s*)?(,\s*(prices\s*)?)*$` });
    expect(param("distinct")).toMatchObject({ pattern: String.raw`^\s*(code\s*)?$` });
  });

  it("every API route declares its schema (a new route without one fails here)", () => {
    expect(apiRoutes.filter((r) => !r.schema).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it("lints with 0 errors and 0 warnings (Redocly recommended rules), the control plane's document too", async () => {
    for (const name of ["openapi.json", "openapi-control.json"]) {
      const problems = await lint(await get(`/_emulator/${name}`), name);
      expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
    }
  });

  it("uses standard JSON Schema and OpenAPI formats only (codegen tools know them)", async () => {
    const STANDARD = new Set([
      "date-time",
      "date",
      "time",
      "duration",
      "email",
      "uri",
      "uri-reference",
      "uuid",
      "ipv4",
      "ipv6",
      "hostname",
      "int32",
      "int64",
      "float",
      "double",
      "binary",
      "byte",
      "password",
    ]);
    const odd: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}/${i}`));
      else if (v && typeof v === "object")
        for (const [k, x] of Object.entries(v)) {
          if (k === "example" || k === "examples") continue; // answers, not schemas
          if (k === "format" && typeof x === "string" && !STANDARD.has(x)) odd.push(`${path}: ${x}`);
          walk(x, `${path}/${k}`);
        }
    };
    for (const name of ["openapi.json", "openapi-control.json"])
      walk(JSON.parse(await get(`/_emulator/${name}`)), name);
    expect(odd).toEqual([]);
  });

  it("the control plane's document lists every control route", async () => {
    const doc = JSON.parse(await get("/_emulator/openapi-control.json")) as Doc;
    expect(operations(doc)).toEqual(
      controlRoutes.map((r) => `${r.method} ${openApiPath(`/_emulator${r.path}`).path}`).sort(),
    );
  });

  it("each control route documents its answers and its body from its schema", async () => {
    const doc = JSON.parse(await get("/_emulator/openapi-control.json")) as Doc;
    type Op = {
      responses: Record<string, unknown>;
      requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
    };
    for (const r of controlRoutes) {
      const op = (doc.paths[openApiPath(`/_emulator${r.path}`).path] as Record<string, Op>)[r.method.toLowerCase()]!;
      // Writes also answer the CSRF guard's refusals (control/write-guard.ts).
      const guards = r.method === "GET" ? [] : ["403", "415"];
      expect(Object.keys(op.responses).sort(), `${r.method} ${r.path}`).toEqual(
        [...new Set([...Object.keys(r.schema.responses), ...guards])].sort(),
      );
      expect(
        Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)),
        `${r.method} ${r.path} answers a success`,
      ).toBe(true);
    }
    const reset = (
      doc.paths["/_emulator/reset"] as Record<
        string,
        {
          responses: Record<
            string,
            {
              content: { "application/json": { schema: { allOf: { properties?: { error?: { enum: string[] } } }[] } } };
            }
          >;
        }
      >
    ).post!;
    expect(reset.responses["415"]!.content["application/json"].schema.allOf[1]!.properties!.error!.enum).toEqual([
      "unsupported_media_type",
    ]);
    const faucet = (doc.paths["/_emulator/chain/faucet"] as Record<string, Op>).post!;
    expect(Object.keys(faucet.requestBody!.content["application/json"]!.schema.properties!)).toEqual([
      "address",
      "usdc",
      "eth",
    ]);
  });

  it(".yaml says the same as .json", async () => {
    const res = await request(emu.url).get("/_emulator/openapi.yaml").buffer(true);
    expect(res.headers["content-type"]).toMatch(/^application\/yaml/);
    expect(parseYaml(res.text)).toEqual(JSON.parse(await get("/_emulator/openapi.json")));
  });

  it("npx emulator openapi --out FILE writes the same document", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "openapi-")), "api.json");
    const run = spawnSync(
      process.execPath,
      [join(__dirname, "..", "bin", "emulator.js"), "openapi", "--out", out, "--server", "http://in-process.emulator"],
      { encoding: "utf8" },
    );
    expect(run.status, run.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(out, "utf8")) as Doc;
    const served = JSON.parse(await get("/_emulator/openapi.json")) as Doc & { servers: unknown };
    expect(doc.paths).toEqual(served.paths);
    expect((doc as Doc & { servers: unknown }).servers).toEqual([{ url: "http://in-process.emulator" }]);
  });
});
