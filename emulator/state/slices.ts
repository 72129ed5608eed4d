import type { z } from "zod";

// Each area declares its slice of the state: its name, its initial value and
// the schema of its records in full (every field at every depth, typed and
// bounded, with the shapes of fields.ts). The declaration serves the area
// (`store.slice(spec)`) and the import check (validate-state.ts), which holds
// an imported slice to that schema before anything is replaced. Declarations
// run when the area's module loads, so every emulator knows them before any import.
// `init` is the area's seed step: what a new state's slice starts with (an area
// that copies fixture facts into its slice does so there, once, so its rules read
// only the slice); `upgrade` fills those facts into a slice an older version saved.

export interface SliceSpec<T = unknown> {
  name: string;
  /** The slice as a new state starts it (on first use after a start or reset): the area's seed step. */
  init: () => T;
  /** What an imported slice must be; fields added after states were first written are optional in it. */
  schema: z.ZodType<T>;
  /**
   * Fills in place what a copy of the slice saved by an older version lacks and `init` now seeds (run on every
   * import before the check, on the parsed JSON as it came, so it must tolerate anything).
   */
  upgrade?: (slice: Record<string, unknown>) => void;
}

const declared = new Map<string, SliceSpec>();

/** Declares a slice (once per name, at module load); every import is checked against the declared ones. */
export function defineSlice<T>(spec: SliceSpec<T>): SliceSpec<T> {
  if (declared.has(spec.name)) throw new Error(`state slice "${spec.name}" is declared twice`);
  declared.set(spec.name, spec as SliceSpec);
  return spec;
}

export const declaredSlices = (): readonly SliceSpec[] => [...declared.values()];

/** Lets each declared slice upgrade its copy in an imported state's `areas` (before the import is checked). */
export function upgradeSlices(areas: unknown, slices: readonly SliceSpec[] = declaredSlices()): void {
  if (typeof areas !== "object" || areas === null) return;
  for (const spec of slices) {
    if (!spec.upgrade || !Object.hasOwn(areas, spec.name)) continue;
    const slice: unknown = Object.getOwnPropertyDescriptor(areas, spec.name)!.value;
    if (typeof slice === "object" && slice !== null && !Array.isArray(slice))
      spec.upgrade(slice as Record<string, unknown>);
  }
}
