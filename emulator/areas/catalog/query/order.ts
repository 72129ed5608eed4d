// `orderBy` parsing and record comparators (service-facts §3.4).
//
// Keys are comma separated, `-` prefix = descending, at most 3 keys. Missing
// values sort LAST in both directions; ties are broken by `id` ascending.
// Text sorts case-insensitively by UTF-16 code units; `number` sorts naturally
// ("2" < "10" < "TG01"); dates sort chronologically.
import type { Game } from "../model.ts";
import { parseError, invalidValue, tooComplex } from "./errors.ts";
import { unknownFieldError } from "./compile.ts";
import { SORT_ALIASES, fieldsFor, lookupField, type FieldDef, type FieldSchema, type RecordOf, type Resource } from "./fields.ts";
import { LowerCache, compareNatural, dateNumber, naturalKey, type NaturalKey } from "./text.ts";

export const MAX_ORDER_KEYS = 3;

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
  /** Sorted copy (keys extracted once per record; faster than Array#sort with the comparator). */
  sort(records: readonly R[]): R[];
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
  if (items.length > MAX_ORDER_KEYS) throw tooComplex(`orderBy has ${items.length} keys; at most ${MAX_ORDER_KEYS} are allowed`);
  const schema = fieldsFor(resource, game);
  const aliases = SORT_ALIASES[resource];
  return items.map(({ text: item, position }) => {
    if (item === "") throw parseError("empty orderBy key", position);
    const descending = item.startsWith("-");
    const raw = descending ? item.slice(1) : item;
    const namePos = descending ? position + 1 : position;
    if (raw === "") throw parseError("empty orderBy key after \"-\"", position);
    const key = raw.toLowerCase();
    const field = Object.hasOwn(aliases, key) ? aliases[key] : key;
    const def = lookupField(schema, field);
    const sortable = sortableNames(schema, aliases);
    if (def === undefined) {
      throw unknownFieldError(raw, namePos, sortable.length > 0 ? [...sortable, ...Object.keys(schema)] : Object.keys(schema), `${game} ${resource} orderBy`);
    }
    if (!def.sortable) throw invalidValue(`field "${raw}" cannot be used in orderBy; sortable keys: ${sortable.join(", ")}`, namePos);
    return { key, field, descending };
  });
}

function sortableNames<R>(schema: FieldSchema<R>, aliases: Readonly<Record<string, string>>): string[] {
  const names = Object.keys(schema).filter((k) => schema[k].sortable);
  for (const a of Object.keys(aliases)) if (!names.includes(a)) names.push(a);
  return names;
}

type SortValue = string | number | NaturalKey | undefined;

interface KeyFn<R> {
  extract: (r: R) => SortValue;
  compare: (a: SortValue, b: SortValue) => number;
  direction: 1 | -1;
}

const textCaches = new WeakMap<FieldDef<never>, LowerCache<object>>();

function keyFn<R extends object>(def: FieldDef<R>, descending: boolean): KeyFn<R> {
  const direction = descending ? -1 : 1;
  switch (def.type) {
    case "string": {
      const get = def.get;
      if (def.order === "natural") {
        return { extract: (r) => { const s = get(r); return s === undefined ? undefined : naturalKey(s); }, compare: (a, b) => compareNatural(a as NaturalKey, b as NaturalKey), direction };
      }
      const key = def as FieldDef<never>;
      let cache = textCaches.get(key);
      if (cache === undefined) {
        cache = new LowerCache<object>();
        textCaches.set(key, cache);
      }
      const c = cache;
      return { extract: (r) => { const s = get(r); return s === undefined ? undefined : c.string(r, s); }, compare: (a, b) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0), direction };
    }
    case "number": {
      const get = def.get;
      return { extract: (r) => { const n = get(r); return n === undefined || Number.isNaN(n) ? undefined : n; }, compare: (a, b) => (a as number) - (b as number), direction };
    }
    case "date": {
      const get = def.get;
      return { extract: (r) => dateNumber(get(r)), compare: (a, b) => (a as number) - (b as number), direction };
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
export function compileOrderBy<K extends Resource>(orderBy: string | undefined, resource: K, game: Game): Sorter<RecordOf[K]> {
  type R = RecordOf[K];
  const specs = parseOrderBy(orderBy, resource, game);
  const schema: FieldSchema<R> = fieldsFor(resource, game);
  const keys: KeyFn<R>[] = specs.map((s) => keyFn(schema[s.field], s.descending));
  const idOf = (schema.id as { get: (r: R) => string | undefined }).get;

  const compareKeys = (ka: SortValue[], kb: SortValue[], idA: string, idB: string): number => {
    for (let i = 0; i < keys.length; i++) {
      const a = ka[i];
      const b = kb[i];
      if (a === undefined) {
        if (b !== undefined) return 1;
        continue;
      }
      if (b === undefined) return -1;
      const c = keys[i].compare(a, b);
      if (c !== 0) return c * keys[i].direction;
    }
    return idA < idB ? -1 : idA > idB ? 1 : 0;
  };
  const extractAll = (r: R): SortValue[] => keys.map((k) => k.extract(r));

  const comparator = (a: R, b: R): number => compareKeys(extractAll(a), extractAll(b), idOf(a) ?? "", idOf(b) ?? "");
  const sort = (records: readonly R[]): R[] => {
    const decorated = records.map((r) => ({ r, k: extractAll(r), id: idOf(r) ?? "" }));
    decorated.sort((x, y) => compareKeys(x.k, y.k, x.id, y.id));
    return decorated.map((d) => d.r);
  };
  return Object.assign(comparator, { sort, specs });
}
