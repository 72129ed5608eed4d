// `orderBy` parsing and record comparators (README "Card Data catalog").
//
// Keys are comma separated, `-` prefix = descending, at most 3 keys. Missing
// values sort LAST in both directions; ties are broken by `id` ascending.
// Text sorts case-insensitively by UTF-16 code units; `number` sorts naturally
// ("2" < "10" < "TG01"); dates sort chronologically.
import type { Game } from "../../../catalog-data/model.ts";
import { parseError, invalidValue, tooComplex } from "./errors.ts";
import { orderKeyCache, unknownFieldError } from "./compile.ts";
import {
  SORT_ALIASES,
  fieldsFor,
  lookupField,
  type FieldDef,
  type FieldSchema,
  type RecordOf,
  type Resource,
} from "./fields.ts";
import { dateNumber } from "./text.ts";
import { own } from "../../../state/own.ts";
import { MAX_ORDER_KEYS } from "../../../../contract/index.ts";

export { MAX_ORDER_KEYS };

/**
 * Order used when orderBy is absent or blank (always followed by the `id` tiebreak):
 * - cards: expansion release date (oldest first), then expansion id, then card number (natural);
 * - expansions: release date (oldest first);
 * - sealed: expansion release date (oldest first), then name.
 */
export const DEFAULT_ORDER_BY: Readonly<Record<Resource, string>> = {
  cards: "release_date,expansion.id,number",
  expansions: "release_date",
  sealed: "release_date,name",
};

export interface SortSpec {
  /** Key as written (lower-cased, without `-`). */
  key: string;
  /** Canonical q field it resolves to. */
  field: string;
  descending: boolean;
}

export type Sorter<R> = ((a: R, b: R) => number) & {
  /** Sorted copy (keys extracted once per record; faster than Array#sort with the comparator, which memoises keys per record in a WeakMap). */
  sort(records: readonly R[]): R[];
  /**
   * Exactly `sort(records).slice(offset, offset + limit)`, but for shallow
   * pages keeps only the best `offset + limit` records in a heap instead of
   * sorting everything.
   */
  page(records: readonly R[], offset: number, limit: number): R[];
  specs: readonly SortSpec[];
};

/** Splits and validates orderBy; positions are offsets into the orderBy string. */
export function parseOrderBy(orderBy: string | undefined, resource: Resource, game: Game): SortSpec[] {
  const text = orderBy === undefined || orderBy.trim() === "" ? DEFAULT_ORDER_BY[resource] : orderBy;
  const items: { text: string; position: number }[] = [];
  let start = 0;
  for (const part of text.split(",")) {
    const lead = part.length - part.trimStart().length;
    items.push({ text: part.trim(), position: start + lead });
    start += part.length + 1;
  }
  if (items.length > MAX_ORDER_KEYS)
    throw tooComplex(`orderBy has ${items.length} keys; at most ${MAX_ORDER_KEYS} are allowed`);
  const schema = fieldsFor(resource, game);
  const aliases = SORT_ALIASES[resource];
  return items.map(({ text: item, position }) => {
    if (item === "") throw parseError("empty orderBy key", position);
    const descending = item.startsWith("-");
    const raw = descending ? item.slice(1) : item;
    const namePos = descending ? position + 1 : position;
    if (raw === "") throw parseError('empty orderBy key after "-"', position);
    const key = raw.toLowerCase();
    const field = own(aliases, key) ?? key;
    const def = lookupField(schema, field);
    const sortable = sortableNames(schema, aliases);
    if (def === undefined) {
      throw unknownFieldError(
        raw,
        namePos,
        sortable.length > 0 ? [...sortable, ...Object.keys(schema)] : Object.keys(schema),
        `${game} ${resource} orderBy`,
      );
    }
    if (!def.sortable)
      throw invalidValue(`field "${raw}" cannot be used in orderBy; sortable keys: ${sortable.join(", ")}`, namePos);
    return { key, field, descending };
  });
}

function sortableNames<R>(schema: FieldSchema<R>, aliases: Readonly<Record<string, string>>): string[] {
  const names = Object.keys(schema).filter((k) => schema[k].sortable);
  for (const a of Object.keys(aliases)) if (!names.includes(a)) names.push(a);
  return names;
}

/** One column of a sort: strings compare by code units, numbers numerically. */
type SortValue = string | number | undefined;

function extractor<R extends object>(def: FieldDef<R>): (r: R) => SortValue {
  switch (def.type) {
    case "string": {
      const get = def.get;
      const cache = orderKeyCache(def);
      return (r) => {
        const s = get(r);
        return s === undefined ? undefined : cache.string(r, s);
      };
    }
    case "number": {
      const get = def.get;
      return (r) => {
        const n = get(r);
        return n === undefined || Number.isNaN(n) ? undefined : n;
      };
    }
    case "date": {
      const get = def.get;
      return (r) => dateNumber(get(r));
    }
    case "boolean":
    case "string[]":
      // parseOrderBy rejects these (no list or boolean field is sortable).
      throw new Error(`field type ${def.type} is not sortable`);
  }
}

/**
 * Compiles orderBy into a comparator (with a faster `.sort()`). Throws
 * query_too_complex (>3 keys), unknown_field, invalid_value (known but not
 * sortable) or parse_error (empty key).
 */
export function compileOrderBy<K extends Resource>(
  orderBy: string | undefined,
  resource: K,
  game: Game,
): Sorter<RecordOf[K]> {
  type R = RecordOf[K];
  const specs = parseOrderBy(orderBy, resource, game);
  const schema: FieldSchema<R> = fieldsFor(resource, game);
  const extract = specs.map((s) => extractor(schema[s.field]));
  const direction = specs.map((s) => (s.descending ? -1 : 1));
  const n = extract.length;
  const idOf = (schema.id as { get: (r: R) => string | undefined }).get;

  // Each column holds one type (all strings or all numbers) plus undefined.
  const compareKeys = (ka: SortValue[], kb: SortValue[], idA: string, idB: string): number => {
    for (let i = 0; i < n; i++) {
      const a = ka[i];
      const b = kb[i];
      if (a === b) continue;
      if (a === undefined) return 1; // missing last, whatever the direction
      if (b === undefined) return -1;
      return a < b ? -direction[i] : direction[i];
    }
    return idA < idB ? -1 : idA > idB ? 1 : 0;
  };
  const extractAll = (r: R): SortValue[] => extract.map((f) => f(r));

  interface Decorated {
    r: R;
    k: SortValue[];
    id: string;
  }
  const decorate = (r: R): Decorated => ({ r, k: extractAll(r), id: idOf(r) ?? "" });
  const cmp = (x: Decorated, y: Decorated): number => compareKeys(x.k, y.k, x.id, y.id);

  // Plain comparator use (Array#sort(sorter)): keys are extracted once per record per sorter.
  const memo = new WeakMap<R, Decorated>();
  const decorated = (r: R): Decorated => {
    let d = memo.get(r);
    if (d === undefined) {
      d = decorate(r);
      memo.set(r, d);
    }
    return d;
  };
  const comparator = (a: R, b: R): number => cmp(decorated(a), decorated(b));
  const sort = (records: readonly R[]): R[] => {
    const decorated = records.map(decorate);
    decorated.sort(cmp);
    return decorated.map((d) => d.r);
  };
  const page = (records: readonly R[], offset: number, limit: number): R[] => {
    const from = Math.max(0, Math.floor(offset));
    const k = from + Math.max(0, Math.floor(limit));
    if (k <= from || from >= records.length) return [];
    if (k * 8 >= records.length) return sort(records).slice(from, k);
    // Max-heap (by cmp) of the k smallest records seen so far.
    const heap: Decorated[] = [];
    const siftDown = (i: number): void => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let top = i;
        if (l < heap.length && cmp(heap[l], heap[top]) > 0) top = l;
        if (r < heap.length && cmp(heap[r], heap[top]) > 0) top = r;
        if (top === i) return;
        [heap[i], heap[top]] = [heap[top], heap[i]];
        i = top;
      }
    };
    const scratch: SortValue[] = new Array<SortValue>(n);
    for (const rec of records) {
      if (heap.length < k) {
        heap.push(decorate(rec));
        for (let i = heap.length - 1; i > 0;) {
          const parent = (i - 1) >> 1;
          if (cmp(heap[i], heap[parent]) <= 0) break;
          [heap[i], heap[parent]] = [heap[parent], heap[i]];
          i = parent;
        }
      } else {
        // Compare against the current worst without allocating; most records lose.
        for (let i = 0; i < n; i++) scratch[i] = extract[i](rec);
        const id = idOf(rec) ?? "";
        if (compareKeys(scratch, heap[0].k, id, heap[0].id) < 0) {
          heap[0] = { r: rec, k: scratch.slice(), id };
          siftDown(0);
        }
      }
    }
    heap.sort(cmp);
    return heap.slice(from).map((d) => d.r);
  };
  return Object.assign(comparator, { sort, page, specs });
}
