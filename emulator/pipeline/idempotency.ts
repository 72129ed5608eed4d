import { MAX_IDEMPOTENCY_KEY, type Operation } from "../../contract/index.ts";
import { z } from "zod";
import { isoTime, json, ownRecord } from "../state/fields.ts";
import { defineSlice } from "../state/slices.ts";
import { tupleKey } from "../state/tuple-key.ts";
import type { Store } from "../state/store.ts";
import type { Reply } from "./route.ts";
import { runtimeSlot, type RuntimeOwner } from "./runtime.ts";
import { badRequest, conflict } from "./errors.ts";

// Idempotent writes, one mechanism for every area: a key (the Idempotency-Key
// header, or a body `idempotency_key` / `submission_key`) is bound to a
// fingerprint of what it was first used for. A replay returns the original
// reply (same status, same data); the same key with another fingerprint is
// 409 idempotency_mismatch. Only successes are remembered, so a failed call
// can be retried with the same key. Fingerprints are canonical JSON (object
// keys sorted), so a re-serialised body is the same request.
//
// The key is claimed before the handler runs: a call that arrives while
// another with the same key is in flight (the handler awaits the chain) waits
// for it and replays its answer, so parallel replays never run twice.

export { MAX_IDEMPOTENCY_KEY };

interface Remembered {
  fingerprint: string;
  status: number;
  data: unknown;
  at: string;
}

type Slice = { records: Record<string, Remembered> };
const remembered = z.strictObject({
  fingerprint: z.string(),
  status: z.number().int().min(100).max(599),
  data: json,
  at: isoTime,
});
const IDEMPOTENCY_SLICE = defineSlice<Slice>({
  name: "idempotency",
  init: () => ({ records: {} }),
  schema: z.strictObject({ records: ownRecord(remembered) }),
});

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
    throw badRequest(
      "invalid_idempotency_key",
      `${field} is ${key.length} characters; at most ${MAX_IDEMPOTENCY_KEY} are allowed`,
    );
}

/**
 * The Idempotency-Key header of an operation that declares it required (contract `idempotencyKey: "required"`):
 * 400 missing_idempotency_key when absent or blank, before the request's input is read.
 */
export function requireIdempotencyKey(op: Operation | undefined, headers: Headers): void {
  if (op?.idempotencyKey !== "required") return;
  const key = headers.get("idempotency-key");
  if (key === null || key.trim() === "")
    throw badRequest("missing_idempotency_key", `${op.method} ${op.path} requires an Idempotency-Key header`);
}

interface InFlight {
  fingerprint: string;
  done: Promise<unknown>;
}

/** Calls under way in one emulator (its runtime, not its state: a promise is not JSON, and a restart has none). */
const IN_FLIGHT = runtimeSlot("idempotent calls in flight", () => new Map<string, InFlight>());

export async function idempotent(
  { store, runtime }: RuntimeOwner & { store: Store },
  opts: IdempotentOptions,
  run: () => Reply | Promise<Reply>,
): Promise<Reply> {
  checkIdempotencyKey(opts.key, opts.field);
  // Unambiguous, and the `${scope}\u0000${key}` of older state files (state/tuple-key.ts).
  const id = tupleKey(opts.scope, opts.key);
  const fingerprint = canonicalJson(opts.fingerprint);
  const running = runtime.of(IN_FLIGHT);
  for (;;) {
    // Re-read the slice each time: the state may have been replaced while we awaited.
    const records = store.slice(IDEMPOTENCY_SLICE).records;
    const seen = Object.hasOwn(records, id) ? records[id] : undefined;
    if (seen) {
      if (seen.fingerprint !== fingerprint) throw mismatch(opts);
      const original: Reply = { status: seen.status, data: structuredClone(seen.data) };
      return opts.replay ? opts.replay(original) : original;
    }
    const busy = running.get(id);
    if (!busy) break;
    if (busy.fingerprint !== fingerprint) throw mismatch(opts);
    // Same request in flight: wait for it, then replay it (or, if it failed, run again).
    await busy.done.catch(() => undefined);
  }
  const done = (async () => run())();
  running.set(id, { fingerprint, done });
  try {
    const reply = await done;
    const status = reply.status ?? 200;
    if (status >= 200 && status < 300)
      store.slice(IDEMPOTENCY_SLICE).records[id] = {
        fingerprint,
        status,
        data: structuredClone(reply.data),
        at: opts.now,
      };
    return reply;
  } finally {
    running.delete(id);
  }
}

function mismatch(opts: IdempotentOptions) {
  return conflict(
    "idempotency_mismatch",
    `${opts.field ?? "Idempotency-Key"} "${opts.key}" was already used for a different request`,
  );
}

/** JSON with object keys sorted at every depth: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!v || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = Object.create(null);
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}
