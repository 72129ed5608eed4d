import type { InputOf, Method, Reply } from "../pipeline/route.ts";
import type { Services } from "../pipeline/services.ts";
import type { RuntimeHooks } from "../pipeline/hooks.ts";
import type { ParsedInput, RouteSchema } from "../pipeline/schema.ts";

/** A control-plane route under /_emulator: no key, same envelope. */
export interface ControlSpec {
  method: Method;
  path: string;
  describe: string;
  /** What the route takes and answers: validated before the handler, written into the control plane's OpenAPI document. */
  schema: RouteSchema;
  handle(c: ControlContext): Reply | Promise<Reply>;
}

export interface ControlContext {
  services: Services;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The request parsed by the route's schema. */
  input: ParsedInput;
  /** Emulator-level operations that span more than the store (chain snapshots, reset hooks). */
  host: ControlHost;
}

/** The control context with its input typed by the route's schema. */
export interface TypedControlContext<S extends RouteSchema> extends ControlContext {
  input: InputOf<S>;
}

/** A control route whose handler receives the input its schema parsed, typed. */
export function defineControl<S extends RouteSchema>(
  spec: Omit<ControlSpec, "schema" | "handle"> & {
    schema: S;
    handle(c: TypedControlContext<S>): Reply | Promise<Reply>;
  },
): ControlSpec {
  return spec as unknown as ControlSpec;
}

export interface ControlHost {
  reset(): Promise<void>;
  snapshot(): Promise<string>;
  restore(id: string): Promise<void>;
  importState(doc: unknown): Promise<void>;
  info(): Record<string, unknown>;
}

/** What a plugin attaches to one emulator: runtime hooks and control routes of its own (under /_emulator). */
export interface PluginParts extends RuntimeHooks {
  control?: readonly ControlSpec[];
}

/** Called once per emulator with its services (`createEmulator({ plugins })`). */
export type EmulatorPlugin = (services: Services) => PluginParts;
