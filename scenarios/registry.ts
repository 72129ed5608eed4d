import type { Scenario } from "./types.ts";
import { creditsScenarios } from "./credits.ts";
import { webhooksScenarios } from "./webhooks.ts";
import { mysteryScenarios } from "./mystery.ts";
import { redemptionScenarios } from "./redemption.ts";
import { purchaseLifecycleScenarios } from "./purchase-lifecycle.ts";
import { warehouseScenarios } from "./warehouse.ts";
import { instantScenarios } from "./instant.ts";

export const SCENARIOS: readonly Scenario[] = [
  ...creditsScenarios,
  ...webhooksScenarios,
  ...mysteryScenarios,
  ...purchaseLifecycleScenarios,
  ...redemptionScenarios,
  ...instantScenarios,
  ...warehouseScenarios,
];

export function findScenario(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}
