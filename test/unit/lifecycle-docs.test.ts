import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { withLifecycleBlock } from "../../contract/lifecycle.ts";
import { LIFECYCLE_DOCS } from "../../contract/lifecycles/index.ts";
import { withEventsBlock } from "../../contract/event-docs.ts";
import { EVENT_TYPES } from "../../contract/events.ts";

// The docs' state diagrams are the tables the code runs: a changed table row
// without `npx tsx scripts/lifecycle-docs.mts` fails here.

describe("lifecycle docs", () => {
  for (const { id, doc, lifecycle } of LIFECYCLE_DOCS)
    it(`${doc} draws the current ${lifecycle.name} table`, () => {
      const text = readFileSync(doc, "utf8");
      expect(withLifecycleBlock(text, id, lifecycle), "run npx tsx scripts/lifecycle-docs.mts").toBe(text);
      for (const t of lifecycle.transitions) expect(text).toContain(`\`${t.trigger}\``);
    });

  it("docs/webhooks.md lists the event types the tables declare", () => {
    const text = readFileSync("docs/webhooks.md", "utf8");
    expect(withEventsBlock(text), "run npx tsx scripts/lifecycle-docs.mts").toBe(text);
    for (const type of EVENT_TYPES) expect(text).toContain(`| \`${type}\` |`);
    expect(text).toContain("| `purchase.submitted` | partner | mystery purchase | `submit`, `confirm` |");
    expect(text).toContain("| `card.returned` | tenant | order | side event: a returned card is scanned back");
  });
});
