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
  if (reply.text !== undefined) return reply.text;
  if (reply.dataJson === undefined) return JSON.stringify(successBody(reply));
  const rest = JSON.stringify({ ...(reply.pagination ? { pagination: reply.pagination } : {}), ...reply.top });
  return `{"success":true,"data":${reply.dataJson}${rest === "{}" ? "" : `,${rest.slice(1, -1)}`}}`;
}

/**
 * Response headers as a plain object with canonical names: the node server
 * writes such an object as is, where a `Headers` instance costs a copy and a
 * validation of every name on each response.
 */
export type HeaderBag = Record<string, string>;

/** Each answer's header bag, so readers after the fact (the request journal) need not build a Headers object. */
const BAGS = new WeakMap<Response, HeaderBag>();

export function textResponse(status: number, text: string, headers: HeaderBag): Response {
  headers["Content-Type"] = "application/json; charset=utf-8";
  const res = new Response(text, { status, headers });
  BAGS.set(res, headers);
  return res;
}

/** One header of an answer: from its bag when the envelope built it, else from its Headers. */
export function headerOf(res: Response, name: string): string | null {
  const bag = BAGS.get(res);
  if (!bag) return res.headers.get(name);
  const v = bag[name];
  return v === undefined ? null : String(v);
}

export function jsonResponse(status: number, body: unknown, headers: HeaderBag): Response {
  return textResponse(status, JSON.stringify(body), headers);
}

export function errorResponse(err: ApiError, kind: EnvelopeKind, headers: HeaderBag): Response {
  if (err.init.headers) Object.assign(headers, err.init.headers);
  return jsonResponse(err.status, errorBody(err, kind), headers);
}
