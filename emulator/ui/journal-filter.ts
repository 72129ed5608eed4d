import { z } from "../pipeline/schema.ts";
import { opt, text } from "../control/schemas.ts";
import { JOURNAL_SIZE, type JournalFilter } from "./journal.ts";

// The journal's filters, declared once: GET /_emulator/requests reads them from
// the query (strings), `emu.requests.find/count` from a typed object (numbers,
// booleans, dates); both parse through this schema into a JournalFilter.

/** An instant: virtual-clock milliseconds or an ISO-8601 string. */
const instant = (name: string) =>
  z.union([z.number(), z.string()]).transform((v, ctx): number => {
    const ms = typeof v === "number" ? v : /^\d+$/.test(v) ? Number(v) : Date.parse(v);
    if (!Number.isFinite(ms)) {
      ctx.addIssue({ code: "custom", message: `${name} must be an ISO-8601 time or milliseconds`, input: v });
      return z.NEVER;
    }
    return ms;
  });

const status = z
  .union([z.number().int(), z.string()])
  .transform((v) => String(v))
  .pipe(z.string().regex(/^(?:[1-5]\d\d|[1-5]xx)$/i, "status must be a status (404) or a class (4xx)"));

const bool = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

export const journalQuery = z.object({
  key: opt(text()).meta({ description: "A fixture key's name (demo), a whole key, a key's label or its masked form" }),
  method: opt(text()),
  operation: opt(text()).meta({
    description: "A contract operation id (gacha.purchase) or a path template (/webhooks/:id)",
  }),
  status: opt(status).meta({ description: "404, or a class: 4xx" }),
  path: opt(text()).meta({ description: "A substring of the path and query" }),
  since: opt(instant("since")).meta({ description: "Answered at or after (ISO-8601 or virtual-clock ms)" }),
  until: opt(instant("until")).meta({ description: "Answered at or before (ISO-8601 or virtual-clock ms)" }),
  stubbed: opt(bool).meta({ description: "Only calls a stub answered (true), or only the others (false)" }),
  limit: opt(z.coerce.number().int().min(1).max(JOURNAL_SIZE)),
}) satisfies z.ZodType<JournalFilter>;

type Instant = number | string | Date;

/** What `emu.requests.find` and `count` take: every field optional, times as ms, ISO strings or Dates. */
export type RequestFilter = Omit<z.input<typeof journalQuery>, "since" | "until"> & {
  since?: Instant;
  until?: Instant;
};

/** A typed filter parsed as the query is (a Date is its milliseconds). */
export function parseFilter({ since, until, ...rest }: RequestFilter): JournalFilter {
  const ms = (v: Instant | undefined) => (v instanceof Date ? v.getTime() : v);
  return journalQuery.parse({ ...rest, since: ms(since), until: ms(until) });
}
