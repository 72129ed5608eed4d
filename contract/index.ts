import type { Operation } from "./operation.ts";
import { SERVICE } from "./service.ts";
import { WEBHOOKS } from "./webhooks.ts";
import { VISION } from "./vision.ts";
import { CREDITS } from "./credits.ts";
import { WAREHOUSE_OPERATIONS } from "./warehouse/index.ts";

// The contract: every operation of the API, what it takes and every answer it
// gives (docs/contract.md). The emulator serves these, the OpenAPI document is
// written from them, and the conformance suite judges any target by them.

export * from "./operation.ts";
export * from "./zod.ts";
export * from "./paging.ts";
export * from "./games.ts";
export * from "./match.ts";
export * from "./service.ts";
export * from "./webhooks.ts";
export * from "./vision.ts";
export * from "./credits.ts";
export * from "./shipping.ts";
export * from "./warehouse/index.ts";

/** Every operation the contract declares. */
export const OPERATIONS: readonly Operation[] = [...Object.values(SERVICE), ...Object.values(CREDITS), ...Object.values(VISION), ...Object.values(WEBHOOKS), ...WAREHOUSE_OPERATIONS];
