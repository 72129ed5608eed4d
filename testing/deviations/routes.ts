import { ok, created } from "../../emulator/pipeline/route.ts";
import { badRequest } from "../../emulator/pipeline/errors.ts";
import { defineControl, type ControlSpec } from "../../emulator/control/route.ts";
import { z } from "../../emulator/pipeline/schema.ts";
import { badInput, text } from "../../emulator/control/schemas.ts";
import type { Deviation } from "./deviation.ts";

const activeShape = z.object({ active: z.array(z.string()) });

/** GET, POST {name} and DELETE /_emulator/deviations over one emulator's active set. */
export function deviationRoutes(all: readonly Deviation[], active: Set<string>): ControlSpec[] {
  return [
    defineControl({
      method: "GET",
      path: "/deviations",
      describe: "Harness testing aid: available and active deviations",
      schema: {
        responses: {
          200: {
            description: "Active and available deviations",
            data: activeShape.extend({ available: z.array(z.object({ name: z.string(), breaks: z.string() })) }),
          },
        },
      },
      handle: () => ok({ active: [...active], available: all.map((d) => ({ name: d.name, breaks: d.breaks })) }),
    }),
    defineControl({
      method: "POST",
      path: "/deviations",
      describe: "Harness testing aid: activate a deviation {name} that breaks one rule",
      schema: {
        body: z.object({ name: text() }),
        responses: { 201: { description: "Active deviations", data: activeShape }, 400: badInput },
      },
      handle: (c) => {
        const name = c.input.body.name;
        if (!all.some((d) => d.name === name))
          throw badRequest("invalid_value", `unknown deviation "${name}"; GET /_emulator/deviations lists them`);
        active.add(name);
        return created({ active: [...active] });
      },
    }),
    defineControl({
      method: "DELETE",
      path: "/deviations",
      describe: "Harness testing aid: deactivate every deviation",
      schema: { responses: { 200: { description: "None active", data: activeShape } } },
      handle: () => {
        active.clear();
        return ok({ active: [] });
      },
    }),
  ];
}
