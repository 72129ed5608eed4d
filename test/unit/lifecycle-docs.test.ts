import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { withLifecycleBlock } from "../../contract/lifecycle.ts";
import { LIFECYCLE_DOCS } from "../../contract/lifecycles/index.ts";

// The docs' state diagrams are the tables the code runs: a changed table row
// without `npx tsx scripts/lifecycle-docs.mts` fails here.

describe("lifecycle docs", () => {
  for (const { id, doc, lifecycle } of LIFECYCLE_DOCS)
    it(`${doc} draws the current ${lifecycle.name} table`, () => {
      const text = readFileSync(doc, "utf8");
      expect(withLifecycleBlock(text, id, lifecycle), "run npx tsx scripts/lifecycle-docs.mts").toBe(text);
      for (const t of lifecycle.transitions) expect(text).toContain(`\`${t.trigger}\``);
    });
});
