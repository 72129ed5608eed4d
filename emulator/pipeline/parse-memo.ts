// The parsed params and query of GET requests, reused for the same raw text: a read asked
// again (the same card, the same page) skips the schema. Only plain data is kept, frozen,
// so a handler cannot change what the next request receives; a failing parse is never kept
// (it throws its 400 each time). Bounded per schema.

const CAP = 1024;

function frozenPlain(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== "object") return typeof value !== "function";
  if (depth > 8) return false;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (!value.every((v) => frozenPlain(v, depth + 1))) return false;
  } else if (proto === Object.prototype || proto === null) {
    for (const k in value) if (!frozenPlain((value as Record<string, unknown>)[k], depth + 1)) return false;
  } else return false; // Sets, Maps, class instances: not kept
  Object.freeze(value);
  return true;
}

export class ParseMemo {
  private bySchema = new WeakMap<object, Map<string, unknown>>();

  get<T>(schema: object, raw: string, parse: () => T): T {
    let memo = this.bySchema.get(schema);
    if (!memo) this.bySchema.set(schema, (memo = new Map()));
    if (memo.has(raw)) return memo.get(raw) as T;
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
  let key = "";
  for (const name in params) key += `${name}\u0000${params[name]}\u0000`;
  return key;
}
