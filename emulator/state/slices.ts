import type { z } from "zod";

// Each area declares its slice of the state: its name, its initial value and
// the schema of its records in full (every field at every depth, typed and
// bounded, with the shapes of fields.ts). The declaration serves the area
// (`store.slice(spec)`) and the import check (validate-state.ts), which holds
// an imported slice to that schema before anything is replaced. Declarations
// run when the area's module loads, so every emulator knows them before any import.

export interface SliceSpec<T = unknown> {
  name: string;
  init: () => T;
  /** What an imported slice must be; fields added after states were first written are optional in it. */
  schema: z.ZodType<T>;
}

const declared = new Map<string, SliceSpec>();

/** Declares a slice (once per name, at module load); every import is checked against the declared ones. */
export function defineSlice<T>(spec: SliceSpec<T>): SliceSpec<T> {
  if (declared.has(spec.name)) throw new Error(`state slice "${spec.name}" is declared twice`);
  declared.set(spec.name, spec as SliceSpec);
  return spec;
}

export const declaredSlices = (): readonly SliceSpec[] => [...declared.values()];
