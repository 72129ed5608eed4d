import type { z } from "./zod.ts";

// One operation of the API as the wire has it: who may call it, what it costs,
// what it takes and every answer it gives. The emulator serves it, the OpenAPI
// document describes it and the conformance suite judges answers by it.

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type KeyKind = "partner" | "tenant" | "legacy";
export type BillingModel = "POOL" | "TIER";

/** Who may call an operation: the key kinds, every listed scope, and (partners) the billing models. */
export interface AccessRule {
  kinds: readonly KeyKind[];
  /** Every listed scope is required. */
  scopes?: readonly string[];
  /** Partner billing models allowed (`not_tier_partner` / `not_pool_partner` otherwise). */
  models?: readonly BillingModel[];
}

/** The two error envelopes: partner and Card Data (`error` is the code) and warehouse (`code`). */
export type EnvelopeKind = "partner" | "warehouse";

/**
 * Codes answered by shared infrastructure (rate limiting, load shedding, timeouts, unexpected failures): even on
 * warehouse routes their envelope's `error` holds the machine label, and `code` repeats it (docs/reference/api-rules.md
 * “Errors”).
 */
export const INFRA_ERROR_CODES: ReadonlySet<string> = new Set([
  "rate_limited",
  "overloaded",
  "timeout",
  "internal_error",
]);

export interface ResponseSpec {
  description: string;
  /** The `data` of a success, or nothing for errors (their envelope is fixed). */
  data?: z.ZodType;
  /** Error codes this status can carry on this operation. */
  codes?: readonly string[];
  /** The `details` of an error with this status, where the operation gives them. */
  details?: z.ZodType;
  /** Success fields beside `data` (Card Data lists: page, page_size, total_count, language): documented and checked like `data`. */
  top?: z.ZodObject;
  /**
   * The `data` answered instead when the request carries query parameter `query` (Card Data's `select=`):
   * documented beside the main shape rather than merged into it, so the main shape keeps its required fields.
   */
  variant?: { query: string; description: string; data: z.ZodType };
}

/** What an operation takes and answers. */
export interface RouteSchema {
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A body read as bytes (uploads), by media type: documented, never parsed as JSON. Instead of `body`. */
  ownBody?: Readonly<Record<string, z.ZodType>>;
  /** Every answer the operation itself gives, by status (the pipeline adds 401/402/403/429/503). */
  responses: Readonly<Record<number, ResponseSpec>>;
}

export interface Operation<S extends RouteSchema = RouteSchema> {
  /** The official SDK's method name where it has one (`webhooks.register`), else `<area>.<verb>`; the OpenAPI operationId. */
  id: string;
  method: Method;
  /** Path under /api/v1, Hono syntax (`/webhooks/:id`, `/:game{pokemon|onepiece|azuki}/cards`). */
  path: string;
  summary: string;
  /** `public`: no key, not rate limited (only GET /health). */
  access: AccessRule | "public";
  envelope: EnvelopeKind;
  /** Credits per call; metered operations carry the credit headers. */
  cost?: number;
  /** The `Idempotency-Key` header: required, or optional (a replay within 24 h answers the first result). */
  idempotencyKey?: "required" | "optional";
  schema: S;
}

/** Declares an operation, keeping its schema's exact type for the server's typed handlers. */
export const operation = <S extends RouteSchema>(op: Operation<S>): Operation<S> => op;

/**
 * A partner-key operation: every partner route needs one scope (`packs:read`), some only one billing model
 * (`models`), and all answer in the partner envelope. Spread into `operation({ … })`.
 */
export const partnerScoped = (scope: string, models?: readonly BillingModel[]) =>
  ({
    access: { kinds: ["partner"], scopes: [scope], ...(models && { models }) },
    envelope: "partner",
  }) as const;
