import { ApiError, errorBody, type EnvelopeKind } from "./errors.ts";
import type { Reply } from "./route.ts";

export function successBody(reply: Reply): Record<string, unknown> {
  const body: Record<string, unknown> = { success: true, data: reply.data ?? {} };
  if (reply.pagination) body.pagination = reply.pagination;
  if (reply.top) Object.assign(body, reply.top);
  return body;
}

export function jsonResponse(status: number, body: unknown, headers: Headers): Response {
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status, headers });
}

export function errorResponse(err: ApiError, kind: EnvelopeKind, headers: Headers): Response {
  for (const [k, v] of Object.entries(err.init.headers ?? {})) headers.set(k, v);
  return jsonResponse(err.status, errorBody(err, kind), headers);
}
