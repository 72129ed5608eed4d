// Each area declares its slice of the state: its name, its initial value and
// which of its fields older states may lack. The declaration serves the area
// (`store.slice(spec)`) and the import check (validate-state.ts), which holds
// an imported slice to the initial value's shape. Declarations run when the
// area's module loads, so every emulator knows them before any import.

export interface SliceSpec<T = unknown> {
  name: string;
  init: () => T;
  /** Top-level fields an imported slice may lack (added after states were first written). */
  optional?: readonly (keyof T & string)[];
}

const declared = new Map<string, SliceSpec>();

/** Declares a slice (once per name, at module load); every import is checked against the declared ones. */
export function defineSlice<T>(spec: SliceSpec<T>): SliceSpec<T> {
  if (declared.has(spec.name)) throw new Error(`state slice "${spec.name}" is declared twice`);
  declared.set(spec.name, spec as SliceSpec);
  return spec;
}

export const declaredSlices = (): readonly SliceSpec[] => [...declared.values()];
