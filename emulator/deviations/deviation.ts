import type { Services } from "../pipeline/services.ts";

// Harness testing aid (POST /_emulator/deviations {name}): each deviation makes
// the emulator break exactly one rule of the contract, so the conformance
// suite's own tests can show that every check fails against a server that
// breaks its rule. They rewrite finished responses (and, for metering rules,
// the balance), so the real pipeline stays free of test switches.

export type Body = Record<string, unknown> & { data?: unknown; error?: unknown; details?: unknown; code?: unknown };

export interface Exchange {
  req: Request;
  url: URL;
  status: number;
  headers: Headers;
  /** Parsed JSON body (null when not JSON). Mutate it or replace it. */
  body: Body | null;
  services: Services;
}

export interface Deviation {
  name: string;
  breaks: string;
  apply(x: Exchange): void;
}

export const isApi = (x: Exchange) => x.url.pathname.startsWith("/api/v1/");
/** Partner envelope code (`error`) or warehouse code (`code`). */
export const errorIs = (x: Exchange, status: number, code: string) => x.status === status && (x.body?.error === code || x.body?.code === code);
export const toSuccess = (x: Exchange, data: unknown) => {
  x.status = 200;
  x.body = { success: true, data };
};
