import type { Check } from "../types.ts";

/** Conformance checks of the vision area. */
export const visionChecks: Check[] = [];
