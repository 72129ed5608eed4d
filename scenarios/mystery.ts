import type { Scenario } from "./types.ts";

/** Scenarios of the mystery area. */
export const mysteryScenarios: Scenario[] = [];
