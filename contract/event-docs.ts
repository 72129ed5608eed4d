import { EVENT_CATALOGUE, EVENT_TYPES } from "./events.ts";
import { LIFECYCLES } from "./lifecycles/index.ts";

// docs/webhooks.md "Events": the event types as the lifecycle tables declare them, drawn by
// `npx tsx scripts/lifecycle-docs.mts` (test/unit/lifecycle-docs.test.ts fails while the doc is out of date),
// so an event added to a table is documented without a hand edit.

const START = "<!-- events:start -->";
const END = "<!-- events:end -->";

/** What publishes `type`: its rows' triggers, or its side event's note. */
function publishedBy(type: string, table: string): string {
  const lc = LIFECYCLES.find((l) => l.name === table)!;
  const side = lc.sideEvents?.find((e) => e.event === type);
  if (side) return `side event: ${side.note}`;
  const triggers = [...new Set(lc.transitions.filter((t) => t.events.includes(type)).map((t) => t.trigger))];
  return triggers.map((t) => `\`${t}\``).join(", ");
}

/** The generated block: every event type, whose accounts get it, the table that declares it and what publishes it. */
export function eventsBlock(): string {
  const rows = EVENT_TYPES.map((type) => {
    const e = EVENT_CATALOGUE[type];
    return `| \`${type}\` | ${e.accounts} | ${e.table} | ${publishedBy(type, e.table)} |`;
  });
  return [
    START,
    "<!-- generated from contract/lifecycles/ by `npx tsx scripts/lifecycle-docs.mts`; edit the tables, not this -->",
    "",
    "| event type | accounts | lifecycle table | published by (the table's triggers) |",
    "|---|---|---|---|",
    ...rows,
    END,
  ].join("\n");
}

/** `doc` with its events block brought up to date; throws when the doc has no markers for it. */
export function withEventsBlock(doc: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end < start) throw new Error(`no ${START} … ${END} block`);
  return doc.slice(0, start) + eventsBlock() + doc.slice(end + END.length);
}
