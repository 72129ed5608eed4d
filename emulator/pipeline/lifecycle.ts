import { rowFor, START, type LedgerStep, type Lifecycle, type TransitionSpec } from "../../contract/lifecycle.ts";
import { conflict } from "./errors.ts";

// The one way a record changes state: the lifecycle's table (contract/lifecycles/)
// says which moves are legal and what each does; `transition` refuses any other
// (409 invalid_status, the record untouched), then writes the move's fields,
// the new state and due time, applies its ledger movements once and publishes
// each of its events once, in the row's order (each built from the record as moved).

/** A record that follows a lifecycle: its state and when its next step is due (virtual-clock ms). */
export interface Stateful<S extends string> {
  status: S;
  due_at_ms?: number | null;
  reserved_at?: string | null;
  created_at?: string;
}

export type Amounts = Partial<Record<LedgerStep<string>["amount"], bigint>>;

export interface TransitionContext<R, M extends string, E extends string> {
  /** The virtual clock's now (ms). */
  now: number;
  /** Fields the move writes beside the state (a hash, a reason, items), applied only when the move is legal. */
  patch?: Partial<R>;
  /** The amounts the table's movements name; `rest` defaults to hold − charged. */
  amounts?: Amounts;
  /** Applies one movement to the record's custodial balance; absent when the record has none (non-custodial). */
  ledger?: (move: M, micros: bigint) => void;
  /** Publishes one of the row's events, built from the record as it is after the move (the area's payload builder). */
  emit: (event: E) => void;
  /** The area's own 409 for a move the table lacks (its envelope and data); default illegalMove. */
  refuse?: (from: string, trigger: string) => Error;
}

/** A move the table does not have from the record's state. */
export function illegalMove(name: string, from: string, trigger: string): Error {
  return conflict("invalid_status", `The ${name} is ${from}; "${trigger}" does not apply to it`);
}

function amountOf(step: LedgerStep<string>, a: Amounts): bigint {
  const derived = a.hold !== undefined && a.charged !== undefined ? a.hold - a.charged : undefined;
  const v = step.amount === "rest" ? (a.rest ?? derived) : a[step.amount];
  if (v === undefined) throw new Error(`lifecycle: the caller names no "${step.amount}" amount for ${step.move}`);
  return v;
}

/** When the record was reserved (or made), for a due time counted from then. */
function reservedAt(row: Stateful<string>): number {
  const at = Date.parse(row.reserved_at ?? row.created_at ?? "");
  if (Number.isNaN(at)) throw new Error("lifecycle: a due time from the reserve needs reserved_at or created_at");
  return at;
}

function apply<S extends string, T extends string, M extends string, E extends string, R extends Stateful<S>>(
  spec: TransitionSpec<S, T, M, E>,
  row: R,
  ctx: TransitionContext<R, M, E>,
): R {
  // Every amount is resolved before anything is written, so a missing one changes nothing.
  const moves = ctx.ledger ? spec.moves.map((m) => ({ move: m.move, micros: amountOf(m, ctx.amounts ?? {}) })) : [];
  if (ctx.patch) Object.assign(row, ctx.patch);
  row.status = spec.to;
  if (spec.due === null) row.due_at_ms = null;
  else if (spec.due) row.due_at_ms = (spec.due.since === "now" ? ctx.now : reservedAt(row)) + spec.due.after_ms;
  for (const m of moves) if (m.micros !== 0n) ctx.ledger!(m.move, m.micros);
  for (const event of spec.events) ctx.emit(event);
  return row;
}

/** Moves `row` by `trigger`; 409 invalid_status, nothing written, when its table has no such move from its state. */
export function transition<
  S extends string,
  T extends string,
  M extends string,
  E extends string,
  R extends Stateful<S>,
>(lc: Lifecycle<S, T, M, E, string>, row: R, trigger: T, ctx: TransitionContext<R, M, E>): R {
  const spec = rowFor(lc, row.status, trigger);
  if (!spec) throw (ctx.refuse ?? ((from, t) => illegalMove(lc.name, from, t)))(row.status, trigger);
  return apply(spec, row, ctx);
}

/** The state a new record of `trigger` starts in (the table's move from its start). */
export function startState<S extends string, T extends string>(
  lc: Lifecycle<S, T, string, string, string>,
  trigger: T,
): S {
  const spec = rowFor(lc, START, trigger);
  if (!spec) throw new Error(`${lc.name}: "${trigger}" does not start a record`);
  return spec.to;
}

/** The first move of a new record (already built in its start state): its ledger, event and due time. */
export function begin<S extends string, T extends string, M extends string, E extends string, R extends Stateful<S>>(
  lc: Lifecycle<S, T, M, E, string>,
  row: R,
  trigger: T,
  ctx: TransitionContext<R, M, E>,
): R {
  const spec = rowFor(lc, START, trigger);
  if (!spec || spec.to !== row.status)
    throw new Error(`${lc.name}: "${trigger}" does not start a ${row.status} record`);
  return apply(spec, row, ctx);
}

/**
 * A record's table bound to how its area moves it (`context`: the clock, its ledger, its events): `step`
 * moves a record by a trigger, `begin` makes the first move of a new one by one of `starts` (checked here).
 */
export function bindLifecycle<
  X,
  S extends string,
  T extends string,
  M extends string,
  E extends string,
  R extends Stateful<S>,
  B extends T,
>(
  lc: Lifecycle<S, T, M, E, string>,
  context: (x: X, row: R, patch?: Partial<R>, amounts?: Amounts) => TransitionContext<R, M, E>,
  starts: readonly B[],
) {
  for (const t of starts) startState(lc, t); // each must start a record: a wrong one fails at load
  return {
    /** Moves the record by `trigger` (409 invalid_status when its table has no such move). */
    step: (x: X, row: R, trigger: T, patch?: Partial<R>, amounts?: Amounts): R =>
      transition(lc, row, trigger, context(x, row, patch, amounts)),
    /** The first move of a new record: its ledger, event and due time. */
    begin: (x: X, row: R, trigger: B): R => begin(lc, row, trigger, context(x, row)),
  };
}
