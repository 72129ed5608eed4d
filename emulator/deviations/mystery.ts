import type { Deviation } from "./deviation.ts";

/** Deviations that break the mystery area's rules (one per conformance check). */
export const mysteryDeviations: readonly Deviation[] = [];
