import type { Services } from "./services.ts";
import type { KeyRecord } from "../state/schema.ts";
import { own } from "../state/own.ts";

// Harness testing aid (POST /_emulator/deviations {name}): each deviation makes
// the emulator break exactly one rule of the contract, so the conformance
// suite's own tests can show that every check fails against a server that
// breaks its rule. They rewrite finished responses (and, for metering rules,
// the balance), so the real pipeline stays free of test switches. Each area
// contributes the deviations of its own rules (`areas/<area>/deviations.ts`);
// the pipeline's are in ./deviations.ts; app.ts applies them at one hook.

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

/** The calling key's record (own entries only). */
export const keyOf = (x: Exchange): KeyRecord | undefined => own(x.services.store.state.keys, x.req.headers.get("x-api-key") ?? "");
/** The success body's `data` as an object, or null. */
export const dataOf = (x: Exchange): Record<string, unknown> | null =>
  x.body?.data && typeof x.body.data === "object" && !Array.isArray(x.body.data) ? (x.body.data as Record<string, unknown>) : null;
/** `method` and a path pattern under the finished request. */
export const is = (x: Exchange, method: string, path: RegExp) => x.req.method === method && path.test(x.url.pathname);

/** Applies the active deviations to a finished response. */
export async function applyDeviations(all: readonly Deviation[], active: ReadonlySet<string>, req: Request, res: Response, services: Services): Promise<Response> {
  if (active.size === 0) return res;
  const url = new URL(req.url);
  if (url.pathname.startsWith("/_emulator")) return res;
  const text = await res.text();
  let body: Body | null = null;
  try {
    body = text ? (JSON.parse(text) as Body) : null;
  } catch {
    body = null;
  }
  const x: Exchange = { req, url, status: res.status, headers: new Headers(res.headers), body, services };
  for (const d of all) if (active.has(d.name)) d.apply(x);
  return new Response(x.body === null ? text : JSON.stringify(x.body), { status: x.status, headers: x.headers });
}
