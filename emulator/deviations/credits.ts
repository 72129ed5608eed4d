import type { Deviation } from "./deviation.ts";

/** Deviations that break the credits area's rules (one per conformance check). */
export const creditsDeviations: readonly Deviation[] = [];
