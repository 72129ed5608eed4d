import { defineControl, type ControlSpec } from "../../control/route.ts";
import { badInput } from "../../control/schemas.ts";
import { resumeRelayed } from "../../pipeline/relayer-port.ts";
import { ok } from "../../pipeline/route.ts";
import { z } from "../../pipeline/schema.ts";
import { resumePending } from "./purchases/relay.ts";
import { mystery } from "./state.ts";
import { armWorker, runWorker } from "./worker.ts";

// The relayer switch (docs/reference/live-service.md “Partner error codes”: 503 relayer_disabled "custodial
// purchasing / buyback relay paused"). Off: new custodial purchases and relayed
// buyback accepts answer 503 relayer_disabled (retryable) and nothing is held;
// purchases already RESERVED wait as PENDING with their hold. On: every PENDING
// purchase is picked up at once (→ SUBMITTING → SUBMITTED on the clock). Custodial
// instant purchases follow the same switch (pipeline/relayer-port.ts).

export const relayerControl: ControlSpec[] = [
  defineControl({
    method: "POST",
    path: "/mystery/relayer",
    describe:
      "Relayer switch {enabled: boolean}: off → custodial (mystery and instant) purchases and relayed buyback accepts 503 relayer_disabled (retryable), held purchases wait as PENDING (FAILED, hold released, after 1 h); on → PENDING purchases are relayed",
    schema: {
      body: z.object({ enabled: z.boolean({ error: "enabled must be true or false" }) }),
      responses: {
        200: {
          description: "The switch now, and how many PENDING purchases it resumed",
          data: z.object({ enabled: z.boolean(), resumed: z.number().int() }),
        },
        400: badInput,
      },
    },
    handle: async (c) => {
      const enabled = c.input.body.enabled;
      mystery(c.services).relayer = enabled ? "on" : "off";
      const resumed = enabled ? resumePending(c.services) : 0;
      if (resumed > 0) await runWorker(c.services);
      else armWorker(c.services);
      // Other areas' relayed purchases (custodial instant packs) wait and resume the same way.
      return ok({ enabled, resumed: resumed + (enabled ? await resumeRelayed(c.services) : 0) });
    },
  }),
];
