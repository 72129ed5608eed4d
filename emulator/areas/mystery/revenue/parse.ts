import { MYSTERY_REVENUE } from "../../../../contract/index.ts";
import { badRequest } from "../../../pipeline/errors.ts";
import { z } from "../../../pipeline/schema.ts";

// The emulator's own reading of the revenue summary's period (contract/mystery/revenue.ts
// documents it), with the area's message.

/** An ISO-8601 date or timestamp → epoch ms (absent or empty: null). */
const isoParam = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw): number | null => {
      if (raw === undefined || raw === "") return null;
      const t = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : NaN;
      if (Number.isNaN(t))
        throw badRequest(
          "invalid_value",
          `${name} must be an ISO-8601 date or timestamp (e.g. 2026-01-01 or 2026-01-01T00:00:00Z)`,
        );
      return t;
    });

export const periodQuery = MYSTERY_REVENUE.summary.schema.query.extend({ from: isoParam("from"), to: isoParam("to") });
