import type { Area } from "./area.ts";
import { catalogArea } from "./catalog/index.ts";
import { creditsArea } from "./credits/index.ts";
import { visionArea } from "./vision/index.ts";
import { webhooksArea } from "./webhooks/index.ts";
import { mysteryArea } from "./mystery/index.ts";
import { instantArea } from "./instant/index.ts";
import { warehouseArea } from "./warehouse/index.ts";

/** Every area, in route-registration order (more specific paths first where they overlap). */
export const AREAS: readonly Area[] = [
  webhooksArea,
  creditsArea,
  visionArea,
  mysteryArea,
  instantArea,
  warehouseArea,
  catalogArea,
];
