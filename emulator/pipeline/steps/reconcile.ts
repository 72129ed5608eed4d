import { reconciled } from "../reconcile.ts";
import type { PipelineContext, Step } from "./context.ts";

/**
 * The barrier: what the chain said up to now (blocks mined, the clock moved) is in the books before the
 * handler reads them; the settling is the reconciler's (pipeline/reconcile.ts), never the handler's.
 * Nothing changed since the last pass: two counters compared, no await.
 */
export const reconcile: Step = {
  name: "reconcile",
  run: (p: PipelineContext) => reconciled(p.services) ?? undefined,
};
