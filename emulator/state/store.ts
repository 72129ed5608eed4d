import type { State } from "./schema.ts";

export interface StateExport {
  format: "cardos-emulator-state";
  version: 1;
  /** Virtual time when exported (unix ms). */
  now: number;
  state: State;
}

/** Holds the state, its snapshots and the function that rebuilds it from fixtures. */
export class Store {
  state: State;
  private snapshots = new Map<string, { state: State; extra: unknown }>();
  private snapshotSeq = 0;

  constructor(private readonly initial: () => State) {
    this.state = initial();
  }

  reset(): void {
    this.state = this.initial();
  }

  nextId(name: string, start = 1): number {
    const n = (this.state.counters[name] ?? start - 1) + 1;
    this.state.counters[name] = n;
    return n;
  }

  /** Slice of an area, created on first use. */
  area<T>(name: string, init: () => T): T {
    if (!(name in this.state.areas)) this.state.areas[name] = init();
    return this.state.areas[name] as T;
  }

  snapshot(extra?: unknown): string {
    const id = `snap_${++this.snapshotSeq}`;
    this.snapshots.set(id, { state: structuredClone(this.state), extra });
    return id;
  }

  hasSnapshot(id: string): boolean {
    return this.snapshots.has(id);
  }

  /** Restores a snapshot; returns the extra value saved with it. The snapshot stays reusable. */
  restore(id: string): unknown {
    const snap = this.snapshots.get(id);
    if (!snap) throw new Error(`unknown snapshot ${id}`);
    this.state = structuredClone(snap.state);
    return snap.extra;
  }

  export(now: number): StateExport {
    return { format: "cardos-emulator-state", version: 1, now, state: structuredClone(this.state) };
  }

  /** Validates the outer shape; throws a message suitable for a 400. */
  static parseExport(input: unknown): StateExport {
    const doc = input as Partial<StateExport> | null;
    if (!doc || typeof doc !== "object" || doc.format !== "cardos-emulator-state")
      throw new Error('not an emulator state export (expected {"format":"cardos-emulator-state","version":1,...})');
    if (doc.version !== 1)
      throw new Error(`a state export of format version ${JSON.stringify(doc.version)}; this emulator reads version 1 only`);
    const s = doc.state as Partial<State> | undefined;
    if (!s || typeof s !== "object" || typeof s.seed !== "number" || !s.keys || !s.credits || !s.counters || !s.areas)
      throw new Error("state export is missing seed, keys, credits, counters or areas");
    if (typeof doc.now !== "number") throw new Error("state export is missing `now`");
    return doc as StateExport;
  }

  import(doc: StateExport): void {
    this.state = structuredClone(doc.state);
  }
}
