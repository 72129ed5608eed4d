import type { Operation } from "./operation.ts";
import { WAREHOUSE_OPERATIONS } from "./warehouse/index.ts";
import { CATALOG } from "./catalog/index.ts";
import { SERVICE } from "./service.ts";
import { WEBHOOKS } from "./webhooks.ts";
import { VISION } from "./vision.ts";
import { CREDITS } from "./credits.ts";
import { MYSTERY_SHOP } from "./mystery/shop.ts";
import { MYSTERY_WALLET } from "./mystery/wallet.ts";
import { MYSTERY_REVENUE } from "./mystery/revenue.ts";
import { INSTANT } from "./instant.ts";
import { PURCHASES } from "./mystery/purchases.ts";
import { BUYBACK } from "./mystery/buyback.ts";
import { SELLBACK } from "./mystery/sellback.ts";
import { REDEMPTION } from "./mystery/redemption.ts";

// The contract: every operation of the API, what it takes and every answer it
// gives (docs/contract.md). The emulator serves these, the OpenAPI document is
// written from them, and the conformance suite judges any target by them.

export * from "./operation.ts";
export * from "./zod.ts";
export * from "./input-fields.ts";
export * from "./bounded-read.ts";
export * from "./paging.ts";
export * from "./games.ts";
export * from "./match.ts";
export * from "./pointer.ts";
export * from "./route-table.ts";
export * from "./service.ts";
export * from "./webhooks.ts";
export * from "./vision.ts";
export * from "./credits.ts";
export * from "./mystery/shop.ts";
export * from "./mystery/wallet.ts";
export * from "./mystery/revenue.ts";
export * from "./instant.ts";
export * from "./mystery/items.ts";
export * from "./mystery/purchases.ts";
export * from "./mystery/buyback.ts";
export * from "./mystery/sellback.ts";
export * from "./shipping.ts";
export * from "./mystery/redemption.ts";
export * from "./catalog/index.ts";
export * from "./warehouse/index.ts";

/** Every operation the contract declares. */
export const OPERATIONS: readonly Operation[] = [
  ...Object.values(SERVICE),
  ...Object.values(CREDITS),
  ...Object.values(VISION),
  ...Object.values(WEBHOOKS),
  ...Object.values(MYSTERY_SHOP),
  ...Object.values(MYSTERY_WALLET),
  ...Object.values(MYSTERY_REVENUE),
  ...Object.values(INSTANT),
  ...Object.values(PURCHASES),
  ...Object.values(BUYBACK),
  ...Object.values(SELLBACK),
  ...Object.values(REDEMPTION),
  ...Object.values(CATALOG),
  ...WAREHOUSE_OPERATIONS,
];
