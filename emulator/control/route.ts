import type { Method, Reply } from "../pipeline/route.ts";
import type { Services } from "../pipeline/services.ts";
import type { Deviation } from "../pipeline/deviation.ts";

/** A control-plane route under /_emulator: no key, same envelope. */
export interface ControlSpec {
  method: Method;
  path: string;
  describe: string;
  handle(c: ControlContext): Reply | Promise<Reply>;
}

export interface ControlContext {
  services: Services;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  /** Emulator-level operations that span more than the store (chain snapshots, reset hooks). */
  host: ControlHost;
}

export interface ControlHost {
  reset(): Promise<void>;
  snapshot(): Promise<string>;
  restore(id: string): Promise<void>;
  importState(doc: unknown): Promise<void>;
  info(): Record<string, unknown>;
  /** Harness aid: the deviations this emulator can switch on. */
  deviations: readonly Deviation[];
}
