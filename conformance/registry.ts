import type { Check } from "./types.ts";
import { pipelineChecks } from "./checks/pipeline.ts";
import { scopeChecks } from "./checks/scopes.ts";
import { refusalChecks } from "./checks/refusals.ts";
import { gateChecks } from "./checks/gates.ts";
import { catalogChecks } from "./checks/catalog.ts";
import { catalogQueryChecks } from "./checks/catalog-query.ts";
import { creditsChecks } from "./checks/credits.ts";
import { visionChecks } from "./checks/vision.ts";
import { webhooksChecks } from "./checks/webhooks.ts";
import { mysteryChecks } from "./checks/mystery.ts";
import { redemptionChecks } from "./checks/redemption.ts";
import { instantChecks } from "./checks/instant.ts";
import { purchaseChecks } from "./checks/purchases.ts";
import { warehouseChecks } from "./checks/warehouse.ts";
import { warehouseByIdChecks } from "./checks/warehouse-by-id.ts";
import { lifecycleChecks } from "./checks/lifecycle.ts";
import { limitsChecks } from "./checks/limits.ts";
import { commerceChecks } from "./checks/commerce.ts";
import { eventChecks } from "./checks/events.ts";
import { instantCardChecks } from "./checks/instant-cards.ts";

/** Every check of the suite, in run order. */
export const ALL_CHECKS: readonly Check[] = [
  ...pipelineChecks,
  ...scopeChecks,
  ...catalogChecks,
  ...catalogQueryChecks,
  ...creditsChecks,
  ...visionChecks,
  ...webhooksChecks,
  ...mysteryChecks,
  ...purchaseChecks,
  ...redemptionChecks,
  ...instantChecks,
  ...limitsChecks,
  ...refusalChecks,
  ...gateChecks,
  ...warehouseChecks,
  ...warehouseByIdChecks,
  ...commerceChecks,
  ...eventChecks,
  ...instantCardChecks,
  ...lifecycleChecks,
];
