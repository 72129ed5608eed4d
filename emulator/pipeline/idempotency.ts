import type { Store } from "../state/store.ts";
import type { Reply } from "./route.ts";
import { badRequest, conflict } from "./errors.ts";

// Idempotent writes, one mechanism for every area: a key (the Idempotency-Key
// header, or a body `idempotency_key` / `submission_key`) is bound to a
// fingerprint of what it was first used for. A replay returns the original
// reply (same status, same data); the same key with another fingerprint is
// 409 idempotency_mismatch. Only successes are remembered, so a failed call
// can be retried with the same key.

export const MAX_IDEMPOTENCY_KEY = 128;

interface Remembered {
  fingerprint: string;
  status: number;
  data: unknown;
  at: string;
}

type Slice = { records: Record<string, Remembered> };

export interface IdempotentOptions {
  /** Separates key spaces (e.g. `${account}:custodial-purchase`). */
  scope: string;
  key: string;
  /** What the key is bound to (e.g. the tier id); compared as JSON. */
  fingerprint: unknown;
  now: string;
  /** Shapes the replayed reply (e.g. inbound shipments answer 200 with created:false). */
  replay?: (original: Reply) => Reply;
  /** Name of the field in messages (header or body field). */
  field?: string;
}

export function checkIdempotencyKey(key: string, field = "Idempotency-Key"): void {
  if (key.length === 0) throw badRequest("invalid_idempotency_key", `${field} must not be empty`);
  if (key.length > MAX_IDEMPOTENCY_KEY)
    throw badRequest("invalid_idempotency_key", `${field} is ${key.length} characters; at most ${MAX_IDEMPOTENCY_KEY} are allowed`);
}

export async function idempotent(store: Store, opts: IdempotentOptions, run: () => Reply | Promise<Reply>): Promise<Reply> {
  checkIdempotencyKey(opts.key, opts.field);
  const slice = store.area<Slice>("idempotency", () => ({ records: {} }));
  const id = `${opts.scope}\u0000${opts.key}`;
  const fingerprint = JSON.stringify(opts.fingerprint);
  const seen = slice.records[id];
  if (seen) {
    if (seen.fingerprint !== fingerprint)
      throw conflict("idempotency_mismatch", `${opts.field ?? "Idempotency-Key"} "${opts.key}" was already used for a different request`);
    const original: Reply = { status: seen.status, data: structuredClone(seen.data) };
    return opts.replay ? opts.replay(original) : original;
  }
  const reply = await run();
  const status = reply.status ?? 200;
  // Re-read the slice: the state may have been replaced while the handler awaited.
  if (status >= 200 && status < 300)
    store.area<Slice>("idempotency", () => ({ records: {} })).records[id] = { fingerprint, status, data: structuredClone(reply.data), at: opts.now };
  return reply;
}
