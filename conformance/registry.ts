import type { Check } from "./types.ts";
import { pipelineChecks } from "./checks/pipeline.ts";
import { catalogChecks } from "./checks/catalog.ts";

/** Every check of the suite, in run order. Area checks are added as areas land. */
export const ALL_CHECKS: readonly Check[] = [...pipelineChecks, ...catalogChecks];
