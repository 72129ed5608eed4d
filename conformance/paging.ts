import type { HttpClient, HttpResult } from "../harness/http.ts";
import { ensure, expectSuccess } from "./assert.ts";

// Walking a collection to its end, the way a client syncs it: every page is
// asked for in turn until the target says there is no more, and the walk is
// held to what paging promises: no row twice, no row skipped (the walk equals
// the collection read in one page), the totals the same on every page, the
// flags true until the last page and false on it, the last page included.
// (Each page's own fields are checked on arrival by wire.ts.)

type Row = Record<string, unknown>;
const MAX_PAGES = 60;

function noRepeats(ids: readonly unknown[], what: string): void {
  const seen = new Set<unknown>();
  for (const [i, id] of ids.entries()) {
    ensure(!seen.has(id), `${what}: row ${JSON.stringify(id)} came twice (again at position ${i})`);
    seen.add(id);
  }
}

function sameRows(walked: readonly unknown[], whole: readonly unknown[], what: string): void {
  const w = new Set(walked);
  const missing = whole.filter((id) => !w.has(id));
  ensure(
    missing.length === 0,
    `${what}: the walk skipped ${missing.length} row(s) that one page of the whole collection lists (first: ${JSON.stringify(missing[0])})`,
  );
  ensure(
    walked.length === whole.length,
    `${what}: the walk saw ${walked.length} rows, the whole collection has ${whole.length}`,
  );
}

export interface CardDataWalk {
  pages: number;
  rows: number;
  total: number;
}

/**
 * Walks a Card Data collection page by page (`page`, `page_size`) until a page ends it, then asks
 * the page after the last (empty, same total) and compares with `whole` (the ids of the collection).
 */
export async function walkCardData(
  http: HttpClient,
  key: string,
  path: string,
  pageSize: number,
  whole: readonly unknown[],
  query: Record<string, string | number> = {},
): Promise<CardDataWalk> {
  const ids: unknown[] = [];
  let total: number | null = null;
  let page = 1;
  for (; page <= MAX_PAGES; page++) {
    const r = await http.get(path, { key, query: { ...query, page, page_size: pageSize } });
    const b = expectSuccess(r, `${path} page ${page}`) as { data: unknown; total_count?: unknown };
    ensure(Array.isArray(b.data), `${path} page ${page}: data must list the rows`);
    const t = b.total_count;
    ensure(typeof t === "number", `${path} page ${page}: total_count must be a number`);
    if (total === null) total = t;
    ensure(t === total, `${path}: total_count changed during the walk (${total} on page 1, ${t} on page ${page})`);
    ids.push(...(b.data as Row[]).map((row) => row.id));
    const last = page * pageSize >= total;
    if (last) {
      ensure(
        (b.data as unknown[]).length === total - (page - 1) * pageSize,
        `${path}: the last page (${page}) must hold the remaining ${total - (page - 1) * pageSize} of ${total} rows, it holds ${(b.data as unknown[]).length}`,
      );
      break;
    }
  }
  ensure(total !== null && page <= MAX_PAGES, `${path}: no last page within ${MAX_PAGES} pages`);
  const after = expectSuccess(
    await http.get(path, { key, query: { ...query, page: page + 1, page_size: pageSize } }),
    `${path} page ${page + 1}`,
  ) as { data: unknown; total_count?: unknown };
  ensure(
    Array.isArray(after.data) && after.data.length === 0,
    `${path}: the page after the last must be empty, it has ${Array.isArray(after.data) ? after.data.length : "no"} rows`,
  );
  ensure(
    after.total_count === total,
    `${path}: total_count past the end must stay ${total}, got ${JSON.stringify(after.total_count)}`,
  );
  noRepeats(ids, path);
  sameRows(ids, whole, path);
  return { pages: page, rows: ids.length, total: total! };
}

/**
 * Walks an offset collection (`limit`, `offset`, `pagination.has_more`) whose rows are `data[rowsKey]`,
 * following has_more to the page that ends it; `total` names a count in data that every page must repeat.
 */
export async function walkOffset(
  http: HttpClient,
  key: string,
  path: string,
  opts: {
    rowsKey: string;
    idKey: string;
    limit: number;
    whole?: readonly unknown[];
    total?: string;
    query?: Record<string, string | number>;
  },
): Promise<{ pages: number; rows: number }> {
  const ids: unknown[] = [];
  let offset = 0;
  let pages = 0;
  let total: unknown = undefined;
  for (;;) {
    ensure(++pages <= MAX_PAGES, `${path}: has_more still true after ${MAX_PAGES} pages`);
    const r: HttpResult = await http.get(path, { key, query: { ...opts.query, limit: opts.limit, offset } });
    const b = expectSuccess(r, `${path}?offset=${offset}`) as { data: Row; pagination?: { has_more?: unknown } };
    const rows = b.data?.[opts.rowsKey];
    ensure(Array.isArray(rows), `${path}?offset=${offset}: data.${opts.rowsKey} must be an array`);
    if (opts.total) {
      if (pages === 1) total = b.data[opts.total];
      ensure(
        b.data[opts.total] === total,
        `${path}: data.${opts.total} changed during the walk (${JSON.stringify(total)} then ${JSON.stringify(b.data[opts.total])})`,
      );
    }
    ids.push(...(rows as Row[]).map((row) => row[opts.idKey]));
    const more = b.pagination?.has_more;
    ensure(typeof more === "boolean", `${path}?offset=${offset}: pagination.has_more must be a boolean`);
    if (!more) break;
    ensure(rows.length > 0, `${path}?offset=${offset}: has_more is true on an empty page`);
    offset += rows.length;
  }
  noRepeats(ids, path);
  if (opts.whole) sameRows(ids, opts.whole, path);
  if (opts.total)
    ensure(
      total === ids.length,
      `${path}: data.${opts.total} is ${JSON.stringify(total)}, the walk saw ${ids.length} rows`,
    );
  return { pages, rows: ids.length };
}
