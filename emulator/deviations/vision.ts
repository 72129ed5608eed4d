import type { Deviation } from "./deviation.ts";

/** Deviations that break the vision area's rules (one per conformance check). */
export const visionDeviations: readonly Deviation[] = [];
