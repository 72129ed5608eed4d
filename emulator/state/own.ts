// Lookups by caller-supplied keys in plain-JSON records. `rec[key]` also finds
// inherited members (`constructor`, `toString`, `__proto__` …), and
// `rec[key] = v` with key `__proto__` replaces the prototype instead of adding
// an entry. State stays plain JSON (snapshot/export), so guard the access.

/** The record's own entry for `key`, never an inherited member. */
export function own<T>(rec: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(rec, key) ? rec[key] : undefined;
}

/** Sets the record's own entry for `key` (even `__proto__`), never the prototype. */
export function setOwn<T>(rec: Record<string, T>, key: string, value: T): T {
  Object.defineProperty(rec, key, { value, enumerable: true, writable: true, configurable: true });
  return value;
}
