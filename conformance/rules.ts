import { INVARIANTS, SEQUENCES } from "../contract/invariants/index.ts";
import { ALL_CHECKS } from "./registry.ts";
import { WIRE_RULES } from "./wire.ts";
import { API_RULES } from "./inventory/api-rules.ts";
import { LIVE_SERVICE_RULES } from "./inventory/live-service.ts";
import { README_RULES } from "./inventory/README.ts";
import { SDK_SHAPES_RULES } from "./inventory/sdk-shapes.ts";
import type { CheckedBy, ReferenceInventory } from "./inventory/types.ts";

// The rule inventory (issue 34): every rule of the reference documents, one entry each, with what checks it.
// The rules are written per page in conformance/inventory/ (each quoting its sentence, with the page's
// statements that are not rules listed as skipped); a check, wire rule or invariant no page rule cites is
// listed here too, under its own sentence. It lives beside the checks, not in contract/, because a check is a
// conformance object; a rule the suite cannot check says why, a rule nothing checks yet says what would.

export interface RuleEntry {
  id: string;
  /** The sentence the rule comes from, in the project's words. */
  sentence: string;
  /** Where it is written (`docs/reference/<file>.md “Heading”`), when known. */
  source?: string;
  /** Operation ids it governs ("all": every answer); absent where a check's own requests decide. */
  operations?: readonly string[] | "all";
  /** Event types it governs. */
  events?: readonly string[];
  /** Check ids (`catalog.printings`), wire rules (`wire:paging`) or invariant ids (`invariant:wallet.available`). */
  checkedBy: CheckedBy;
}

/** The inventory of each docs/reference page. */
export const INVENTORIES: readonly ReferenceInventory[] = [
  README_RULES,
  API_RULES,
  LIVE_SERVICE_RULES,
  SDK_SHAPES_RULES,
];

const citedSource = (text: string | undefined): string | undefined => /docs\/[\w/-]+\.md “[^”]+”/.exec(text ?? "")?.[0];

/** The rules the reference pages state, with their source. */
export const REFERENCE_RULES: readonly RuleEntry[] = INVENTORIES.flatMap((inv) =>
  inv.rules.map((r) => ({
    id: r.id,
    sentence: r.sentence,
    source: `docs/reference/${inv.file} “${r.heading}”`,
    ...(r.operations ? { operations: r.operations } : {}),
    ...(r.events ? { events: r.events } : {}),
    checkedBy: r.checkedBy,
  })),
);

const checkersOf = (by: CheckedBy): readonly string[] => (Array.isArray(by) ? by : []);
const cited = new Set(REFERENCE_RULES.flatMap((r) => checkersOf(r.checkedBy)));

/** Each checker (wire rule, invariant, check) under its own sentence, for those no reference rule cites. */
const OWN_RULES: readonly RuleEntry[] = [
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
].filter((r) => !cited.has(r.checkedBy[0]!));

export const RULES: readonly RuleEntry[] = [...REFERENCE_RULES, ...OWN_RULES];

/** Whether a `checkedBy` entry names a checker that exists. */
export function checkerExists(name: string): boolean {
  if (name.startsWith("wire:")) return Object.hasOwn(WIRE_RULES, name.slice(5));
  if (name.startsWith("invariant:")) return [...INVARIANTS, ...SEQUENCES].some((i) => i.id === name.slice(10));
  return ALL_CHECKS.some((c) => c.id === name);
}

export interface Coverage {
  rules: number;
  checked: number;
  notCheckable: number;
  unchecked: number;
}

export function coverage(rules: readonly RuleEntry[] = RULES): Coverage {
  const count = (keep: (by: CheckedBy) => boolean) => rules.filter((r) => keep(r.checkedBy)).length;
  return {
    rules: rules.length,
    checked: count((by) => Array.isArray(by) && by.length > 0),
    notCheckable: count((by) => !Array.isArray(by) && "not_checkable" in by),
    unchecked: count((by) => !Array.isArray(by) && "unchecked" in by),
  };
}

/** "N rules, M checked, K not checkable, U unchecked": the coverage line of the summary and docs/conformance.md. */
export function coverageLine(rules: readonly RuleEntry[] = RULES): string {
  const c = coverage(rules);
  return `${c.rules} rules, ${c.checked} checked, ${c.notCheckable} not checkable, ${c.unchecked} unchecked`;
}

export interface RuleCoverage extends Coverage {
  /** "N rules, M checked, K not checkable, U unchecked". */
  line: string;
}

/** The coverage a report carries (the JSON report's `rule_coverage`, the summary's line). */
export function ruleCoverage(rules: readonly RuleEntry[] = RULES): RuleCoverage {
  return { ...coverage(rules), line: coverageLine(rules) };
}

const COVERAGE = /Coverage \(\d+ rules[^)]*\)/;

/** `doc` (docs/conformance.md) with its coverage line set to `line`; `npx tsx scripts/conformance-table.mts --write`. */
export function withCoverageLine(doc: string, line: string = coverageLine()): string {
  if (!COVERAGE.test(doc)) throw new Error("docs/conformance.md has no “Coverage (N rules, …)” line");
  return doc.replace(COVERAGE, `Coverage (${line})`);
}
