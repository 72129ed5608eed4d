import { operation } from "./operation.ts";
import { z } from "./zod.ts";

// Liveness: no key, never rate limited (docs/architecture.md, the pipeline's order).

export const SERVICE = {
  health: operation({
    id: "service.health",
    method: "GET",
    path: "/health",
    summary: "Liveness: answers without a key and is never rate limited",
    access: "public",
    envelope: "partner",
    schema: {
      responses: { 200: { description: "Up", data: z.object({ status: z.literal("ok"), time: z.string() }) } },
    },
  }),
};
