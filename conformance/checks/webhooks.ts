import type { Check } from "../types.ts";

/** Conformance checks of the webhooks area. */
export const webhooksChecks: Check[] = [];
