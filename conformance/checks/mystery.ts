import type { Check } from "../types.ts";

/** Conformance checks of the mystery area. */
export const mysteryChecks: Check[] = [];
