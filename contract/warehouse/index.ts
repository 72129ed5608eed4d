import type { Operation } from "../operation.ts";
import { WAREHOUSE_ACTIVITY } from "./activity.ts";
import { WAREHOUSE_BILLING } from "./billing.ts";
import { WAREHOUSE_CARDS } from "./cards.ts";
import { WAREHOUSE_DECLARED_VALUES } from "./declared-values.ts";
import { WAREHOUSE_INBOUND } from "./inbound.ts";
import { WAREHOUSE_ORDERS } from "./orders.ts";
import { WAREHOUSE_SITES } from "./sites.ts";
import { WAREHOUSE_SLA } from "./sla.ts";
import { WAREHOUSE_TRANSFERS } from "./transfers.ts";
import { WAREHOUSE_WITHDRAWALS } from "./withdrawals.ts";

// The warehouse (tenant keys, warehouse envelope; docs/warehouse.md), one file per resource.

export { MAX_CENTS } from "./common.ts";
export * from "./activity.ts";
export * from "./billing.ts";
export * from "./cards.ts";
export * from "./declared-values.ts";
export * from "./inbound.ts";
export * from "./orders.ts";
export * from "./sites.ts";
export * from "./sla.ts";
export * from "./transfers.ts";
export * from "./withdrawals.ts";

/** Every warehouse operation, in the order the emulator registers them. */
export const WAREHOUSE_OPERATIONS: readonly Operation[] = [
  WAREHOUSE_ACTIVITY.info,
  ...Object.values(WAREHOUSE_CARDS),
  ...Object.values(WAREHOUSE_ORDERS),
  ...Object.values(WAREHOUSE_WITHDRAWALS),
  ...Object.values(WAREHOUSE_TRANSFERS),
  ...Object.values(WAREHOUSE_SITES),
  ...Object.values(WAREHOUSE_INBOUND),
  ...Object.values(WAREHOUSE_DECLARED_VALUES),
  ...Object.values(WAREHOUSE_BILLING),
  ...Object.values(WAREHOUSE_SLA),
  WAREHOUSE_ACTIVITY.activity,
  WAREHOUSE_ACTIVITY.exceptions,
  WAREHOUSE_ACTIVITY.exception,
  WAREHOUSE_ACTIVITY.integrationStatus,
];
