import { authenticate } from "../auth.ts";
import { writeMeteringHeader } from "../metering.ts";
import type { Step } from "./context.ts";

/** `X-API-Key`: 401 without a known key. */
export const authentication: Step = {
  name: "authentication",
  run(p) {
    p.key = authenticate(p.apiKey, p.services.store.state.keys);
    writeMeteringHeader(p.headers, p.key);
  },
};
