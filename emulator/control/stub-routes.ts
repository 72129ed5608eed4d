import { created, ok } from "../pipeline/route.ts";
import { z } from "../pipeline/schema.ts";
import { stubsOf, type StubSpec } from "../pipeline/stubs.ts";
import { defineControl, type ControlSpec } from "./route.ts";
import { opt, text } from "./schemas.ts";

// Stubs per operation over the control plane (the mechanism is pipeline/stubs.ts): what a test in
// another process uses where an in-process one would `server.use()` an msw handler.

const strings = z.record(z.string(), z.string());

const matchSchema = z.object({
  key: opt(text()).meta({ description: "A fixture key's name (demo), a whole key or a key's label" }),
  params: opt(strings).meta({ description: "Path parameters by name" }),
  query: opt(strings).meta({ description: "Query parameters with these values" }),
  body: opt(z.record(z.string(), z.unknown())).meta({ description: "Members the JSON body holds (deep)" }),
});

const stubBody = z.object({
  operation: text().meta({ description: "A contract operation id (gacha.purchase)" }),
  match: opt(matchSchema),
  status: z.number({ error: "status (100-599) is required" }).int().min(100).max(599),
  body: z.unknown().meta({ description: "The whole JSON body answered; a 2xx must satisfy the operation's contract" }),
  headers: opt(strings),
  times: opt(z.number().int().min(1)),
  unchecked: opt(z.boolean()).meta({ description: "Send a 2xx body the contract refuses (default false)" }),
});

const stubWire = z.object({
  id: z.string(),
  hits: z.number().int(),
  operation: z.string(),
  match: matchSchema.optional(),
  status: z.number().int(),
  body: z.unknown(),
  headers: strings.optional(),
  times: z.number().int().optional(),
  unchecked: z.boolean().optional(),
});

/** The body without its absent members (a stub is listed as it was given). */
function specOf(b: z.output<typeof stubBody>): StubSpec {
  const spec: StubSpec = { operation: b.operation, status: b.status, body: b.body ?? null };
  if (b.match) spec.match = Object.fromEntries(Object.entries(b.match).filter(([, v]) => v !== undefined));
  if (b.headers) spec.headers = b.headers;
  if (b.times !== undefined) spec.times = b.times;
  if (b.unchecked) spec.unchecked = true;
  return spec;
}

export const stubControlRoutes: ControlSpec[] = [
  defineControl({
    method: "GET",
    path: "/stubs",
    describe: "Stubs in force, newest first, with their hits",
    schema: {
      responses: { 200: { description: "Every stub", data: z.object({ stubs: z.array(stubWire) }) } },
    },
    handle: (c) => ok({ stubs: stubsOf(c.services).all() }),
  }),
  defineControl({
    method: "POST",
    path: "/stubs",
    describe:
      "Make one operation answer as told {operation, match?: {key?, params?, query?, body?}, status, body, headers?, times?, unchecked?}: " +
      "after auth and scope checks, instead of the handler, not billed; a 2xx body must satisfy the contract (400 invalid_stub names the pointer)",
    schema: {
      body: stubBody,
      responses: {
        201: { description: "The stub", data: stubWire },
        400: {
          description: "A field is invalid, or a 2xx body breaks the operation's contract (details: pointer, problem)",
          codes: ["invalid_value", "invalid_json", "invalid_stub"],
        },
      },
    },
    handle: (c) => created(stubsOf(c.services).add(specOf(c.input.body))),
  }),
  defineControl({
    method: "DELETE",
    path: "/stubs",
    describe: "Remove every stub (reset does too)",
    schema: {
      responses: { 200: { description: "How many were removed", data: z.object({ cleared: z.number().int() }) } },
    },
    handle: (c) => ok({ cleared: stubsOf(c.services).clear() }),
  }),
];
