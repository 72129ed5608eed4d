import { defineControl, type ControlSpec } from "../../../control/route.ts";
import { badInput, missing } from "../../../control/schemas.ts";
import { notFound } from "../../../pipeline/errors.ts";
import { intId } from "../../../pipeline/identifiers.ts";
import { ok } from "../../../pipeline/route.ts";
import { z } from "../../../pipeline/schema.ts";
import { mystery } from "../state.ts";
import { purchaseWire } from "./purchases.ts";
import { Purchase } from "../../../../contract/index.ts";
import { markShortfall } from "./shortfall.ts";

// Operator actions on purchases that have not revealed yet.

export const purchaseControl: ControlSpec[] = [
  defineControl({
    method: "POST",
    path: "/mystery/purchases/:id/shortfall",
    describe:
      "Pool shortfall {items: n ≥ 1}: when the purchase's reveal lands, its last n items cannot be delivered → PARTIALLY_FULFILLED with the delivered items; the undelivered items are never minted and their share of the price is paid back on chain by the reveal (custodial: to the relayer, credited to the balance); 409 once revealed on chain",
    schema: {
      params: z.object({ id: z.string() }),
      body: z.object({
        items: z
          .number({ error: "items must be a whole number ≥ 1" })
          .int("items must be a whole number ≥ 1")
          .min(1, "items must be a whole number ≥ 1"),
      }),
      responses: {
        200: { description: "The purchase, marked", data: Purchase },
        400: badInput,
        404: missing("purchase"),
        409: { description: "The purchase has revealed or ended already", codes: ["invalid_status"] },
      },
    },
    handle: async (c) => {
      const id = intId(c.input.params.id);
      const row = id === null ? undefined : mystery(c.services).purchases[id];
      if (!row) throw notFound(`No purchase ${c.input.params.id}`);
      return ok(purchaseWire(c.services, await markShortfall(c.services, row.id, c.input.body.items)));
    },
  }),
];
