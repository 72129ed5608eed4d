import {
  governs,
  type Across,
  type Answer,
  type AskedFor,
  type Invariant,
  type Problem,
  type Seen,
} from "./invariant.ts";
import { MONEY_INVARIANTS } from "./money.ts";
import { REVENUE_INVARIANTS } from "./revenue.ts";
import { CREDIT_INVARIANTS } from "./credits.ts";
import { WAREHOUSE_INVARIANTS } from "./warehouse.ts";
import { ORDER_INVARIANTS } from "./order.ts";
import { PIPELINE_INVARIANTS } from "./pipeline.ts";
import { SEQUENCE_INVARIANTS } from "./sequences.ts";

// Every invariant, in one list each: the suite (conformance/wire.ts) and the emulator's own tests apply them.

export * from "./invariant.ts";

/** Rules about one answer. */
export const INVARIANTS: readonly Invariant[] = [
  ...MONEY_INVARIANTS,
  ...REVENUE_INVARIANTS,
  ...CREDIT_INVARIANTS,
  ...WAREHOUSE_INVARIANTS,
  ...ORDER_INVARIANTS,
  ...PIPELINE_INVARIANTS,
];

/** Rules about a sequence of answers. */
export const SEQUENCES: readonly Across[] = SEQUENCE_INVARIANTS;

/** A broken invariant: which, on which operation, where. */
export interface Broken extends Problem {
  invariant: string;
  operation: string;
}

/** Problems of one answer under every single-answer invariant governing `operation`. */
export function answerProblems(operation: string, answer: Answer, request: AskedFor): Broken[] {
  const out: Broken[] = [];
  for (const inv of INVARIANTS)
    if (governs(inv, operation) && (answer.status < 400 || inv.errors))
      for (const p of inv.check(answer, request)) out.push({ ...p, invariant: inv.id, operation });
  return out;
}

/**
 * What the sequence invariants remember of the answers seen so far (one per session of answers): the last time
 * each record was seen. `at`: when the request was sent and when its answer came; an answer that overlapped the
 * remembered one has no order against it and is not compared.
 */
export class SequenceMemory {
  private readonly seen = new Map<string, Seen & { end: number }>();

  observe(operation: string, answer: Answer, request: AskedFor, at: { start: number; end: number }): Broken[] {
    if (answer.status >= 400) return [];
    const out: Broken[] = [];
    for (const rule of SEQUENCES) {
      if (!governs(rule, operation)) continue;
      for (const { record, pointer } of rule.records?.(answer) ?? [{ record: answer.data, pointer: "/data" }]) {
        const k = rule.key(record, request, operation);
        if (k === null) continue;
        const id = `${rule.id} ${k}`;
        const next = { record, pointer, operation, request, end: at.end };
        const prev = this.seen.get(id);
        if (prev && at.start >= prev.end)
          for (const p of rule.check(prev, next)) out.push({ ...p, invariant: rule.id, operation });
        if (!prev || at.start >= prev.end) this.seen.set(id, next);
      }
    }
    return out;
  }

  forget(): void {
    this.seen.clear();
  }
}
