import { upgradeLegacyDueTimes } from "./legacy-due.ts";
import { upgradeLegacyCounters, type Counter } from "./ids.ts";
import type { State } from "./schema.ts";
import { declaredSlices, upgradeSlices, type SliceSpec } from "./slices.ts";
import { validateState } from "./validate-state.ts";
import { parseChainExport, type ChainStateExport } from "../../chain/state.ts";

/** Version 2 carries the chain; version 1 files (API state only) cannot restore the records that point at it. */
export const STATE_FORMAT_VERSION = 2;

export interface StateExport {
  format: "cardos-emulator-state";
  version: typeof STATE_FORMAT_VERSION;
  /** Virtual time when exported (unix ms). */
  now: number;
  state: State;
  /** The local chain (chain/journal.ts); null without one, or when attached with --rpc-url (that node keeps it). */
  chain: ChainStateExport | null;
}

/** Holds the state, its snapshots and the function that rebuilds it from fixtures. */
export class Store {
  state: State;
  private snapshots = new Map<string, { state: State; extra: unknown }>();
  private snapshotSeq = 0;
  /** The chain part of an export (set by the emulator that owns the chain). */
  exportChain: () => ChainStateExport | null = () => null;

  constructor(private readonly initial: () => State) {
    this.state = initial();
  }

  reset(): void {
    this.state = this.initial();
  }

  /** The next number of a counter (state/ids.ts declares them: `COUNTERS`). */
  nextId(c: Counter): number {
    const n = (this.state.counters[c.name] ?? c.start - 1) + 1;
    this.state.counters[c.name] = n;
    return n;
  }

  /** Slice of an area, created on first use. */
  area<T>(name: string, init: () => T): T {
    if (!(name in this.state.areas)) this.state.areas[name] = init();
    return this.state.areas[name] as T;
  }

  /** A declared slice (state/slices.ts), created on first use. */
  slice<T>(spec: SliceSpec<T>): T {
    return this.area(spec.name, spec.init);
  }

  snapshot(extra?: unknown): string {
    const id = `snap_${++this.snapshotSeq}`;
    this.snapshots.set(id, { state: structuredClone(this.state), extra });
    return id;
  }

  hasSnapshot(id: string): boolean {
    return this.snapshots.has(id);
  }

  /** The extra value saved with a snapshot (what its owner needs before restoring it). */
  snapshotExtra(id: string): unknown {
    const snap = this.snapshots.get(id);
    if (!snap) throw new Error(`unknown snapshot ${id}`);
    return snap.extra;
  }

  /** Restores a snapshot; returns the extra value saved with it. The snapshot stays reusable. */
  restore(id: string): unknown {
    const snap = this.snapshots.get(id);
    if (!snap) throw new Error(`unknown snapshot ${id}`);
    this.state = structuredClone(snap.state);
    return snap.extra;
  }

  export(now: number): StateExport {
    return {
      format: "cardos-emulator-state",
      version: STATE_FORMAT_VERSION,
      now,
      state: structuredClone(this.state),
      chain: this.exportChain(),
    };
  }

  /** Validates the shape (the chain's too); throws a one-line message suitable for a 400. */
  static parseExport(input: unknown): StateExport {
    const doc = input as Partial<StateExport> | null;
    if (!doc || typeof doc !== "object" || doc.format !== "cardos-emulator-state")
      throw new Error(
        `not an emulator state export (expected {"format":"cardos-emulator-state","version":${STATE_FORMAT_VERSION},...})`,
      );
    const version: unknown = doc.version;
    if (typeof version === "number" && Number.isInteger(version) && version >= 1 && version < STATE_FORMAT_VERSION)
      throw new Error(
        `made by an older emulator (state format version ${version}, without the chain; this emulator reads version ${STATE_FORMAT_VERSION})`,
      );
    if (typeof version === "number" && Number.isInteger(version) && version > STATE_FORMAT_VERSION)
      throw new Error(
        `made by a newer emulator (state format version ${version}; this emulator reads version ${STATE_FORMAT_VERSION})`,
      );
    if (version !== STATE_FORMAT_VERSION)
      throw new Error(
        `a state export of unknown format version ${JSON.stringify(version)}; this emulator reads version ${STATE_FORMAT_VERSION}`,
      );
    const s = doc.state as Partial<State> | undefined;
    if (!s || typeof s !== "object" || typeof s.seed !== "number" || !s.keys || !s.credits || !s.counters || !s.areas)
      throw new Error("state export is missing seed, keys, credits, counters or areas");
    if (typeof doc.now !== "number") throw new Error("state export is missing `now`");
    if (!("chain" in doc)) throw new Error("state export is missing `chain` (null when it has none)");
    upgradeLegacyDueTimes(s.areas);
    upgradeLegacyCounters(s.counters);
    // Facts an area now seeds into its slice (its `upgrade`): filled into slices saved before it did.
    upgradeSlices(s.areas);
    // The whole document is checked before anything is replaced: an import applies all of it or none.
    validateState(doc.now, doc.state, declaredSlices());
    if (doc.chain !== null) parseChainExport(doc.chain);
    return doc as StateExport;
  }

  import(doc: StateExport): void {
    this.replace(Store.copyOf(doc));
  }

  /** The state of a parsed export, copied (what can throw in an import, done before anything changes). */
  static copyOf(doc: StateExport): State {
    return structuredClone(doc.state);
  }

  /** Puts a copied state in place; never throws, so an import that got this far applies whole. */
  replace(state: State): void {
    this.state = state;
  }
}
