import { authorize } from "../auth.ts";
import type { AccessRule } from "../auth.ts";
import type { Step } from "./context.ts";

/** The key's kind and scopes against the route's `AccessRule`: 403. */
export const authorization: Step = {
  name: "authorization",
  run(p) {
    authorize(p.key!, p.spec.access as AccessRule);
  },
};
