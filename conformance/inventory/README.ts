import type { ReferenceInventory } from "./types.ts";

// The rules of docs/reference/README.md, in the page's order, each quoting its sentence (or table row) as the
// page words it; the statements that are not rules are listed under `skipped` with a one-word reason.

export const README_RULES: ReferenceInventory = {
  file: "README.md",
  rules: [
    {
      id: "readme.card-data-both-pagings",
      heading: "Sources, in order",
      sentence:
        "Where the rules and the live service differ (Card Data's `page`/`page_size` beside `limit`/`offset`), the emulator accepts both.",
      operations: ["cards.search", "expansions.search", "expansions.cards", "sealed.search"],
      checkedBy: {
        not_checkable:
          "the emulator's own choice (it accepts both pagings); the live service is not held to accepting limit/offset on Card Data",
      },
    },
  ],
  skipped: [
    {
      heading: "Reference",
      reason: "intro",
      text: "The facts about the real service that the emulator, the contract and the conformance suite rely on, written down here so that every citation in the code points inside the repository.",
    },
    {
      heading: "Reference",
      reason: "meta",
      text: 'Code and docs cite a file and a heading: `docs/reference/api-rules.md "Error codes"` (`test/references.test.ts` checks that each cited file and heading exists).',
    },
    {
      heading: "Reference",
      reason: "index",
      text: "| [api-rules.md](api-rules.md) | The interface rules: envelope, resources, states and transitions, endpoints, authentication and scopes, events, errors and codes, credits, plans and limits, idempotency, versioning |",
    },
    {
      heading: "Reference",
      reason: "index",
      text: "| [live-service.md](live-service.md) | What the live service does where the rules are silent: partner scopes, envelopes, money and ids, paging, idempotency, rate limits, extra error codes, Card Data, mystery commerce, instant packs, sell-back, buyback, redemption, revenue, the webhook registry and signature scheme, event types, flows |",
    },
    {
      heading: "Reference",
      reason: "index",
      text: "| [sdk-shapes.md](sdk-shapes.md) | What the official SDK (0.1.2) expects: transport, errors, retries, paging, polling, its methods, and the wire shapes of instant packs, redemption, purchases, webhook event data, buyback and revenue |",
    },
    {
      heading: "Sources, in order",
      reason: "precedence",
      text: "The interface rules (api-rules.md) win wherever they speak.",
    },
    {
      heading: "Sources, in order",
      reason: "precedence",
      text: "The live service and the SDK (live-service.md, sdk-shapes.md) fill what the rules leave open: field names, statuses, the webhook signature, paging shapes, routes the rules do not show.",
    },
    { heading: "Sources, in order", reason: "precedence", text: "Where those two disagree, the SDK (0.1.2) is newer." },
    {
      heading: "Sources, in order",
      reason: "precedence",
      text: "Where all are silent, the emulator does what well-known emulators do and records the choice in [docs/decisions.md](../decisions.md).",
    },
    {
      heading: "Sources, in order",
      reason: "terminology",
      text: 'In comments and docs, "the interface" (its rules, its tables, its codes) means the rules written in api-rules.md, and "the SDK" the official SDK 0.1.2 as described in sdk-shapes.md.',
    },
  ],
};
