import type { Check } from "../types.ts";

/** Conformance checks of the credits area. */
export const creditsChecks: Check[] = [];
