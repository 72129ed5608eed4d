import type { Scenario } from "./types.ts";

/** Scenarios of the webhooks area. */
export const webhooksScenarios: Scenario[] = [];
