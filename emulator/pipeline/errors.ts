// One module builds both error envelopes (docs/reference/api-rules.md “Errors”).
// Partner/catalog: { success:false, message, error:<machine_code>, details?, retryable? }
// Warehouse:       { success:false, message, error:<human text>, code:<machine_code>, data? }
// 429/503 come from shared infrastructure, so even on warehouse routes `error`
// holds the fixed machine label ("roles swapped"); `code` repeats it.

export type { EnvelopeKind } from "../../contract/index.ts";
import { INFRA_ERROR_CODES, type EnvelopeKind } from "../../contract/index.ts";

export interface ApiErrorInit {
  details?: Record<string, unknown>;
  retryable?: boolean;
  headers?: Record<string, string>;
  /** Warehouse 409s: the conflicting resource's current state. */
  data?: unknown;
  /** Warehouse human-readable `error` text (defaults to the message). */
  human?: string;
  /** Extra top-level body fields, never overriding the envelope's (x402 v1 clients read `x402Version`/`accepts` from a 402 body). */
  extra?: Record<string, unknown>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly init: ApiErrorInit;
  constructor(status: number, code: string, message: string, init: ApiErrorInit = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.init = init;
  }
}

export function errorBody(err: ApiError, kind: EnvelopeKind): Record<string, unknown> {
  const body: Record<string, unknown> = { success: false, message: err.message };
  if (kind === "warehouse" && !INFRA_ERROR_CODES.has(err.code)) {
    body.error = err.init.human ?? err.message;
    body.code = err.code;
    if (err.init.data !== undefined) body.data = err.init.data;
  } else {
    body.error = err.code;
    if (kind === "warehouse") body.code = err.code;
  }
  if (err.init.details) body.details = err.init.details;
  if (err.init.retryable !== undefined) body.retryable = err.init.retryable;
  for (const [k, v] of Object.entries(err.init.extra ?? {})) if (!(k in body)) body[k] = v;
  return body;
}

/**
 * Codes the interface documents with fixed headers: an error with one of these
 * codes (an injected fault included) always carries them.
 */
export const DOCUMENTED_INFRA: Readonly<Record<string, { status: number; retryAfter?: number; retryable?: boolean }>> =
  {
    overloaded: { status: 503, retryAfter: 1, retryable: true },
    timeout: { status: 503, retryAfter: 2, retryable: true },
    rate_limited: { status: 429, retryAfter: 1, retryable: true },
    internal_error: { status: 500 },
  };

/** An error for `code` with the headers the interface documents for it (or, for other codes, a generic Retry-After on 429/503). */
export function documentedError(status: number, code: string, message: string): ApiError {
  const doc = Object.hasOwn(DOCUMENTED_INFRA, code) ? DOCUMENTED_INFRA[code] : undefined;
  const retryAfter = doc?.retryAfter ?? (status === 503 || status === 429 ? 1 : undefined);
  if (retryAfter === undefined) return new ApiError(status, code, message);
  return new ApiError(status, code, message, {
    retryable: doc?.retryable ?? true,
    headers: { "Retry-After": String(retryAfter) },
  });
}

// Shorthands for the codes used across areas.
export const badRequest = (code: string, message: string, init?: ApiErrorInit) =>
  new ApiError(400, code, message, init);
export const notFound = (message = "Not found", code = "not_found", init?: ApiErrorInit) =>
  new ApiError(404, code, message, init);
export const conflict = (code: string, message: string, init?: ApiErrorInit) => new ApiError(409, code, message, init);
export const forbidden = (message = "Insufficient permissions", code = "Insufficient permissions") =>
  new ApiError(403, code, message);
export const internalError = () =>
  new ApiError(500, "internal_error", "An unexpected error occurred. It has been logged; retry later.");
