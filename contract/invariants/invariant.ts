// Rules as invariants: small predicates over the answers of the wire and the requests that caused them,
// declared once beside the operations they govern (docs/contract.md "Invariants"). The conformance suite
// applies every applicable one to every answer it sees; the emulator's own tests apply the single-answer
// ones to its replies. A predicate never trusts the shape: a value it cannot read is left to the schema.

/** One answer as an invariant sees it: `data` of the envelope, the fields beside it, lower-case headers. */
export interface Answer {
  status: number;
  /** A success's `data`; for an error (status ≥ 400), the whole error envelope. */
  data: unknown;
  /** The success envelope's other fields (Card Data's page, page_size, total_count). */
  top?: Readonly<Record<string, unknown>>;
  headers: Readonly<Record<string, string>>;
}

/** The request that caused an answer. */
export interface AskedFor {
  method: string;
  url: URL;
  /** The calling key (x-api-key), "" when none. */
  key: string;
}

/** A broken invariant at a JSON pointer into the answer (`/data/available`) or a header (`Retry-After`). */
export interface Problem {
  pointer: string;
  text: string;
}

export interface Rule {
  /** Stable id, cited by the rule inventory (contract/rules.ts). */
  id: string;
  /** The reference sentence the invariant states, in its own words. */
  rule: string;
  /** Where that sentence is written: `docs/reference/<file>.md “Heading”` (or another docs/ file). */
  source: string;
  /** Operation ids (contract/index.ts OPERATIONS) it governs, or "all". */
  operations: readonly string[] | "all";
}

/** A rule about one answer. By default only successes are judged; `errors: true` sees every status. */
export interface Invariant extends Rule {
  subject?: "answer";
  errors?: boolean;
  check(answer: Answer, request: AskedFor): Problem[];
}

/** One record seen in an answer, with where it came from. */
export interface Seen {
  record: unknown;
  /** Pointer of the record in the answer (`/data`, `/data/purchases/3`). */
  pointer: string;
  operation: string;
  request: AskedFor;
}

/** A rule about a sequence: the same record read twice, a write then a read. */
export interface Across extends Rule {
  subject?: "answer";
  /** The records an answer holds (default: `data` itself) with their pointers. */
  records?(answer: Answer): Array<{ record: unknown; pointer: string }>;
  /** Which records are "the same" (null: not one this rule follows). */
  key(record: unknown, request: AskedFor, operation: string): string | null;
  check(prev: Seen, next: Seen): Problem[];
  /** What to remember after `next` (default: `next` itself; null: forget the record). */
  carry?(prev: Seen | undefined, next: Seen): Seen | null;
}

/** One webhook delivery as the suite's receiver got it (docs/reference/live-service.md “Webhook delivery and signatures”). */
export interface Delivered {
  /** The URL it was posted to: the receiver's, as registered. */
  url: string;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  /** The raw body, byte for byte as received (the signature covers it). */
  body: string;
  /** The signing secrets of the webhooks registered for `url` that the answers showed (empty: none seen). */
  secrets: readonly string[];
}

/** A rule about one delivery. `operations`: the event types it governs, or "all". */
export interface DeliveryInvariant extends Rule {
  subject: "delivery";
  check(d: Delivered): Problem[];
}

/** A rule about the deliveries of one event: its retries, a resend. */
export interface DeliveryAcross extends Rule {
  subject: "delivery";
  /** Which deliveries are "the same" (null: not one this rule follows). */
  key(d: Delivered): string | null;
  check(prev: Delivered, next: Delivered): Problem[];
}

export const invariant = (i: Invariant): Invariant => i;
export const across = (a: Across): Across => a;
export const onDelivery = (i: Omit<DeliveryInvariant, "subject">): DeliveryInvariant => ({ ...i, subject: "delivery" });
export const acrossDeliveries = (a: Omit<DeliveryAcross, "subject">): DeliveryAcross => ({
  ...a,
  subject: "delivery",
});

/** Whether `rule` governs `operation`. */
export const governs = (rule: Rule, operation: string): boolean =>
  rule.operations === "all" || rule.operations.includes(operation);
