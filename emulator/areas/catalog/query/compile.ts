// Compiles a parsed `q` into a record predicate (README "Card Data catalog"). Compile
// once per request; the returned closures do no parsing or regex work.
import type { Game } from "../../../catalog-data/model.ts";
import { QueryError, invalidValue } from "./errors.ts";
import {
  LANGUAGE_PINNING_FIELDS,
  cardFieldGames,
  fieldsFor,
  lookupField,
  type BooleanField,
  type DateField,
  type FieldDef,
  type FieldSchema,
  type ListField,
  type NumberField,
  type RecordOf,
  type Resource,
  type StringField,
} from "./fields.ts";
import {
  forEachTerm,
  parseQuery,
  type QueryNode,
  type RangeValue,
  type TermNode,
  type TextValue,
} from "../../../../contract/catalog/query-grammar.ts";
import { LowerCache, closest, dateNumber, dateSpan, naturalSortKey, parseNumber } from "./text.ts";

export const MAX_WILDCARDS = 3;
export const MIN_WILDCARD_LITERALS = 2;

export type Matcher<R> = (record: R) => boolean;

export interface CompiledQuery<R> {
  match: Matcher<R>;
  /** q has a positive `language:`, `id:` or `expansion.id:` term: the route skips its default `en` filter. */
  pinsLanguage: boolean;
  /** The parsed query; null when q is absent or blank. */
  ast: QueryNode | null;
}

const matchAll = (): boolean => true;

/**
 * Parses and compiles `q` for a resource/game. An absent or blank q matches
 * every record. Throws QueryError (parse_error, unknown_field, invalid_value,
 * query_too_complex).
 */
export function compileQuery<K extends Resource>(
  q: string | undefined,
  resource: K,
  game: Game,
): CompiledQuery<RecordOf[K]> {
  return compileParsed(q === undefined ? null : parseQuery(q), resource, game);
}

/**
 * Compiles an already parsed q (parseQuery's AST) for a resource/game: the
 * fields and values are checked here, since they depend on the game. Throws
 * QueryError (unknown_field, invalid_value).
 */
export function compileParsed<K extends Resource>(
  ast: QueryNode | null,
  resource: K,
  game: Game,
): CompiledQuery<RecordOf[K]> {
  const schema: FieldSchema<RecordOf[K]> = fieldsFor(resource, game);
  const match = ast === null ? matchAll : compileNode(ast, { schema, resource, game });
  return { match, pinsLanguage: pinsLanguage(ast), ast };
}

/** Whether the AST has a non-negated `language:`, `id:` or `expansion.id:` term. */
export function pinsLanguage(ast: QueryNode | null): boolean {
  let pinned = false;
  forEachTerm(ast, (term, negated) => {
    if (!negated && term.field !== null && LANGUAGE_PINNING_FIELDS.has(term.field)) pinned = true;
  });
  return pinned;
}

interface Ctx<R> {
  schema: FieldSchema<R>;
  resource: Resource;
  game: Game;
}

function compileNode<R extends object>(node: QueryNode, ctx: Ctx<R>): Matcher<R> {
  switch (node.kind) {
    case "term":
      return compileTerm(node, ctx);
    case "not": {
      const m = compileNode(node.child, ctx);
      return (r) => !m(r);
    }
    case "and": {
      const ms = node.children.map((c) => compileNode(c, ctx));
      if (ms.length === 2) {
        const [a, b] = ms;
        return (r) => a(r) && b(r);
      }
      return (r) => {
        for (const m of ms) if (!m(r)) return false;
        return true;
      };
    }
    case "or": {
      const ms = node.children.map((c) => compileNode(c, ctx));
      if (ms.length === 2) {
        const [a, b] = ms;
        return (r) => a(r) || b(r);
      }
      return (r) => {
        for (const m of ms) if (m(r)) return true;
        return false;
      };
    }
  }
}

export function unknownFieldError(
  name: string,
  position: number,
  candidates: readonly string[],
  context: string,
  otherGames: readonly Game[] = [],
): QueryError {
  let message = `unknown field "${name}" for ${context}`;
  if (otherGames.length > 0)
    message = `field "${name}" is not available for ${context} (only ${otherGames.join(", ")})`;
  const suggestion = closest(name, candidates);
  if (suggestion !== undefined && suggestion !== name) message += `; did you mean "${suggestion}"?`;
  return new QueryError("unknown_field", message, { position });
}

function compileTerm<R extends object>(term: TermNode, ctx: Ctx<R>): Matcher<R> {
  const name = term.field ?? "name";
  const def = lookupField(ctx.schema, name);
  if (def === undefined) {
    const context = ctx.resource === "cards" ? `${ctx.game} cards` : `${ctx.game} ${ctx.resource}`;
    const others = ctx.resource === "cards" ? cardFieldGames(name) : [];
    throw unknownFieldError(term.rawField ?? name, term.fieldPosition, Object.keys(ctx.schema), context, others);
  }
  const v = term.value;
  switch (def.type) {
    case "string":
      return compileString(def, name, term, v);
    case "string[]":
      return compileList(def, name, term, v);
    case "number":
      return compileNumber(def, name, v);
    case "boolean":
      return compileBoolean(def, name, v);
    case "date":
      return compileDate(def, name, v);
  }
}

// --- text ---------------------------------------------------------------------

const caches = new WeakMap<FieldDef<never>, LowerCache<object>>();
/** The shared per-field lower-case cache (also used by the sorter). */
export function cacheFor<R>(def: FieldDef<R>): LowerCache<object> {
  const key = def as FieldDef<never>;
  let c = caches.get(key);
  if (c === undefined) {
    c = new LowerCache<object>();
    caches.set(key, c);
  }
  return c;
}

const naturalCaches = new WeakMap<FieldDef<never>, LowerCache<object>>();
/**
 * The per-field cache of the key a string field is ordered by, shared by ranges
 * and the sorter: natural sort keys for `order: "natural"` (card numbers), else
 * the lower-cased text.
 */
export function orderKeyCache<R>(def: StringField<R>): LowerCache<object> {
  if (def.order !== "natural") return cacheFor(def);
  const key = def as FieldDef<never>;
  let c = naturalCaches.get(key);
  if (c === undefined) {
    c = new LowerCache<object>(naturalSortKey);
    naturalCaches.set(key, c);
  }
  return c;
}

function noRange(name: string, v: TextValue | RangeValue, kind: string): TextValue {
  if (v.kind === "range")
    throw invalidValue(
      `${kind} field "${name}" does not support ranges (ranges work on number, date and text fields)`,
      v.position,
    );
  return v;
}

/** Builds a test over an already lower-cased stored string. */
function textTest(v: TextValue, exact: boolean, name: string): (s: string) => boolean {
  const lower = v.text.toLowerCase();
  if (v.quoted || !lower.includes("*")) {
    return exact ? (s) => s === lower : (s) => s.includes(lower);
  }
  const stars = lower.split("*").length - 1;
  if (lower.startsWith("*")) throw invalidValue(`wildcard "*" cannot start a value (field "${name}")`, v.position);
  if (stars > MAX_WILDCARDS)
    throw invalidValue(`at most ${MAX_WILDCARDS} wildcards are allowed per value (field "${name}")`, v.position);
  if (lower.length - stars < MIN_WILDCARD_LITERALS) {
    throw invalidValue(
      `a wildcard value needs at least ${MIN_WILDCARD_LITERALS} non-wildcard characters (field "${name}")`,
      v.position,
    );
  }
  const segs = lower.split("*");
  const first = segs[0];
  const last = segs[segs.length - 1];
  if (!exact) {
    const parts = segs.filter((s) => s.length > 0);
    return (s) => {
      let pos = 0;
      for (const p of parts) {
        const at = s.indexOf(p, pos);
        if (at < 0) return false;
        pos = at + p.length;
      }
      return true;
    };
  }
  const middle = segs.slice(1, -1).filter((s) => s.length > 0);
  return (s) => {
    if (!s.startsWith(first)) return false;
    let pos = first.length;
    for (const p of middle) {
      const at = s.indexOf(p, pos);
      if (at < 0) return false;
      pos = at + p.length;
    }
    return last.length === 0 || (s.length - last.length >= pos && s.endsWith(last));
  };
}

/**
 * A range over a text field compares in the field's sort order: lower-cased
 * UTF-16 code units, or natural order for `number` ("2" < "10" < "10a" < "TG01").
 * Bounds are literal (no wildcards); `*` is an open end.
 */
function compileStringRange<R extends object>(def: StringField<R>, v: RangeValue): Matcher<R> {
  const keyOf = def.order === "natural" ? naturalSortKey : (s: string) => s.toLowerCase();
  const lo = v.lower.open ? undefined : keyOf(v.lower.text);
  const hi = v.upper.open ? undefined : keyOf(v.upper.text);
  const loInc = v.lowerInclusive;
  const hiInc = v.upperInclusive;
  const cache = orderKeyCache(def);
  const get = def.get;
  return (r) => {
    const s = get(r);
    if (s === undefined) return false;
    const k = cache.string(r, s);
    if (lo !== undefined && (loInc ? k < lo : k <= lo)) return false;
    if (hi !== undefined && (hiInc ? k > hi : k >= hi)) return false;
    return true;
  };
}

function compileString<R extends object>(
  def: StringField<R>,
  name: string,
  term: TermNode,
  value: TextValue | RangeValue,
): Matcher<R> {
  if (value.kind === "range") return compileStringRange(def, value);
  const v = value;
  const cache = cacheFor(def);
  const get = def.get;
  let test: (s: string) => boolean;
  if (def.vocabulary !== undefined) {
    const wanted = v.text.toLowerCase();
    if (!def.vocabulary.includes(wanted)) {
      throw invalidValue(
        `"${v.text}" is not a valid ${name}; expected one of ${def.vocabulary.join(", ")}`,
        v.position,
      );
    }
    test = (s) => s === wanted;
  } else {
    test = textTest(v, term.exact || def.match === "exact", name);
  }
  return (r) => {
    const s = get(r);
    return s !== undefined && test(cache.string(r, s));
  };
}

function compileList<R extends object>(
  def: ListField<R>,
  name: string,
  term: TermNode,
  value: TextValue | RangeValue,
): Matcher<R> {
  const v = noRange(name, value, "list");
  const cache = cacheFor(def);
  const test = textTest(v, term.exact, name);
  const { source, get } = def;
  return (r) => {
    const list = cache.list(r, source(r), () => get(r));
    if (list === undefined) return false;
    for (const s of list) if (test(s)) return true;
    return false;
  };
}

// --- numbers, booleans, dates -------------------------------------------------

function noWildcard(name: string, v: TextValue, kind: string): void {
  if (!v.quoted && v.text.includes("*"))
    throw invalidValue(`wildcards are not allowed on ${kind} field "${name}"`, v.position);
}

function compileNumber<R>(def: NumberField<R>, name: string, v: TextValue | RangeValue): Matcher<R> {
  const get = def.get;
  if (v.kind === "range") {
    const bound = (b: RangeValue["lower"], open: number): number => {
      if (b.open) return open;
      const n = parseNumber(b.text);
      if (n === undefined) throw invalidValue(`"${b.text}" is not a number (field "${name}")`, b.position);
      return n;
    };
    const lo = bound(v.lower, -Infinity);
    const hi = bound(v.upper, Infinity);
    const loInc = v.lowerInclusive || v.lower.open;
    const hiInc = v.upperInclusive || v.upper.open;
    return (r) => {
      const x = get(r);
      if (x === undefined || Number.isNaN(x)) return false;
      return (loInc ? x >= lo : x > lo) && (hiInc ? x <= hi : x < hi);
    };
  }
  noWildcard(name, v, "numeric");
  const n = parseNumber(v.text.trim());
  if (n === undefined) throw invalidValue(`"${v.text}" is not a number (field "${name}")`, v.position);
  return (r) => get(r) === n;
}

function compileBoolean<R>(def: BooleanField<R>, name: string, value: TextValue | RangeValue): Matcher<R> {
  const v = noRange(name, value, "boolean");
  const t = v.text.trim().toLowerCase();
  if (t !== "true" && t !== "false") throw invalidValue(`field "${name}" expects true or false`, v.position);
  const want = t === "true";
  const get = def.get;
  return (r) => get(r) === want;
}

function compileDate<R>(def: DateField<R>, name: string, v: TextValue | RangeValue): Matcher<R> {
  const get = def.get;
  const span = (text: string, position: number): { start: number; end: number } => {
    const s = dateSpan(text.trim());
    if (s === undefined)
      throw invalidValue(`"${text}" is not a date; use YYYY/MM/DD or YYYY-MM-DD (field "${name}")`, position);
    return s;
  };
  if (v.kind === "range") {
    // Inclusive bounds take the whole span of a partial date; exclusive bounds exclude it.
    const lo = v.lower.open
      ? -Infinity
      : v.lowerInclusive
        ? span(v.lower.text, v.lower.position).start
        : span(v.lower.text, v.lower.position).end + 1;
    const hi = v.upper.open
      ? Infinity
      : v.upperInclusive
        ? span(v.upper.text, v.upper.position).end
        : span(v.upper.text, v.upper.position).start - 1;
    return (r) => {
      const d = dateNumber(get(r));
      return d !== undefined && d >= lo && d <= hi;
    };
  }
  noWildcard(name, v, "date");
  const { start, end } = span(v.text, v.position);
  return (r) => {
    const d = dateNumber(get(r));
    return d !== undefined && d >= start && d <= end;
  };
}
