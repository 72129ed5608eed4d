import type { Reply } from "../../pipeline/route.ts";
import { successText } from "../../pipeline/envelope.ts";
import { compileParsed, compileOrderBy, languageScope, type RecordOf, type Resource } from "./query/index.ts";
import type { Game, LanguageCode } from "../../catalog-data/model.ts";
import { ResultCache } from "./result-cache.ts";
import { ApiError } from "../../pipeline/errors.ts";
import { QueryError } from "./query/index.ts";
import { catalogPage, type CatalogPage, type PageFields, type ParsedQ } from "../../../contract/index.ts";

const results = new ResultCache<readonly unknown[]>();

// One search path for cards, expansions and sealed: language scope → q filter
// → distinct → order → page. Returns the Card Data envelope fields beside
// `data` (live `page`/`page_size`/`total_count`/`language`) and the interface's
// `pagination`, so both kinds of client page correctly.

/** The query fields a search reads, as the route schema parsed them. */
export interface SearchInput extends PageFields {
  q: ParsedQ;
  language: ReadonlySet<LanguageCode> | null | undefined;
  distinct: "code" | null;
  orderBy?: string;
}

export interface SearchSpec<K extends Resource, R extends RecordOf[K] = RecordOf[K]> {
  resource: K;
  game: Game;
  query: SearchInput;
  records: readonly R[];
  /** Identifies `records` and `filter` for the result cache (e.g. "cards:pokemon"). */
  source: string;
  languageOf(rec: R): LanguageCode;
  /** Extra filter from parameters outside q (sealed `product_type`). */
  filter?: (rec: R) => boolean;
  /** Apply the default `en` scope when `language` is absent (not on expansion cards / printings). */
  defaultLanguage: boolean;
  codeOf?(rec: R): string;
  /** `distinct=code` keeps the matching printing with the lowest rank (0 = the family's own printing). */
  baseRank?(rec: R): number;
  toWire(rec: R): unknown;
}

/**
 * Whole answers of a search, by the parsed query object: the pipeline hands the same frozen query
 * object to every GET of the same query text (parse-memo.ts), and the catalog never changes after
 * start, so the serialised page is reused as is. A few slots per query (the records it ran over:
 * the game, an expansion); an evicted query's entry goes with its object.
 */
let answers = new WeakMap<object, Map<string, Reply>>();
const SLOTS_PER_QUERY = 8;
/**
 * What the kept answers may hold in all (a walk through the large catalog in pages of 100 would
 * otherwise keep every page): past it everything is dropped and the cache fills again. Counted on
 * insertion only, so answers whose query went away still count until the next drop.
 */
const ANSWER_BYTES = 32 * 1024 * 1024;
let answerBytes = 0;

export function search<K extends Resource>(spec: SearchSpec<K>): Reply {
  const slot = `${spec.source}:${catalogId(spec.records)}`;
  let byRecords = answers.get(spec.query);
  const hit = byRecords?.get(slot);
  if (hit) return hit;
  // The whole envelope as text; the separate data JSON is not kept (it would hold the page twice).
  const { dataJson: _spliced, ...reply } = answer(spec);
  const cached: Reply = { ...reply, text: successText({ ...reply, dataJson: _spliced }) };
  answerBytes += cached.text!.length;
  if (answerBytes > ANSWER_BYTES) {
    answers = new WeakMap();
    answerBytes = cached.text!.length;
    byRecords = undefined;
  }
  if (!byRecords) answers.set(spec.query, (byRecords = new Map()));
  if (byRecords.size < SLOTS_PER_QUERY) byRecords.set(slot, cached);
  return cached;
}

/** Binds q or orderBy to the game; a QueryError is the API's 400, its code and details (position) unchanged. */
function guarded<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof QueryError)
      throw new ApiError(400, err.code, err.message, err.details ? { details: { ...err.details } } : {});
    throw err;
  }
}

function answer<K extends Resource>(spec: SearchSpec<K>): Reply {
  type R = RecordOf[K];
  const { query } = spec;
  // The contract's schema checked each field and the page; what needs the game (q's fields, orderBy) is checked here.
  const page = catalogPage(query);
  const compiled = guarded(() => compileParsed(query.q.ast, spec.resource, spec.game));
  const scope = languageScope(query.language, {
    pinned: compiled.pinsLanguage,
    defaultLanguage: spec.defaultLanguage ? "en" : null,
  });
  const distinct = query.distinct;
  const order = guarded(() => compileOrderBy(query.orderBy, spec.resource, spec.game));

  const cacheKey = JSON.stringify([
    spec.source,
    catalogId(spec.records),
    scope && [...scope].sort(),
    distinct,
    query.q.text,
    query.orderBy,
  ]);
  const rows = results.get(cacheKey, () => {
    const filter = spec.filter;
    let rows: R[] = spec.records.filter(
      (r) => (!scope || scope.has(spec.languageOf(r))) && compiled.match(r) && (!filter || filter(r)),
    );
    // Distinct after the filter: a filter that matches some printing of a card keeps the card.
    if (distinct === "code" && spec.codeOf && spec.baseRank) rows = basePerCode(rows, spec.codeOf, spec.baseRank);
    return order.sort(rows);
  }) as readonly R[];
  const items = rows.slice(page.offset, page.offset + page.limit);
  return pageReply(items, rows.length, page, spec.toWire, scope ? [...scope].join(",") : "all");
}

/** Distinguishes catalogs (seed, size) sharing the module-level cache: the records array itself. */
const ids = new WeakMap<object, number>();
let nextCatalogId = 1;
function catalogId(records: object): number {
  let id = ids.get(records);
  if (id === undefined) ids.set(records, (id = nextCatalogId++));
  return id;
}

/**
 * Catalog wire objects are immutable and shared (the card itself when no select/include
 * applies), so their JSON is cached by identity: a page is spliced from cached strings.
 */
const jsonCache = new WeakMap<object, string>();
function jsonOf(item: unknown): string {
  if (!item || typeof item !== "object") return JSON.stringify(item);
  let text = jsonCache.get(item);
  if (text === undefined) jsonCache.set(item, (text = JSON.stringify(item)));
  return text;
}

/** One catalog object as a 200 answer, its JSON from the cache when the object is a shared one. */
export function okCached(item: unknown): Reply {
  return { status: 200, data: item, dataJson: jsonOf(item) };
}

/** The envelope fields for one page of `total` rows. */
export function pageReply<R>(
  pageRows: readonly R[],
  total: number,
  page: CatalogPage,
  toWire: (r: R) => unknown,
  language: string,
): Reply {
  const items = pageRows.map(toWire);
  return {
    status: 200,
    data: items,
    dataJson: `[${items.map(jsonOf).join(",")}]`,
    pagination: { limit: page.limit, offset: page.offset, has_more: page.offset + items.length < total },
    top: { page: page.page, page_size: page.page_size, total_count: total, language },
  };
}

/**
 * `distinct=code`: one row per card, chosen among the printings that passed the
 * language scope and every filter (so a pinned `language:zh` keeps the Chinese
 * printing): the lowest `baseRank`, then the first in catalog order.
 */
function basePerCode<R>(rows: readonly R[], codeOf: (r: R) => string, baseRank: (r: R) => number): R[] {
  const chosen = new Map<string, { r: R; rank: number }>();
  for (const r of rows) {
    const code = codeOf(r);
    const rank = baseRank(r);
    const current = chosen.get(code);
    if (!current || rank < current.rank) chosen.set(code, { r, rank });
  }
  return Array.from(chosen.values(), (c) => c.r);
}
