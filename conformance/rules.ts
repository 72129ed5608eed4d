import { INVARIANTS, SEQUENCES } from "../contract/invariants/index.ts";
import { ALL_CHECKS } from "./registry.ts";
import { WIRE_RULES } from "./wire.ts";

// The rule inventory (issue 34): every rule of the reference documents the suite knows, one entry each, with
// what checks it. Seeded from what already cites a rule: each check (its `rule` and `guards`), each rule of
// the wire (WIRE_RULES) and each contract invariant (its `rule` and `source`). It lives beside the checks, not
// in contract/, because a check is a conformance object; a rule the suite cannot check says why.

export interface RuleEntry {
  id: string;
  /** The sentence the rule comes from, in the project's words. */
  sentence: string;
  /** Where it is written (`docs/reference/<file>.md “Heading”`), when the checker names it. */
  source?: string;
  /** Operation ids it governs ("all": every answer); absent where a check's own requests decide. */
  operations?: readonly string[] | "all";
  /** Check ids (`catalog.printings`), wire rules (`wire:paging`) or invariant ids (`invariant:wallet.available`). */
  checkedBy: readonly string[] | { not_checkable: string };
}

const citedSource = (text: string | undefined): string | undefined => /docs\/[\w/-]+\.md “[^”]+”/.exec(text ?? "")?.[0];

/** Rules no check or invariant can hold a target to, with the reason. */
const NOT_CHECKABLE: readonly RuleEntry[] = [
  {
    id: "sdk.header-only-idempotency",
    sentence:
      "Custodial purchase and redemption prepare always send Idempotency-Key in the header only, never the body",
    source: "docs/reference/sdk-shapes.md “Idempotency keys”",
    checkedBy: { not_checkable: "a rule of the client, not of the server's answers" },
  },
];

export const RULES: readonly RuleEntry[] = [
  ...Object.entries(WIRE_RULES).map(([id, sentence]) => ({
    id: `wire.${id}`,
    sentence,
    source: citedSource(sentence),
    operations: "all" as const,
    checkedBy: [`wire:${id}`],
  })),
  ...[...INVARIANTS, ...SEQUENCES].map((i) => ({
    id: i.id,
    sentence: i.rule,
    source: i.source,
    operations: i.operations,
    checkedBy: [`invariant:${i.id}`],
  })),
  ...ALL_CHECKS.map((c) => ({ id: c.id, sentence: c.rule, source: citedSource(c.guards), checkedBy: [c.id] })),
  ...NOT_CHECKABLE,
];

/** Whether a `checkedBy` entry names a checker that exists. */
export function checkerExists(name: string): boolean {
  if (name.startsWith("wire:")) return Object.hasOwn(WIRE_RULES, name.slice(5));
  if (name.startsWith("invariant:")) return [...INVARIANTS, ...SEQUENCES].some((i) => i.id === name.slice(10));
  return ALL_CHECKS.some((c) => c.id === name);
}

/** "N rules, M checked": the coverage line of the summary and docs/conformance.md. */
export function coverageLine(rules: readonly RuleEntry[] = RULES): string {
  const checked = rules.filter((r) => Array.isArray(r.checkedBy) && r.checkedBy.length > 0).length;
  return `${rules.length} rules, ${checked} checked`;
}
