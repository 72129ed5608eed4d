import type { EmulatorPlugin } from "../../emulator/index.ts";
import type { Deviation } from "./deviation.ts";
import { pipelineDeviations } from "./pipeline.ts";
import { limitDeviations } from "./limits.ts";
import { catalogDeviations } from "./catalog.ts";
import { creditsDeviations } from "./credits.ts";
import { visionDeviations } from "./vision.ts";
import { webhooksDeviations, signingSkewMs } from "./webhooks.ts";
import { mysteryDeviations } from "./mystery.ts";
import { instantDeviations } from "./instant.ts";
import { warehouseDeviations } from "./warehouse.ts";
import { deviationRoutes } from "./routes.ts";
import { invariantDeviations } from "./invariants.ts";
import {
  eventDeviations,
  gateDeviations,
  ineligibleDeviations,
  instantCardDeviations,
  partialEventDeviations,
  refusalDeviations,
  sellbackDeviations,
} from "./refusals.ts";

// The deviation catalogue as a plugin of the emulator: the conformance suite's own tests (and the
// shadow tests' upstream) start an emulator with `plugins: [deviations]` and switch one on with
// POST /_emulator/deviations {name}. Outside emulator/ and never compiled into dist.

export type { Deviation } from "./deviation.ts";

/** Every deviation, the pipeline's and each area's (one per conformance check). */
export const DEVIATIONS: readonly Deviation[] = [
  ...pipelineDeviations,
  ...limitDeviations,
  // The areas in the order the emulator registers them (emulator/areas/index.ts).
  ...webhooksDeviations,
  ...creditsDeviations,
  ...visionDeviations,
  ...mysteryDeviations,
  ...instantDeviations,
  ...warehouseDeviations,
  ...catalogDeviations,
  ...refusalDeviations,
  ...gateDeviations,
  ...ineligibleDeviations,
  ...eventDeviations,
  ...instantCardDeviations,
  ...sellbackDeviations,
  ...partialEventDeviations,
  // One per contract invariant (no check names them; conformance/invariants.test.ts does).
  ...invariantDeviations,
];

/** The plugin: per emulator, an active set (empty at start and after a reset) and its control routes. */
export const deviations: EmulatorPlugin = () => {
  const active = new Set<string>();
  return {
    rewriting: () => active.size > 0,
    answer: (x) => {
      for (const d of DEVIATIONS) if (active.has(d.name)) d.apply(x);
    },
    signingOffsetMs: () => signingSkewMs(active),
    deliveryBody: (body, attempt) =>
      DEVIATIONS.reduce((b, d) => (active.has(d.name) && d.deliveryBody ? d.deliveryBody(b, attempt) : b), body),
    deliveryHeaders: (headers, attempt) => {
      for (const d of DEVIATIONS) if (active.has(d.name)) d.deliveryHeaders?.(headers, attempt);
    },
    reset: () => active.clear(),
    control: deviationRoutes(DEVIATIONS, active),
  };
};
