import type { Check } from "../types.ts";

/** Conformance checks of the warehouse area. */
export const warehouseChecks: Check[] = [];
