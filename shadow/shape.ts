// The shape of a JSON answer, compared without its values: which fields exist (ever, across the
// rows of an array) and their JSON types. Values that legitimately differ between the upstream and
// the emulator (ids, times, prices, balances) never show here; null is a value, so nullability is
// left to the contract (contract.ts).

export type Kind =
  "status" | "error_code" | "header" | "missing" | "extra" | "type" | "nullability" | "enum" | "format";

/** One way the upstream's answer differs; `where` is a JSON pointer with `*` for every row of an array, or a header. */
export interface Difference {
  kind: Kind;
  where: string;
  /** What the upstream answered there (a type, a code, a header value), masked. */
  upstream: string;
  /** What the emulator answered there, or what the contract wants for a write. */
  emulator: string;
}

interface Shape {
  types: Set<string>;
  fields: Map<string, Shape>;
  items: Shape | null;
}

const empty = (): Shape => ({ types: new Set(), fields: new Map(), items: null });

export const typeName = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Folds `v` into `into`: every row of an array into one item shape. */
function shapeOf(v: unknown, into: Shape = empty()): Shape {
  into.types.add(typeName(v));
  if (Array.isArray(v)) for (const row of v) into.items = shapeOf(row, into.items ?? empty());
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      let f = into.fields.get(k);
      if (!f) into.fields.set(k, (f = empty()));
      shapeOf(x, f);
    }
  return into;
}

const escape = (k: string) => k.replace(/~/g, "~0").replace(/\//g, "~1");
const nonNull = (s: Shape) => [...s.types].filter((t) => t !== "null").sort();
const describe = (s: Shape) => [...s.types].sort().join(" | ");

/** The differences between two bodies' shapes: fields one side never has, JSON types that do not agree. */
export function shapeDifferences(upstream: unknown, emulator: unknown): Difference[] {
  const out: Difference[] = [];
  walk(shapeOf(upstream), shapeOf(emulator), "", out);
  return out;
}

function walk(up: Shape, emu: Shape, where: string, out: Difference[]): void {
  const a = nonNull(up);
  const b = nonNull(emu);
  // A side that only ever answered null says nothing about the type.
  if (a.length && b.length && a.join() !== b.join()) {
    out.push({ kind: "type", where: where || "/", upstream: a.join(" | "), emulator: b.join(" | ") });
    return;
  }
  if (up.types.has("object") && emu.types.has("object")) {
    for (const [k, f] of emu.fields)
      if (!up.fields.has(k))
        out.push({ kind: "missing", where: `${where}/${escape(k)}`, upstream: "nothing", emulator: describe(f) });
    for (const [k, f] of up.fields) {
      const g = emu.fields.get(k);
      if (!g) out.push({ kind: "extra", where: `${where}/${escape(k)}`, upstream: describe(f), emulator: "nothing" });
      else walk(f, g, `${where}/${escape(k)}`, out);
    }
  }
  // Rows are compared only when both sides have some (an empty page says nothing about its rows).
  if (up.items && emu.items) walk(up.items, emu.items, `${where}/*`, out);
}
