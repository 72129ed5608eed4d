import type { z } from "./zod.ts";
import type { Fixtures, Payload } from "./event-fixtures.ts";

// A lifecycle as data: every state a record can be in and every move between
// them, each with what triggers it, the ledger movements it makes, the events it
// publishes (in order) and the due time it leaves on the record; the table's
// side events, published beside its records without a move; and what each of its
// event types carries (its `data` shape and a realistic example). Every event type
// the emulator publishes is declared by exactly one table, as a row's event or a side
// event, and nowhere else: the catalogue (contract/events.ts) is read off the tables
// (docs/architecture.md, the table of where a change goes). The emulator runs records
// through these tables (emulator/pipeline/lifecycle.ts: `transition`), the area
// docs draw their state diagrams from them (scripts/lifecycle-docs.mjs) and the
// scenarios and checks take their expected paths from them (`pathOf`).

/** The pseudo-state a new record comes from (a mermaid diagram's start). */
export const START = "[*]";

/** When the record's next step is due, counted from now or from when it was reserved; null clears it. */
export interface Due {
  after_ms: number;
  since: "now" | "reserved";
}

/**
 * A ledger movement of the transition, of the amount the caller names (`hold`: what the record
 * holds, `charged`: what the chain took of it, `rest`: hold − charged, `refund`: what was paid back).
 * A movement of 0 is skipped; a record without a custodial balance makes none.
 */
export interface LedgerStep<M extends string> {
  move: M;
  amount: "hold" | "charged" | "rest" | "refund";
}

export interface TransitionSpec<S extends string, T extends string, M extends string, E extends string> {
  from: readonly (S | typeof START)[];
  to: S;
  trigger: T;
  moves: readonly LedgerStep<M>[];
  /** The events the move publishes, in this order, each built from the record as moved (none: []). */
  events: readonly E[];
  /** The record's due time after the move: set, cleared (null) or, when absent, left as it was. */
  due?: Due | null;
  /** One line for the docs. */
  note: string;
}

/** What a table declares of an event type it publishes: the shape of its `data` and a realistic example. */
export interface EventSpec {
  /** The `data` every emission is held to (the publisher refuses any other), and the checks read deliveries by. */
  data: z.ZodType;
  /** A realistic `data`, deterministic from the fixtures: `POST /_emulator/events` and the receiver check send it. */
  example: (f: Fixtures) => Payload;
}

/** Each event type a table's rows publish, with its spec: a row's event missing here does not compile. */
export type EventCatalogue<E extends string> = { readonly [K in E]: EventSpec };

/** An event a table's records publish without a move of their own (an item pulled, a deposit, a card scanned back). */
export interface SideEvent<E extends string> extends EventSpec {
  event: E;
  /** One line for the docs: when it is published. */
  note: string;
}

export interface Lifecycle<
  S extends string,
  T extends string,
  M extends string,
  E extends string,
  X extends string = never,
> {
  name: string;
  states: readonly S[];
  transitions: readonly TransitionSpec<S, T, M, E>[];
  /** The rows' event types, each once, with its `data` shape and example (none: {}). */
  catalogue: EventCatalogue<E>;
  /** Events published beside the records, not by a move (absent: none); their types X are not the rows' E. */
  sideEvents?: readonly SideEvent<X>[];
}

/** Any lifecycle, for code that only walks a table. */
export type AnyLifecycle = Lifecycle<string, string, string, string, string>;

/** The event types a table declares, as a type: its rows' and its side events'. */
export type EventOf<L> = L extends Lifecycle<infer _S, infer _T, infer _M, infer E, infer X> ? E | X : never;

/** The spec of an event type `lc` declares (a row's or a side event's), or undefined. */
export function specOf(lc: AnyLifecycle, type: string): EventSpec | undefined {
  if (Object.hasOwn(lc.catalogue, type)) return lc.catalogue[type];
  return lc.sideEvents?.find((e) => e.event === type);
}

/** Every event type the table declares: its rows' events, then its side events, each once, in table order. */
export function eventsOf(lc: AnyLifecycle): string[] {
  const out = new Set<string>();
  for (const t of lc.transitions) for (const e of t.events) out.add(e);
  for (const side of lc.sideEvents ?? []) out.add(side.event);
  return [...out];
}

/** The move `trigger` makes from `from`, if the table has one. */
export function rowFor<S extends string, T extends string, M extends string, E extends string>(
  lc: Lifecycle<S, T, M, E, string>,
  from: S | typeof START,
  trigger: T,
): TransitionSpec<S, T, M, E> | undefined {
  return lc.transitions.find((t) => t.trigger === trigger && t.from.includes(from));
}

/** The states a record passes through when `triggers` fire in order from `from`; throws on a move the table lacks. */
export function pathOf<S extends string, T extends string>(
  lc: Lifecycle<S, T, string, string, string>,
  triggers: readonly T[],
  from: S | typeof START = START,
): S[] {
  const out: S[] = [];
  let at: S | typeof START = from;
  for (const trigger of triggers) {
    const row = rowFor(lc, at, trigger);
    if (!row) throw new Error(`${lc.name}: no "${trigger}" from ${at}`);
    if (row.to !== at) out.push(row.to);
    at = row.to;
  }
  return out;
}

/**
 * Whether a record seen in `from` may be seen in `to` by a later read: `to` is `from` or a state the table's moves
 * reach from it (the moves in between unseen). Two reads of a live target are taken at different moments, so a
 * check comparing them allows this forward progress and nothing else (never a move back).
 */
export function reachable(lc: AnyLifecycle, from: string, to: string): boolean {
  const seen = new Set([from]);
  for (const at of seen)
    // a Set iterates what is added while iterating: breadth first
    for (const t of lc.transitions) if (t.from.includes(at)) seen.add(t.to);
  return seen.has(to);
}

/** The table as a mermaid state diagram (one edge per from-state; a state with no way out ends). */
export function mermaid(lc: AnyLifecycle): string {
  const lines = ["stateDiagram-v2"];
  for (const t of lc.transitions)
    for (const from of t.from) {
      const label = [t.trigger, t.events.length ? `/ ${t.events.join(", ")}` : ""].filter(Boolean).join(" ");
      lines.push(`  ${from} --> ${t.to}: ${label}`);
    }
  for (const s of lc.states) if (!lc.transitions.some((t) => t.from.includes(s))) lines.push(`  ${s} --> [*]`);
  return lines.join("\n");
}

/** The table as a markdown table (trigger, from, to, ledger, event, due). */
export function markdownTable(lc: AnyLifecycle): string {
  const span = (ms: number) =>
    ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
  const due = (d: Due | null | undefined) =>
    d === undefined ? "kept" : d === null ? "cleared" : d.after_ms === 0 ? d.since : `${d.since} + ${span(d.after_ms)}`;
  const rows = lc.transitions.map((t) => {
    const moves = t.moves.map((m) => `${m.move} (${m.amount})`).join(", ") || "—";
    const cells = [`\`${t.trigger}\``, t.from.join(", "), t.to, moves, t.events.join(", ") || "—", due(t.due), t.note];
    return `| ${cells.join(" | ")} |`;
  });
  const table = ["| trigger | from | to | ledger | event | due | when |", "|---|---|---|---|---|---|---|", ...rows];
  const sides = (lc.sideEvents ?? []).map((e) => `- \`${e.event}\`: ${e.note}`);
  return [...table, ...(sides.length ? ["", "Side events (published without a move):", "", ...sides] : [])].join("\n");
}

const marker = (id: string, end: "start" | "end") => `<!-- lifecycle:${id}:${end} -->`;

/** A doc's generated block: the diagram and the table between its markers (scripts/lifecycle-docs.mts writes it). */
export function lifecycleBlock(id: string, lc: AnyLifecycle): string {
  return [
    marker(id, "start"),
    `<!-- generated from contract/lifecycles/ by \`npx tsx scripts/lifecycle-docs.mts\`; edit the table, not this -->`,
    "",
    "```mermaid",
    mermaid(lc),
    "```",
    "",
    markdownTable(lc),
    marker(id, "end"),
  ].join("\n");
}

/** `doc` with the block of `id` brought up to date; throws when the doc has no markers for it. */
export function withLifecycleBlock(doc: string, id: string, lc: AnyLifecycle): string {
  const start = doc.indexOf(marker(id, "start"));
  const end = doc.indexOf(marker(id, "end"));
  if (start === -1 || end < start) throw new Error(`no ${marker(id, "start")} … ${marker(id, "end")} block`);
  return doc.slice(0, start) + lifecycleBlock(id, lc) + doc.slice(end + marker(id, "end").length);
}
