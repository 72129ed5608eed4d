import type { Scenario } from "./types.ts";

/** Scenarios of the warehouse area. */
export const warehouseScenarios: Scenario[] = [];
