import { OPERATIONS } from "../../contract/index.ts";

// The shapes of the rule inventory (issue 34): one file per docs/reference page lists each of its rules with
// the sentence quoted as the page words it, and each statement that is not a rule as a skipped text with a
// one-word reason; conformance/rules.test.ts proves every unit of every page is one or the other.

/** Existing checkers (check ids, `wire:<rule>`, `invariant:<id>`), or why none can be, or what one would need. */
export type CheckedBy = readonly string[] | { not_checkable: string } | { unchecked: string };

export interface InventoryRule {
  id: string;
  /** The sentence, table row or bullet as the page writes it (whitespace runs count as one space). */
  sentence: string;
  /** The heading it sits under. */
  heading: string;
  /** Operation ids (contract/index.ts OPERATIONS) it governs; "all" for every answer; absent when no route does. */
  operations?: readonly string[] | "all";
  /** Event types (contract/events.ts) it governs. */
  events?: readonly string[];
  checkedBy: CheckedBy;
}

/** A statement of the page that is not a rule (an introduction, a pointer, history), with a one-word reason. */
export interface SkippedText {
  heading: string;
  text: string;
  reason: string;
}

export interface ReferenceInventory {
  /** The page, under docs/reference/. */
  file: string;
  rules: readonly InventoryRule[];
  skipped: readonly SkippedText[];
}

const ids = (keep: (o: (typeof OPERATIONS)[number]) => boolean): readonly string[] =>
  OPERATIONS.filter(keep).map((o) => o.id);
const under = (...prefixes: string[]) => ids((o) => prefixes.some((p) => o.id.startsWith(p)));

/** Card Data and graded-cert reads. */
export const CATALOG = under("cards.", "expansions.", "sealed.", "grading.");
/** Partner commerce: mystery packs, custodial wallet, instant packs, buyback, sell-back, redemption, revenue. */
export const COMMERCE = under(
  "gacha.",
  "wallet.",
  "mystery.",
  "revenue.",
  "payoutWallet.",
  "instant.",
  "buyback.",
  "sellback.",
  "redemption.",
);
export const WAREHOUSE = under("warehouse.");
export const WEBHOOKS = under("webhooks.");
/** The warehouse routes that answer raw cards. */
export const WAREHOUSE_CARDS: readonly string[] = [
  "warehouse.cards.list",
  "warehouse.cards.get",
  "warehouse.inventory.list",
];
/** The warehouse's writes. */
export const WAREHOUSE_WRITES = ids((o) => o.id.startsWith("warehouse.") && o.method !== "GET");
