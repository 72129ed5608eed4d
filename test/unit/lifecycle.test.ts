import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../contract/events.ts";
import {
  INSTANT_STATUSES,
  OFFER_STATUSES,
  ORDER_STATUSES,
  PURCHASE_STATUSES,
  REDEMPTION_STATUSES,
} from "../../contract/index.ts";
import { REDEMPTION } from "../../contract/lifecycles/redemption.ts";
import { BUYBACK_OFFER, BUYBACK_TRANSFER } from "../../contract/lifecycles/buyback.ts";
import { WAREHOUSE_ORDER } from "../../contract/lifecycles/warehouse-order.ts";
import { pathOf, rowFor, START, type AnyLifecycle } from "../../contract/lifecycle.ts";
import {
  INSTANT_PURCHASE,
  MYSTERY_PURCHASE,
  PENDING_TIMEOUT_MS,
  RELAY_CONFIRM_MS,
  RELAY_PICKUP_MS,
} from "../../contract/lifecycles/purchases.ts";
import { ApiError } from "../../emulator/pipeline/errors.ts";
import { begin, transition, type Amounts } from "../../emulator/pipeline/lifecycle.ts";

// transition() against the real purchase tables: a move the table lacks is 409
// invalid_status with nothing written; a legal one writes its state and due time,
// applies each ledger movement once and publishes its event once.

interface Row {
  id: number;
  status: string;
  due_at_ms?: number | null;
  reserved_at: string | null;
  created_at: string;
  failure_reason: string | null;
}

const T0 = Date.parse("2026-01-01T00:00:00.000Z");
const HOLD = 10_000_000n;

function harness(status: string, custodial = true) {
  const at = new Date(T0).toISOString();
  const row: Row = { id: 1, status, reserved_at: at, created_at: at, failure_reason: null };
  const moves: Array<[string, bigint]> = [];
  const events: string[] = [];
  const ctx = (patch?: Partial<Row>, amounts?: Amounts) => ({
    now: T0 + 5_000,
    patch,
    amounts: { hold: 10_000_000n, ...amounts },
    ledger: custodial ? (m: string, micros: bigint) => void moves.push([m, micros]) : undefined,
    emit: (e: string) => void events.push(e),
  });
  return { row, moves, events, ctx };
}

const lc = MYSTERY_PURCHASE as AnyLifecycle;

function refused(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("the move was not refused");
}

describe("transition()", () => {
  it("refuses a move the table lacks: 409 invalid_status, the record, ledger and events untouched", () => {
    for (const [status, trigger] of [
      ["FULFILLED", "confirm"],
      ["SUBMITTED", "broadcast"],
      ["RESERVED", "reveal"],
      ["FAILED", "resume"],
    ] as const) {
      const h = harness(status);
      h.row.due_at_ms = 123;
      const before = structuredClone(h.row);
      const err = refused(() => transition(lc, h.row, trigger, h.ctx({ failure_reason: "x" }, { charged: 1n })));
      expect([err.status, err.code]).toEqual([409, "invalid_status"]);
      expect(h.row).toEqual(before);
      expect(h.moves).toEqual([]);
      expect(h.events).toEqual([]);
    }
  });

  it("confirm: the charge settled and the rest released, once each; purchase.submitted once; due cleared", () => {
    const h = harness("SUBMITTING");
    h.row.due_at_ms = T0;
    transition(lc, h.row, "confirm", h.ctx(undefined, { charged: 7_500_000n }));
    expect(h.row.status).toBe("SUBMITTED");
    expect(h.row.due_at_ms).toBeNull();
    expect(h.moves).toEqual([
      ["HOLD_SETTLE", 7_500_000n],
      ["HOLD_RELEASE", 2_500_000n],
    ]);
    expect(h.events).toEqual(["purchase.submitted"]);
  });

  it("a movement of 0 is skipped; a record without a custodial balance makes none", () => {
    const full = harness("SUBMITTING");
    transition(lc, full.row, "confirm", full.ctx(undefined, { charged: 10_000_000n }));
    expect(full.moves).toEqual([["HOLD_SETTLE", 10_000_000n]]);
    const nonCustodial = harness("SUBMITTED", false);
    transition(lc, nonCustodial.row, "refund", nonCustodial.ctx(undefined, { refund: 5n }));
    const { row, moves, events } = nonCustodial;
    expect([row.status, moves, events]).toEqual(["REFUNDED", [], ["purchase.refunded"]]);
  });

  it("sets the due time from now or from the reserve, and writes the patch before the event is built", () => {
    const h = harness("RESERVED");
    let seen: string | null = null;
    transition(lc, h.row, "relayer_off", { ...h.ctx(), emit: () => void (seen = h.row.status) });
    expect(h.row).toMatchObject({ status: "PENDING", due_at_ms: T0 + PENDING_TIMEOUT_MS });
    transition(lc, h.row, "resume", h.ctx());
    expect(h.row.due_at_ms).toBe(T0 + 5_000);
    transition(lc, h.row, "broadcast", h.ctx());
    expect(h.row.due_at_ms).toBe(T0 + 5_000 + RELAY_CONFIRM_MS);
    const failed = h.ctx({ failure_reason: "reverted" });
    const note = () => void (seen = `${h.row.status}:${h.row.failure_reason}`);
    transition(lc, h.row, "relay_failed", { ...failed, emit: note });
    expect(seen).toBe("FAILED:reverted");
    expect(h.moves).toEqual([["HOLD_RELEASE", 10_000_000n]]);
  });

  it("a movement with no amount named throws before anything is written", () => {
    const h = harness("SUBMITTING");
    const before = structuredClone(h.row);
    expect(() => transition(lc, h.row, "confirm", { ...h.ctx(), amounts: {} })).toThrow(/no "charged" amount/);
    expect([h.row, h.moves, h.events]).toEqual([before, [], []]);
  });

  it("begin: the start move of a new record (the hold, the event, the pick-up due)", () => {
    const h = harness("RESERVED");
    begin(lc, h.row, "reserve", h.ctx());
    expect(h.row.due_at_ms).toBe(T0 + 5_000 + RELAY_PICKUP_MS);
    expect([h.moves, h.events]).toEqual([[["HOLD", 10_000_000n]], ["purchase.reserved"]]);
  });

  for (const table of [MYSTERY_PURCHASE, INSTANT_PURCHASE] as AnyLifecycle[])
    it(`${table.name}: any trigger sequence keeps a table state, and the ledger is exactly the table's moves`, () => {
      const all = new Set(table.transitions.map((t) => t.trigger));
      const triggers = [...all].filter((t) => t !== "reserve" && t !== "submit");
      const sequences = fc.array(fc.constantFrom(...triggers), { maxLength: 20 });
      fc.assert(
        fc.property(sequences, fc.bigInt({ min: 0n, max: HOLD }), (seq, charged) => {
          const h = harness("RESERVED");
          begin(table, h.row, "reserve", h.ctx());
          const expected: Array<[string, bigint]> = [["HOLD", 10_000_000n]];
          const amounts: Amounts = { charged, refund: charged };
          for (const trigger of seq) {
            const spec = rowFor(table, h.row.status, trigger);
            const before = structuredClone(h.row);
            const events = h.events.length;
            if (!spec) {
              const err = refused(() => transition(table, h.row, trigger, h.ctx(undefined, amounts)));
              expect(err.code).toBe("invalid_status");
              expect(h.row).toEqual(before);
              expect(h.events.length).toBe(events);
              continue;
            }
            transition(table, h.row, trigger, h.ctx(undefined, amounts));
            const value = { hold: 10_000_000n, charged, rest: 10_000_000n - charged, refund: charged };
            for (const m of spec.moves) if (value[m.amount] !== 0n) expected.push([m.move, value[m.amount]]);
            expect(h.events.length).toBe(events + spec.events.length);
            expect(table.states).toContain(h.row.status);
          }
          expect(h.moves).toEqual(expected);
        }),
        { numRuns: 200 },
      );
    });
});

describe("the lifecycle tables", () => {
  it("use only wire statuses and catalogue events, and every state is reached from the start", () => {
    for (const [table, wire] of [
      [MYSTERY_PURCHASE, PURCHASE_STATUSES],
      [INSTANT_PURCHASE, INSTANT_STATUSES],
      [REDEMPTION, REDEMPTION_STATUSES],
      [BUYBACK_OFFER, OFFER_STATUSES],
      [BUYBACK_TRANSFER, BUYBACK_TRANSFER.states],
      [WAREHOUSE_ORDER, ORDER_STATUSES],
    ] as [AnyLifecycle, readonly string[]][]) {
      for (const s of table.states) expect(wire).toContain(s);
      for (const t of table.transitions)
        for (const e of t.events) expect(EVENT_TYPES as readonly string[]).toContain(e);
      const reached = new Set<string>([START]);
      for (let grew = true; grew;) {
        grew = false;
        for (const t of table.transitions)
          if (t.from.some((f) => reached.has(f)) && !reached.has(t.to)) grew = !!reached.add(t.to);
      }
      expect([...reached].filter((s) => s !== START).sort()).toEqual([...table.states].sort());
    }
  });

  it("give the scenarios' paths", () => {
    const relayed = pathOf(MYSTERY_PURCHASE, ["reserve", "broadcast", "sent", "confirm", "reveal"]);
    expect(relayed).toEqual(["RESERVED", "SUBMITTING", "SUBMITTED", "FULFILLED"]);
    expect(pathOf(INSTANT_PURCHASE, ["reserve", "relayed", "open"])).toEqual(["RESERVED", "SUBMITTED", "FULFILLED"]);
    expect(() => pathOf(INSTANT_PURCHASE, ["reserve", "open"])).toThrow(/no "open" from RESERVED/);
    const shipped = pathOf(REDEMPTION, ["prepare", "burn", "paid", "fulfil", "dispatch"]);
    expect(shipped).toEqual(["PREPARED", "BURN_SUBMITTED", "IN_FULFILLMENT", "COMPLETED"]);
  });
});
