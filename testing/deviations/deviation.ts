import type { KeyRecord } from "../../emulator/state/schema.ts";
import { own } from "../../emulator/state/own.ts";
import type { Body, Exchange } from "../../emulator/pipeline/hooks.ts";

// Harness testing aid: each deviation makes the emulator break exactly one rule of the contract,
// so the conformance suite's own tests can show that every check fails against a server that
// breaks its rule. They rewrite finished answers (and, for metering rules, the balance) through
// the runtime's answer hook (emulator/pipeline/hooks.ts), so the real pipeline stays free of test
// switches and dist holds none of them. One file per area; ./index.ts is the plugin.

export type { Body, Exchange };

export interface Deviation {
  name: string;
  breaks: string;
  /** The contract invariant (contract/invariants/) this deviation breaks, and only it. */
  invariant?: string;
  apply(x: Exchange): void;
  /** For a delivery rule: rewrites an outgoing webhook delivery's body before it is signed (`attempt` 1 = first). */
  deliveryBody?(body: string, attempt: number): string;
  /** For a delivery rule: rewrites an outgoing delivery's headers after signing. */
  deliveryHeaders?(headers: Record<string, string>, attempt: number): void;
}

export const isApi = (x: Exchange) => x.url.pathname.startsWith("/api/v1/");
/** Partner envelope code (`error`) or warehouse code (`code`). */
export const errorIs = (x: Exchange, status: number, code: string) =>
  x.status === status && (x.body?.error === code || x.body?.code === code);
export const toSuccess = (x: Exchange, data: unknown) => {
  x.status = 200;
  x.body = { success: true, data };
};

/** The calling key's record (own entries only). */
export const keyOf = (x: Exchange): KeyRecord | undefined =>
  own(x.services.store.state.keys, x.req.headers.get("x-api-key") ?? "");
/** The success body's `data` as an object, or null. */
export const dataOf = (x: Exchange): Record<string, unknown> | null =>
  x.body?.data && typeof x.body.data === "object" && !Array.isArray(x.body.data)
    ? (x.body.data as Record<string, unknown>)
    : null;
/** `method` and a path pattern under the finished request. */
export const is = (x: Exchange, method: string, path: RegExp) => x.req.method === method && path.test(x.url.pathname);
