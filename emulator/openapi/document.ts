import type { RouteSpec } from "../pipeline/route.ts";
import { z, type RouteSchema } from "../pipeline/schema.ts";
import type { ControlSpec } from "../control/route.ts";
import * as CONTRACT from "../../contract/index.ts";
import { EXAMPLES, type Example } from "../../contract/examples.ts";

// OpenAPI 3.1 documents generated from the route registry: the API under
// /api/v1 (security, credit cost, scopes, key kinds, concurrency gate, the
// pipeline's own answers and headers) and the control plane under /_emulator.
// The route table is the single source, so a route cannot be served without
// being documented, nor documented without being served.

type Json = Record<string, unknown>;

export interface AreaRoutes {
  name: string;
  routes: readonly RouteSpec[];
}

const HEADER = (description: string, schema: Json = { type: "string" }) => ({ description, schema });

const COMPONENTS = {
  securitySchemes: {
    ApiKey: {
      type: "apiKey",
      in: "header",
      name: "X-API-Key",
      description: "A partner, tenant or legacy key (`rip_v1_…`).",
    },
  },
  headers: {
    "X-Request-Id": HEADER("Identifies this answer; quote it when reporting a problem."),
    "X-RateLimit-Limit": HEADER(
      "The ceiling in force (requests per minute): the IP's until a key is known, then the lower of the IP's and the key's.",
      { type: "integer" },
    ),
    "X-RateLimit-Remaining": HEADER("Requests left in the window whose ceiling is in force.", { type: "integer" }),
    "X-RateLimit-Reset": HEADER("Unix seconds when the oldest counted request leaves the window.", { type: "integer" }),
    "Retry-After": HEADER("Seconds to wait before retrying (429, 503).", { type: "integer" }),
    "X-Credits-Cost": HEADER("Credits this call cost (0 when refunded: any 4xx or 5xx).", { type: "integer" }),
    "X-Credits-Remaining": HEADER("Credit balance after this call.", { type: "integer" }),
    "X-Credits-Metering": HEADER("`unmetered` on legacy keys.", { type: "string", enum: ["unmetered"] }),
  },
  schemas: {
    Success: {
      type: "object",
      required: ["success", "data"],
      properties: {
        success: { const: true },
        data: { description: "The payload." },
        pagination: { $ref: "#/components/schemas/Pagination" },
      },
    },
    Pagination: {
      type: "object",
      required: ["limit", "offset", "has_more"],
      properties: {
        limit: { type: "integer" },
        offset: { type: "integer" },
        has_more: { type: "boolean" },
        next_offset: { type: "integer" },
      },
    },
    PartnerError: {
      type: "object",
      description: "Partner and Card Data errors: `error` is the machine code.",
      required: ["success", "message", "error"],
      properties: {
        success: { const: false },
        message: { type: "string" },
        error: { type: "string" },
        details: { type: "object" },
        retryable: { type: "boolean" },
      },
    },
    WarehouseError: {
      type: "object",
      description:
        "Warehouse errors: `code` is the machine code, `error` a human text (429/503/500: the machine label in both).",
      required: ["success", "message", "error", "code"],
      properties: {
        success: { const: false },
        message: { type: "string" },
        error: { type: "string" },
        code: { type: "string" },
        data: { description: "A 409's conflicting resource, as it is now." },
        retryable: { type: "boolean" },
      },
    },
  },
};

/** `/:game{pokemon|onepiece|azuki}/cards/:id` → `/{game}/cards/{id}` and its parameters. */
export function openApiPath(honoPath: string): { path: string; params: Json[] } {
  const params: Json[] = [];
  const path = honoPath.replace(/:(\w+)(\{([^}]*)\})?/g, (_m, name: string, _g: string, pattern?: string) => {
    const schema: Json = { type: "string" };
    if (pattern && /^[\w-]+(\|[\w-]+)+$/.test(pattern)) schema.enum = pattern.split("|");
    else if (!pattern) schema.maxLength = 255;
    params.push({ name, in: "path", required: true, schema });
    return `{${name}}`;
  });
  return { path, params };
}

function refHeaders(names: string[]): Json {
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}

function errorResponse(description: string, envelope: RouteSpec["envelope"], headers: string[]): Json {
  const schema = { $ref: `#/components/schemas/${envelope === "warehouse" ? "WarehouseError" : "PartnerError"}` };
  return { description, headers: refHeaders(headers), content: { "application/json": { schema } } };
}

function operationId(method: string, path: string): string {
  const words = path
    .replace(/[{}]/g, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

/** JSON Schema of a zod schema (requests as input, answers as output), without the `$schema` line. */
function jsonSchema(schema: z.ZodType, io: "input" | "output", inline = false): Json {
  // Answers name the contract's shapes (Card, Purchase, Order …) once, as components; requests stay inline.
  const metadata = io === "output" && !inline ? NAMED : undefined;
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", metadata }) as Json;
  return rest;
}

/** The contract's named shapes (its exports spelled like types: `Card`, `WebhookDelivery`), by identity. */
const NAMED = (() => {
  const registry = z.registry<{ id: string }>();
  for (const [name, value] of Object.entries(CONTRACT))
    if (/^[A-Z][a-z]/.test(name) && value instanceof z.ZodType && !registry.has(value))
      registry.add(value, { id: name });
  return registry;
})();

/**
 * Moves every `$defs` the named shapes produced into `components.schemas` and points the references
 * there: each shape is written once, and codegen users get a type per shape.
 */
function liftDefs(doc: Json): Json {
  const schemas: Json = {};
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object") return v;
    const out: Json = {};
    for (const [k, x] of Object.entries(v as Json)) {
      if (k === "$defs") {
        for (const [name, def] of Object.entries(x as Json)) schemas[name] ??= walk(def);
        continue;
      }
      out[k] = k === "$ref" && typeof x === "string" ? x.replace(/^#\/\$defs\//, "#/components/schemas/") : walk(x);
    }
    return out;
  };
  const lifted = walk(doc) as Json;
  const components = (lifted.components ?? {}) as Json;
  lifted.components = { ...components, schemas: { ...((components.schemas as Json | undefined) ?? {}), ...schemas } };
  return lifted;
}

/** Parameters (path and query) of a route schema, each with its JSON Schema. */
function schemaParams(schema: RouteSchema, pathParams: Json[]): Json[] {
  const out: Json[] = [];
  const shape = (o: z.ZodObject | undefined) => (o ? (o.shape as Record<string, z.ZodType>) : {});
  for (const p of pathParams) {
    const field = shape(schema.params)[p.name as string];
    out.push(field ? { ...p, schema: jsonSchema(field, "input") } : p);
  }
  if (schema.query) {
    const required = new Set((jsonSchema(schema.query, "input").required as string[] | undefined) ?? []);
    for (const [name, field] of Object.entries(shape(schema.query)))
      out.push({ name, in: "query", required: required.has(name), schema: jsonSchema(field, "input") });
  }
  return out;
}

/** A route's success fields beside `data` (Card Data's page fields), as JSON Schema properties and required names. */
function topFields(top: z.ZodObject | undefined): { properties?: Json; required?: string[] } {
  if (!top) return {};
  // Spread beside `data`: its fields, never a reference to the shape that holds them.
  const { properties, required } = jsonSchema(top, "output", true) as { properties?: Json; required?: string[] };
  return { properties, ...(required?.length ? { required } : {}) };
}

function declaredResponses(
  schema: RouteSchema,
  envelope: RouteSpec["envelope"],
  ok: string[],
  example?: Example,
): Json {
  const out: Json = {};
  for (const [status, r] of Object.entries(schema.responses)) {
    const code = Number(status);
    if (code < 400) {
      const own: Json = {};
      if (r.data) own.data = jsonSchema(r.data, "output");
      // Fields beside `data` (Card Data lists' page, page_size, total_count, language) are part of the answer too.
      const top = topFields(r.top);
      Object.assign(own, top.properties);
      const required = [...(r.data ? ["data"] : []), ...(top.required ?? [])];
      const body = Object.keys(own).length
        ? { allOf: [{ $ref: "#/components/schemas/Success" }, { type: "object", required, properties: own }] }
        : { $ref: "#/components/schemas/Success" };
      // One real answer of the emulator (contract/examples.json), as the whole envelope.
      const media: Json = { schema: body };
      if (example?.status === code) {
        const { status: _st, ...fields } = example;
        media.example = { success: true, ...fields };
      }
      out[status] = { description: r.description, headers: refHeaders(ok), content: { "application/json": media } };
      // A narrower answer under one query parameter (select=): beside the main shape, not merged into it.
      const v = r.variant;
      if (v)
        (out[status] as Json)["x-data-variants"] = [
          { query: v.query, description: v.description, schema: jsonSchema(v.data, "output") },
        ];
    } else {
      const field = envelope === "warehouse" ? "code" : "error";
      const base = { $ref: `#/components/schemas/${envelope === "warehouse" ? "WarehouseError" : "PartnerError"}` };
      const properties: Json = {};
      if (r.codes?.length) properties[field] = { enum: [...r.codes] };
      if (r.details) properties.details = jsonSchema(r.details, "output");
      const body = Object.keys(properties).length ? { allOf: [base, { type: "object", properties }] } : base;
      out[status] = {
        description: r.description,
        headers: refHeaders(ok),
        content: { "application/json": { schema: body } },
      };
    }
  }
  return out;
}

function apiOperation(spec: RouteSpec, area: string, params: Json[], path: string): Json {
  const isPublic = spec.access === "public";
  const metered = spec.cost !== undefined;
  // On every answer, health's included (not counted there: where the caller's window stands).
  const rate = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
  // X-Credits-Metering: on every answer to a legacy key, whatever the route.
  const credit = metered ? ["X-Credits-Cost", "X-Credits-Remaining", "X-Credits-Metering"] : ["X-Credits-Metering"];
  const ok = ["X-Request-Id", ...rate, ...credit];
  const responses: Json = {
    "2XX": {
      description: "Success (the envelope's `data`).",
      headers: refHeaders(ok),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Success" } } },
    },
    "400": errorResponse(
      "Bad input: the code names the rule (`identifier_too_long`, `invalid_json`, `payload_too_large` is 413 …).",
      spec.envelope,
      ok,
    ),
    "404": errorResponse("`not_found` (or the resource's own not-found code).", spec.envelope, ok),
  };
  if (!isPublic) {
    responses["401"] = errorResponse("Missing or unknown `X-API-Key`; never charged.", spec.envelope, [
      "X-Request-Id",
      ...rate,
    ]);
    responses["403"] = errorResponse(
      "`Insufficient permissions` (key kind or scope), `not_tier_partner`, `not_pool_partner`; never charged.",
      spec.envelope,
      ok,
    );
    responses["429"] = errorResponse("`rate_limited`; never charged.", spec.envelope, [...ok, "Retry-After"]);
  }
  if (metered)
    responses["402"] = errorResponse(
      "`insufficient_credits`: the balance cannot cover the call; nothing charged.",
      spec.envelope,
      ok,
    );
  if (spec.gate)
    responses["503"] = errorResponse(
      "`overloaded` (concurrency gate full) or `timeout`; `retryable: true`; never charged.",
      spec.envelope,
      [...ok, "Retry-After"],
    );
  responses["500"] = errorResponse(
    "`internal_error`; refunded" + (spec.envelope === "warehouse" ? "; opens an integration issue" : "") + ".",
    spec.envelope,
    ok,
  );
  const op: Json = {
    operationId: spec.operation?.id ?? operationId(spec.method, path),
    tags: [area],
    summary: spec.operation?.summary ?? `${spec.method} ${path}`,
    security: isPublic ? [] : [{ ApiKey: [] }],
    responses,
  };
  // What the contract declares is documented, not how the emulator parses it.
  const schema = spec.operation?.schema ?? spec.schema;
  if (schema) {
    // The route's own answers replace the generic 2XX/400/404.
    delete responses["2XX"];
    delete responses["400"];
    delete responses["404"];
    Object.assign(
      responses,
      declaredResponses(schema, spec.envelope, ok, spec.operation ? EXAMPLES[spec.operation.id] : undefined),
    );
    const all = schemaParams(schema, params);
    const idem = spec.operation?.idempotencyKey;
    if (idem)
      all.push({
        name: "Idempotency-Key",
        in: "header",
        required: idem === "required",
        description:
          "Makes the write safe to retry: a replay with the same key and body answers the first result; another body is 409 idempotency_mismatch.",
        schema: { type: "string", minLength: 1, maxLength: 128 },
      });
    if (all.length) op.parameters = all;
    if (schema.body)
      op.requestBody = {
        required: true,
        content: { "application/json": { schema: jsonSchema(schema.body, "input") } },
      };
    else if (schema.ownBody)
      op.requestBody = {
        required: true,
        content: Object.fromEntries(
          Object.entries(schema.ownBody).map(([media, s]) => [media, { schema: jsonSchema(s, "input") }]),
        ),
      };
  } else {
    if (params.length) op.parameters = params;
    if (spec.method !== "GET" && spec.method !== "DELETE")
      op.requestBody = { required: false, content: { "application/json": { schema: { type: "object" } } } };
  }
  if (metered) op["x-credits-cost"] = spec.cost;
  if (spec.access !== "public") {
    const { kinds, scopes, models } = spec.access;
    op["x-key-kinds"] = [...kinds];
    if (scopes?.length) op["x-scopes"] = [...scopes];
    if (models?.length) op["x-billing-models"] = [...models];
  }
  if (spec.gate) op["x-concurrency-gate"] = spec.gate;
  op["x-envelope"] = spec.envelope;
  return op;
}

const AREA_DESCRIPTIONS: Record<string, string> = {
  service: "Liveness: no key, not rate limited.",
  catalog: "Card Data: cards, expansions, sealed products, prices, graded certificates (1 credit per request).",
  credits: "Credits: balance and usage, x402 top-up.",
  vision: "Identify a card from an image (5 credits; confirming is free).",
  webhooks: "Webhook registrations and the delivery log.",
  mystery: "Mystery-pack commerce on the chain: catalog, purchases, redemption, buyback, sell-back, wallets, revenue.",
  warehouse: "Warehouse for tenants: inventory, quotes and orders, custody, inbound shipments, billing.",
};

export function apiDocument(areas: readonly AreaRoutes[], serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const area of areas)
    for (const spec of area.routes) {
      const { path, params } = openApiPath(`/api/v1${spec.path}`);
      (paths[path] ??= {})[spec.method.toLowerCase()] = apiOperation(spec, area.name, params, path);
    }
  return liftDefs({
    openapi: "3.1.0",
    info: {
      title: "Card data, commerce and warehouse service (local emulator)",
      version: "1.0.0",
      description:
        "Generated from the contract (contract/ in the emulator's repository). Every answer is an envelope (`success`, `data` or the error fields); " +
        "metered routes carry the credit headers and `x-credits-cost`; `x-scopes` and `x-key-kinds` say who may call a route.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: serverUrl }],
    tags: areas.map((a) => ({ name: a.name, description: AREA_DESCRIPTIONS[a.name] ?? a.name })),
    paths,
    components: COMPONENTS,
  });
}

/** What every control-plane write may answer before its handler (control/write-guard.ts). */
const WRITE_GUARDS: Json = Object.fromEntries(
  [
    [
      "403",
      "cross_origin_request",
      "`cross_origin_request`: sent from another origin than the emulator's own (a web page); scripts send no Origin.",
    ],
    ["415", "unsupported_media_type", "`unsupported_media_type`: a body declared as anything but JSON."],
  ].map(([status, code, description]) => [
    status,
    {
      description,
      headers: refHeaders(["X-Request-Id"]),
      content: {
        "application/json": {
          schema: {
            allOf: [
              { $ref: "#/components/schemas/PartnerError" },
              { type: "object", properties: { error: { enum: [code] } } },
            ],
          },
        },
      },
    },
  ]),
);

export function controlDocument(routes: readonly ControlSpec[], serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const spec of routes) {
    const { path, params } = openApiPath(`/_emulator${spec.path}`);
    const op: Json = {
      operationId: operationId(spec.method, path),
      tags: ["control"],
      summary: spec.describe,
      security: [],
      responses: declaredResponses(spec.schema, "partner", ["X-Request-Id"]),
    };
    const all = schemaParams(spec.schema, params);
    if (all.length) op.parameters = all;
    if (spec.method !== "GET") Object.assign(op.responses as Json, { ...WRITE_GUARDS, ...(op.responses as Json) });
    if (spec.schema.body)
      op.requestBody = {
        required: true,
        content: { "application/json": { schema: jsonSchema(spec.schema.body, "input") } },
      };
    (paths[path] ??= {})[spec.method.toLowerCase()] = op;
  }
  return liftDefs({
    openapi: "3.1.0",
    info: {
      title: "Emulator control plane",
      version: "1.0.0",
      description:
        "Operator actions and harness aids under /_emulator: no key, the partner envelope. Over HTTP every route answers only a loopback Host, an IP address or an allowed name (else 403 `host_not_allowed`).",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: serverUrl }],
    tags: [{ name: "control", description: "The emulator's control plane." }],
    paths,
    components: {
      headers: { "X-Request-Id": COMPONENTS.headers["X-Request-Id"] },
      schemas: {
        Success: COMPONENTS.schemas.Success,
        Pagination: COMPONENTS.schemas.Pagination,
        PartnerError: COMPONENTS.schemas.PartnerError,
      },
    },
  });
}
