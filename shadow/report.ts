import type { Operation } from "../contract/index.ts";
import type { Difference, Kind } from "./shape.ts";
import { isoOf } from "../contract/time.ts";

// The drift report: per operation, how many calls, how many were compared and how many differed,
// and each difference once (by kind and place) with how often it was seen and the first sample.

export interface Sample {
  /** The request, masked: `GET /api/v1/...`. */
  request: string;
  upstream_status: number;
  emulator_status: number | null;
  /** The upstream answer's X-Request-Id, to find the call in the service's logs. */
  upstream_request_id: string | null;
  /** The upstream body, masked and cut short. */
  upstream_body: string;
}

export interface DriftEntry extends Difference {
  /** Calls that showed it. */
  count: number;
  sample: Sample;
}

export interface OperationDrift {
  id: string;
  method: string;
  path: string;
  calls: number;
  /** Reads answered by both sides and compared; writes checked against the contract. */
  compared: number;
  differing: number;
  /** Reads the emulator answered 404 while the upstream found the record (ids only the upstream has): not compared. */
  unknown_to_emulator: number;
  differences: DriftEntry[];
}

export interface DriftReport {
  upstream: string;
  started_at: string;
  finished_at: string;
  totals: {
    calls: number;
    compared: number;
    differing: number;
    differences: number;
    unmatched: number;
    upstream_failures: number;
  };
  operations: OperationDrift[];
  /** Requests under /api/v1 that no operation of the contract matches, by `METHOD path`. */
  unmatched: Record<string, number>;
}

const text = (v: unknown): string => (typeof v === "string" ? v : v === undefined ? "nothing" : String(v));

export class DriftLog {
  private readonly ops = new Map<string, OperationDrift>();
  private readonly unmatched = new Map<string, number>();
  private calls = 0;
  private failures = 0;
  readonly startedAt = isoOf(Date.now());
  constructor(readonly upstream: string) {}

  private entry(op: Operation): OperationDrift {
    let e = this.ops.get(op.id);
    if (!e)
      this.ops.set(
        op.id,
        (e = {
          id: op.id,
          method: op.method,
          path: op.path,
          calls: 0,
          compared: 0,
          differing: 0,
          unknown_to_emulator: 0,
          differences: [],
        }),
      );
    return e;
  }

  call(op: Operation | null, label: string): void {
    this.calls++;
    if (op) this.entry(op).calls++;
    else this.unmatched.set(label, (this.unmatched.get(label) ?? 0) + 1);
  }

  upstreamFailed(): void {
    this.failures++;
  }

  unknownToEmulator(op: Operation): void {
    this.entry(op).unknown_to_emulator++;
  }

  /** One compared call and what differed in it. */
  compared(op: Operation, found: readonly Difference[], sample: () => Sample): void {
    const e = this.entry(op);
    e.compared++;
    if (!found.length) return;
    e.differing++;
    for (const d of found) {
      const known = e.differences.find((x) => x.kind === d.kind && x.where === d.where);
      if (known) known.count++;
      // Text on both sides whatever a check produced: the report is written and shown as it is.
      else
        e.differences.push({
          ...d,
          upstream: text(d.upstream),
          emulator: text(d.emulator),
          count: 1,
          sample: sample(),
        });
    }
  }

  get differenceCount(): number {
    let n = 0;
    for (const e of this.ops.values()) n += e.differences.length;
    return n;
  }

  report(): DriftReport {
    const operations = [...this.ops.values()].sort((a, b) => b.differing - a.differing || a.id.localeCompare(b.id));
    return {
      upstream: this.upstream,
      started_at: this.startedAt,
      finished_at: isoOf(Date.now()),
      totals: {
        calls: this.calls,
        compared: operations.reduce((n, o) => n + o.compared, 0),
        differing: operations.reduce((n, o) => n + o.differing, 0),
        differences: this.differenceCount,
        unmatched: [...this.unmatched.values()].reduce((n, c) => n + c, 0),
        upstream_failures: this.failures,
      },
      operations,
      unmatched: Object.fromEntries(this.unmatched),
    };
  }
}

export const KIND_TEXT: Record<Kind, string> = {
  status: "status differs",
  error_code: "error code differs",
  header: "header differs",
  missing: "field missing upstream",
  extra: "field only upstream",
  type: "type differs",
  nullability: "null where the contract says not nullable",
  enum: "value outside the declared enum",
  format: "value outside the declared format",
};
