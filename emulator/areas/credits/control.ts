import { ok } from "../../pipeline/route.ts";
import { defineControl, type ControlSpec } from "../../control/route.ts";
import { opt, text } from "../../control/schemas.ts";
import { z } from "../../pipeline/schema.ts";
import { creditsSlice } from "./state.ts";
import { keyNamed } from "../../control/account.ts";

// Operator view of settled top-ups (newest first), e.g. to find the tx hash a partner quotes.
export const creditsControl: ControlSpec[] = [
  defineControl({
    method: "GET",
    path: "/topups",
    describe: "Settled x402 top-ups, newest first (optional ?key= value or fixture name)",
    schema: {
      query: z.object({ key: opt(text()) }),
      responses: {
        200: {
          description: "Settled top-ups, newest first",
          data: z.object({
            topups: z.array(
              z.object({
                tx_hash: z.string(),
                key: z.string(),
                usd: z.number(),
                credits_granted: z.number().int(),
                balance_credits: z.number().int(),
                payer: z.string(),
                network: z.string(),
                amount: z.string(),
                settled_at: z.string(),
              }),
            ),
          }),
        },
        400: { description: "key is empty", codes: ["invalid_value"] },
      },
    },
    handle(c) {
      const given = c.input.query.key;
      // A fixture name filters by its key's value; an unknown key matches nothing (a filter, not a lookup).
      const key = given === undefined ? undefined : (keyNamed(c.services, given)?.key ?? given);
      const topups = Object.values(creditsSlice(c.services.store).topups)
        .filter((t) => !key || t.key === key)
        .sort((a, b) => (a.settled_at < b.settled_at ? 1 : a.settled_at > b.settled_at ? -1 : 0))
        .map(({ payment_response: _omit, ...t }) => t);
      return ok({ topups });
    },
  }),
];
