import { ApiError, badRequest } from "./errors.ts";

// Request bodies, read once for every route: refused as soon as the declared
// (Content-Length) or streamed length passes the limit, before the rest is
// read or anything is parsed, so a 20 MB body costs no more than the limit.

/** JSON bodies of the API: far above any real request (a 500-id array is ~20 KB). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/** Control-plane bodies carry whole state exports (PUT /_emulator/state). */
export const MAX_CONTROL_BODY_BYTES = 512 * 1024 * 1024;

export type TooLarge = (size: string) => ApiError;

export const payloadTooLarge =
  (limit: number): TooLarge =>
  (size) =>
    new ApiError(413, "payload_too_large", `The request body is ${size} bytes; at most ${limit} bytes are accepted`, {
      details: { max_bytes: limit },
    });

/** The body's bytes, at most `limit` of them (else `tooLarge`, without reading further). */
export async function readBytes(
  req: Request,
  limit: number,
  tooLarge: TooLarge = payloadTooLarge(limit),
): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(String(declared));
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(`more than ${limit}`);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export async function readText(req: Request, limit: number, tooLarge?: TooLarge): Promise<string> {
  return new TextDecoder().decode(await readBytes(req, limit, tooLarge));
}

/** A JSON body: `{}` when empty, 400 invalid_json when it is not JSON. */
export function parseJson(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest("invalid_json", "The request body is not valid JSON");
  }
}

/** The body as a JSON object (400 invalid_json for arrays, strings, numbers, null). */
export function asObject(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw badRequest("invalid_json", "The request body must be a JSON object");
  return value as Record<string, unknown>;
}
