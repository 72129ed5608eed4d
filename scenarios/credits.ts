import type { Scenario } from "./types.ts";

/** Scenarios of the credits area. */
export const creditsScenarios: Scenario[] = [];
