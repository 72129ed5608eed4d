import type { Body, Exchange, Services } from "./services.ts";

// The runtime's one extension point: hooks a plugin attaches at start (`createEmulator({ plugins })`).
// None are attached by default, so an emulator without plugins runs exactly its own rules. The
// conformance suite's own tests attach the deviation catalogue this way (testing/deviations/,
// never part of dist).

export type { Body, Exchange, RuntimeHooks } from "./services.ts";

/** The delivery signing offset of every attached hook (0 without any). */
export const signingOffsetMs = (services: Services): number =>
  services.hooks.reduce((sum, h) => sum + (h.signingOffsetMs?.() ?? 0), 0);

/** An outgoing delivery's body through every attached hook (unchanged without any). */
export const deliveryBody = (services: Services, body: string, attempt: number): string =>
  services.hooks.reduce((b, h) => h.deliveryBody?.(b, attempt) ?? b, body);

/** An outgoing delivery's signed headers through every attached hook. */
export const deliveryHeaders = (services: Services, headers: Record<string, string>, attempt: number): void => {
  for (const h of services.hooks) h.deliveryHeaders?.(headers, attempt);
};

/** Runs the rewriting hooks over a finished answer; the answer untouched when none is rewriting. */
export async function rewriteAnswer(services: Services, req: Request, res: Response): Promise<Response> {
  const active = services.hooks.filter((h) => h.answer && (h.rewriting?.() ?? true));
  if (active.length === 0) return res;
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
  for (const h of active) h.answer!(x);
  return new Response(x.body === null ? text : JSON.stringify(x.body), { status: x.status, headers: x.headers });
}
