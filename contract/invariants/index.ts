import {
  governs,
  type Across,
  type Answer,
  type AskedFor,
  type Delivered,
  type DeliveryAcross,
  type DeliveryInvariant,
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
import { ORDER_STATE_INVARIANTS } from "./orders.ts";
import { RECORD_INVARIANTS } from "./records.ts";
import { DELIVERY_INVARIANTS, DELIVERY_SEQUENCES } from "./deliveries.ts";
import { CALLDATA_INVARIANTS } from "./calldata.ts";
import { webhookHeader } from "../webhook-signature.ts";

// Every invariant, in one list each: the suite (conformance/wire.ts) and the emulator's own tests apply them.

export * from "./invariant.ts";

/** Rules about one answer, and about one webhook delivery (`subject: "delivery"`). */
export const INVARIANTS: readonly (Invariant | DeliveryInvariant)[] = [
  ...MONEY_INVARIANTS,
  ...REVENUE_INVARIANTS,
  ...CREDIT_INVARIANTS,
  ...WAREHOUSE_INVARIANTS,
  ...ORDER_INVARIANTS,
  ...PIPELINE_INVARIANTS,
  ...ORDER_STATE_INVARIANTS,
  ...RECORD_INVARIANTS,
  ...CALLDATA_INVARIANTS,
  ...DELIVERY_INVARIANTS,
];

/** Rules about a sequence of answers, and about the attempts of one delivery (`subject: "delivery"`). */
export const SEQUENCES: readonly (Across | DeliveryAcross)[] = [...SEQUENCE_INVARIANTS, ...DELIVERY_SEQUENCES];

/** The operation a delivery's problems name: `delivery <event type>`. */
export const deliveryOperation = (d: Delivered): string =>
  `delivery ${webhookHeader(d.headers, "event") ?? "(no X-Mystery-Event)"}`;

/** A broken invariant: which, on which operation, where. */
export interface Broken extends Problem {
  invariant: string;
  operation: string;
}

/** Problems of one answer under every single-answer invariant governing `operation`. */
export function answerProblems(operation: string, answer: Answer, request: AskedFor): Broken[] {
  const out: Broken[] = [];
  for (const inv of INVARIANTS)
    if (inv.subject !== "delivery" && governs(inv, operation) && (answer.status < 400 || inv.errors))
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
      if (rule.subject === "delivery" || !governs(rule, operation)) continue;
      for (const { record, pointer } of rule.records?.(answer) ?? [{ record: answer.data, pointer: "/data" }]) {
        const k = rule.key(record, request, operation);
        if (k === null) continue;
        const id = `${rule.id} ${k}`;
        const next = { record, pointer, operation, request, end: at.end };
        const prev = this.seen.get(id);
        if (prev && at.start >= prev.end)
          for (const p of rule.check(prev, next)) out.push({ ...p, invariant: rule.id, operation });
        if (prev && at.start < prev.end) continue;
        const kept = rule.carry ? rule.carry(prev, next) : next;
        if (kept) this.seen.set(id, { ...kept, end: at.end });
        else this.seen.delete(id);
      }
    }
    return out;
  }

  private readonly delivered = new Map<string, Delivered>();

  /** Problems of one delivery under every delivery invariant governing its event, and against its earlier attempts. */
  observeDelivery(d: Delivered): Broken[] {
    const event = webhookHeader(d.headers, "event") ?? "";
    const operation = deliveryOperation(d);
    const out: Broken[] = [];
    for (const inv of INVARIANTS)
      if (inv.subject === "delivery" && governs(inv, event))
        for (const p of inv.check(d)) out.push({ ...p, invariant: inv.id, operation });
    for (const rule of SEQUENCES) {
      if (rule.subject !== "delivery" || !governs(rule, event)) continue;
      const k = rule.key(d);
      if (k === null) continue;
      const id = `${rule.id} ${k}`;
      const prev = this.delivered.get(id);
      if (prev) for (const p of rule.check(prev, d)) out.push({ ...p, invariant: rule.id, operation });
      else this.delivered.set(id, d);
    }
    return out;
  }

  /** Forgets what the rules carrying a running account remember (an operator action may have moved it: a restock). */
  forgetCarried(): void {
    for (const rule of SEQUENCES)
      if (rule.subject !== "delivery" && rule.carry)
        for (const id of [...this.seen.keys()]) if (id.startsWith(`${rule.id} `)) this.seen.delete(id);
  }

  forget(): void {
    this.seen.clear();
    this.delivered.clear();
  }
}
