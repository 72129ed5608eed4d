import { ok, created } from "../pipeline/route.ts";
import { badRequest } from "../pipeline/errors.ts";
import type { ControlSpec } from "./route.ts";
import { reqString } from "./body.ts";

// Harness testing aid: make the emulator break one named rule on purpose.

export const deviationRoutes: ControlSpec[] = [
  {
    method: "GET",
    path: "/deviations",
    describe: "Harness testing aid: available and active deviations",
    handle: (c) =>
      ok({
        active: [...c.services.deviations],
        available: c.host.deviations.map((d) => ({ name: d.name, breaks: d.breaks })),
      }),
  },
  {
    method: "POST",
    path: "/deviations",
    describe: "Harness testing aid: activate a deviation {name} that breaks one rule",
    handle: (c) => {
      const name = reqString(c.body, "name");
      if (!c.host.deviations.some((d) => d.name === name)) throw badRequest("invalid_value", `unknown deviation "${name}"; GET /_emulator/deviations lists them`);
      c.services.deviations.add(name);
      return created({ active: [...c.services.deviations] });
    },
  },
  {
    method: "DELETE",
    path: "/deviations",
    describe: "Harness testing aid: deactivate every deviation",
    handle: (c) => {
      c.services.deviations.clear();
      return ok({ active: [] });
    },
  },
];
