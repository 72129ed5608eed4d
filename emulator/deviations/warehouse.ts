import type { Deviation } from "./deviation.ts";

/** Deviations that break the warehouse area's rules (one per conformance check). */
export const warehouseDeviations: readonly Deviation[] = [];
