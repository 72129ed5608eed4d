import { ApiError, errorBody, type EnvelopeKind } from "./errors.ts";
import type { Reply } from "./route.ts";

export function successBody(reply: Reply): Record<string, unknown> {
  const body: Record<string, unknown> = { success: true, data: reply.data ?? {} };
  if (reply.pagination) body.pagination = reply.pagination;
  if (reply.top) Object.assign(body, reply.top);
  return body;
}

/** The success envelope as text; splices `reply.dataJson` (pre-serialised data) when present. */
export function successText(reply: Reply): string {
  if (reply.dataJson === undefined) return JSON.stringify(successBody(reply));
  const rest = JSON.stringify({ ...(reply.pagination ? { pagination: reply.pagination } : {}), ...reply.top });
  return `{"success":true,"data":${reply.dataJson}${rest === "{}" ? "" : `,${rest.slice(1, -1)}`}}`;
}

export function textResponse(status: number, text: string, headers: Headers): Response {
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(text, { status, headers });
}

export function jsonResponse(status: number, body: unknown, headers: Headers): Response {
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status, headers });
}

export function errorResponse(err: ApiError, kind: EnvelopeKind, headers: Headers): Response {
  for (const [k, v] of Object.entries(err.init.headers ?? {})) headers.set(k, v);
  return jsonResponse(err.status, errorBody(err, kind), headers);
}
