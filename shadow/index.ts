// Shadow mode (docs/shadow.md): a proxy in front of the sandbox that compares every read with the
// emulator by the contract, holds every write to it, and records what the sandbox answered.

export { startShadow, ShadowOptionsError, type Shadow, type ShadowOptions } from "./proxy.ts";
export { DriftLog, type DriftReport, type OperationDrift, type DriftEntry, type Sample } from "./report.ts";
export type { Difference, Kind } from "./shape.ts";
export { toMarkdown, toHtml } from "./render.ts";
export { importRecordings, ImportError, type ImportResult } from "./fixtures-import.ts";
