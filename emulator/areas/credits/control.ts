import { ok } from "../../pipeline/route.ts";
import type { ControlSpec } from "../../control/route.ts";
import { creditsSlice } from "./state.ts";

// Operator view of settled top-ups (newest first), e.g. to find the tx hash a partner quotes.
export const creditsControl: ControlSpec[] = [
  {
    method: "GET",
    path: "/topups",
    describe: "Settled x402 top-ups, newest first (optional ?key=)",
    handle(c) {
      const key = c.query.get("key");
      const topups = Object.values(creditsSlice(c.services.store).topups)
        .filter((t) => !key || t.key === key)
        .sort((a, b) => (a.settled_at < b.settled_at ? 1 : a.settled_at > b.settled_at ? -1 : 0))
        .map(({ payment_response: _omit, ...t }) => t);
      return ok({ topups });
    },
  },
];
