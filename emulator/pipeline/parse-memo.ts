import { tuplePart } from "../state/tuple-key.ts";
// The parsed params and query of GET requests, reused for the same raw text: a read asked
// again (the same card, the same page) skips the schema. Only plain data is kept, frozen,
// so a handler cannot change what the next request receives; a failing parse is never kept
// (it throws its 400 each time). Bounded per schema.

const CAP = 1024;

/** Plain data only: primitives, arrays and plain objects (no Sets, Maps, RegExps, class instances, functions). */
function isPlain(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== "object") return typeof value !== "function";
  if (depth > 8) return false;
  if (Array.isArray(value)) return value.every((v) => isPlain(v, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const k in value) if (!isPlain((value as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const k in value) deepFreeze((value as Record<string, unknown>)[k]);
}

/** Checked whole before anything is frozen: a value that is not kept is handed over untouched. */
function frozenPlain(value: unknown): boolean {
  if (!isPlain(value)) return false;
  deepFreeze(value);
  return true;
}

export class ParseMemo {
  private bySchema = new WeakMap<object, Map<string, unknown>>();

  get<T>(schema: object, raw: string, parse: () => T): T {
    let memo = this.bySchema.get(schema);
    if (!memo) this.bySchema.set(schema, (memo = new Map()));
    const kept = memo.get(raw);
    if (kept !== undefined || memo.has(raw)) return kept as T;
    const value = parse();
    if (frozenPlain(value)) {
      if (memo.size >= CAP) memo.clear();
      memo.set(raw, value);
    }
    return value;
  }
}

/** The memo key of a route's path parameters. */
export function paramsKey(params: Record<string, string>): string {
  // tupleKey(name, value, …, "") written out (state/tuple-key.ts: unambiguous, a value holding the separator cannot
  // pass for another split of the same text), without the array of parts a request would allocate.
  let key = "";
  for (const name in params) key += `${tuplePart(name)}\u0000${tuplePart(params[name]!)}\u0000`;
  return key;
}
