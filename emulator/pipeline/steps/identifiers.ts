import { checkIdentifier } from "../identifiers.ts";
import type { Step } from "./context.ts";

/** Every path identifier within the service's limits (≤ 255 characters: pipeline/identifiers.ts). */
export const identifiers: Step = {
  name: "identifiers",
  // A route's parameters are the `:name` segments of its path.
  on: (spec) => spec.path.includes(":"),
  run(p) {
    for (const name in p.params) checkIdentifier(p.params[name]!, name);
  },
};
