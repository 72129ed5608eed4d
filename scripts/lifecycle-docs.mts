// Writes the lifecycle diagrams and tables into the area docs, and the event types into docs/webhooks.md
// "Events" and docs/world.schema.json, from the tables the code runs:
//   npx tsx scripts/lifecycle-docs.mts
// (test/unit/lifecycle-docs.test.ts fails while a doc is out of date.)
import { readFileSync, writeFileSync } from "node:fs";
import { withLifecycleBlock } from "../contract/lifecycle.ts";
import { LIFECYCLE_DOCS } from "../contract/lifecycles/index.ts";
import { withEventsBlock } from "../contract/event-docs.ts";
import { worldJsonSchema } from "../emulator/world/schema.ts";
import { format, resolveConfig } from "prettier";

for (const { id, doc, lifecycle } of LIFECYCLE_DOCS) {
  const before = readFileSync(doc, "utf8");
  const after = withLifecycleBlock(before, id, lifecycle);
  if (after !== before) writeFileSync(doc, after);
  console.log(`${doc}: ${id} ${after === before ? "up to date" : "written"}`);
}

const WEBHOOKS_DOC = "docs/webhooks.md";
const before = readFileSync(WEBHOOKS_DOC, "utf8");
const after = withEventsBlock(before);
if (after !== before) writeFileSync(WEBHOOKS_DOC, after);
console.log(`${WEBHOOKS_DOC}: events ${after === before ? "up to date" : "written"}`);

// A world file's `event_types` (docs/world.schema.json) names the event types too: written as
// `npx emulator world --schema` prints it, formatted as the repository formats JSON (test/world/schema-file.test.ts).
const WORLD_SCHEMA = "docs/world.schema.json";
const schemaBefore = readFileSync(WORLD_SCHEMA, "utf8");
const schemaAfter = await format(`${JSON.stringify(worldJsonSchema(), null, 2)}\n`, {
  ...(await resolveConfig(WORLD_SCHEMA)),
  filepath: WORLD_SCHEMA,
});
if (schemaAfter !== schemaBefore) writeFileSync(WORLD_SCHEMA, schemaAfter);
console.log(`${WORLD_SCHEMA}: event types ${schemaAfter === schemaBefore ? "up to date" : "written"}`);
