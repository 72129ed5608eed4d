import { ok, created } from "../pipeline/route.ts";
import { badRequest } from "../pipeline/errors.ts";
import { defineControl, type ControlSpec } from "./route.ts";
import { z } from "../pipeline/schema.ts";
import { badInput, text } from "./schemas.ts";

const active = z.object({ active: z.array(z.string()) });

// Harness testing aid: make the emulator break one named rule on purpose.

export const deviationRoutes: ControlSpec[] = [
  defineControl({
    method: "GET",
    path: "/deviations",
    describe: "Harness testing aid: available and active deviations",
    schema: {
      responses: {
        200: { description: "Active and available deviations", data: active.extend({ available: z.array(z.object({ name: z.string(), breaks: z.string() })) }) },
      },
    },
    handle: (c) =>
      ok({
        active: [...c.services.deviations],
        available: c.host.deviations.map((d) => ({ name: d.name, breaks: d.breaks })),
      }),
  }),
  defineControl({
    method: "POST",
    path: "/deviations",
    describe: "Harness testing aid: activate a deviation {name} that breaks one rule",
    schema: { body: z.object({ name: text() }), responses: { 201: { description: "Active deviations", data: active }, 400: badInput } },
    handle: (c) => {
      const name = c.input.body.name;
      if (!c.host.deviations.some((d) => d.name === name)) throw badRequest("invalid_value", `unknown deviation "${name}"; GET /_emulator/deviations lists them`);
      c.services.deviations.add(name);
      return created({ active: [...c.services.deviations] });
    },
  }),
  defineControl({
    method: "DELETE",
    path: "/deviations",
    describe: "Harness testing aid: deactivate every deviation",
    schema: { responses: { 200: { description: "None active", data: active } } },
    handle: (c) => {
      c.services.deviations.clear();
      return ok({ active: [] });
    },
  }),
];
