import { expect } from "vitest";

/** An answer read far enough to judge: supertest's Response, or a fetch Response with its JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}

/** The codes shared infrastructure answers: on warehouse routes `error` holds the label too (roles swapped). */
const INFRA = new Set([429, 500, 503]);

function fields(res: Answer, what?: string) {
  const body = (res.body ?? {}) as Record<string, unknown>;
  return { body, seen: `${what ? `${what}: ` : ""}${JSON.stringify(res.body).slice(0, 400)}` };
}

/**
 * Partner / catalog / control-plane envelope: `{success:false, message:<human>, error:<machine code>}`.
 * Asserts the status, the envelope and the code (`what` labels a failure); returns the body for further checks.
 */
export function expectError(res: Answer, status: number, code: string, what?: string): Record<string, unknown> {
  const { body, seen } = fields(res, what);
  expect({ status: res.status, success: body.success, message: typeof body.message, error: body.error }, seen).toEqual({
    status,
    success: false,
    message: "string",
    error: code,
  });
  return body;
}

/**
 * Warehouse envelope: `{success:false, message, error:<human text>, code:<machine code>}`;
 * on 429/503/500 `error` holds the same label as `code`.
 */
export function expectWarehouseErrorAnswer(
  res: Answer,
  status: number,
  code: string,
  what?: string,
): Record<string, unknown> {
  const { body, seen } = fields(res, what);
  expect(
    {
      status: res.status,
      success: body.success,
      message: typeof body.message,
      error: typeof body.error,
      code: body.code,
    },
    seen,
  ).toEqual({
    status,
    success: false,
    message: "string",
    error: "string",
    code,
  });
  if (INFRA.has(status)) expect(body.error, seen).toBe(code);
  return body;
}
