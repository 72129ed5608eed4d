import type { Deviation } from "./deviation.ts";

/** Deviations that break the webhooks area's rules (one per conformance check). */
export const webhooksDeviations: readonly Deviation[] = [];
