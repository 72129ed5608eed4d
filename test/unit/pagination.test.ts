import { describe, it, expect } from "vitest";
import { leadingInt, offsetPageQuery, checkIdArray, paginate } from "../../emulator/pipeline/pagination.ts";
import { catalogPage, catalogPagingQuery } from "../../contract/index.ts";
import { ApiError } from "../../emulator/pipeline/errors.ts";
import { parsePart, queryObject, z } from "../../emulator/pipeline/schema.ts";

// The paging rules as the routes' schemas apply them (the pipeline parses the query with these).
const q = (s: string) => queryObject(new URLSearchParams(s));
const offsetSchema = z.object(offsetPageQuery());
const parseOffsetPage = (query: Record<string, string>) => parsePart("query", offsetSchema, query);
const parseCatalogPage = (query: Record<string, string>, cap?: { maxSize: number }) =>
  catalogPage(parsePart("query", catalogPagingQuery(cap?.maxSize), query), cap?.maxSize);
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as ApiError).code;
  }
  return "no error";
};

describe("offset pagination", () => {
  it("reads a leading integer and clamps", () => {
    expect(leadingInt("20abc")).toBe(20);
    expect(leadingInt(" 7")).toBe(7);
    expect(leadingInt("abc")).toBeNull();
    expect(parseOffsetPage(q("limit=20abc&offset=5x"))).toEqual({ limit: 20, offset: 5 });
    expect(parseOffsetPage(q("limit=500&offset=99999"))).toEqual({ limit: 100, offset: 10_000 });
    expect(parseOffsetPage(q("limit=0&offset=-4"))).toEqual({ limit: 1, offset: 0 });
    expect(parseOffsetPage(q(""))).toEqual({ limit: 50, offset: 0 });
  });

  it("rejects a value with no integer at all", () => {
    expect(code(() => parseOffsetPage(q("limit=abc")))).toBe("invalid_pagination");
    expect(code(() => parseOffsetPage(q("offset=")))).toBe("invalid_pagination");
  });

  it("Card Data page/page_size are strict", () => {
    expect(parseCatalogPage(q("page=3&page_size=20"))).toEqual({ limit: 20, offset: 40, page: 3, page_size: 20 });
    expect(code(() => parseCatalogPage(q("page_size=101")))).toBe("invalid_pagination");
    expect(code(() => parseCatalogPage(q("page=0")))).toBe("invalid_pagination");
    expect(code(() => parseCatalogPage(q("page=101&page_size=100")))).toBe("invalid_pagination");
    expect(parseCatalogPage(q("limit=10&offset=30"))).toEqual({ limit: 10, offset: 30, page: 4, page_size: 10 });
    expect(parseCatalogPage(q(""))).toEqual({ limit: 100, offset: 0, page: 1, page_size: 100 });
  });

  it("a route's smaller cap is the default and the largest page (printings: 50)", () => {
    const cap = { maxSize: 50 };
    expect(parseCatalogPage(q(""), cap)).toEqual({ limit: 50, offset: 0, page: 1, page_size: 50 });
    expect(parseCatalogPage(q("page=2&page_size=100"), cap)).toEqual({ limit: 50, offset: 50, page: 2, page_size: 50 });
    expect(parseCatalogPage(q("limit=80&offset=10"), cap)).toEqual({ limit: 50, offset: 10, page: 1, page_size: 50 });
    expect(parseCatalogPage(q("page_size=7&page=3"), cap)).toEqual({ limit: 7, offset: 14, page: 3, page_size: 7 });
    expect(code(() => parseCatalogPage(q("page_size=101"), cap))).toBe("invalid_pagination");
  });

  it("id arrays over 500 entries are invalid_pagination", () => {
    expect(code(() => checkIdArray(new Array(500).fill(1)))).toBe("no error");
    expect(code(() => checkIdArray(new Array(501).fill(1)))).toBe("invalid_pagination");
  });

  it("paginate reports has_more", () => {
    const rows = [1, 2, 3, 4, 5];
    expect(paginate(rows, { limit: 2, offset: 2 })).toEqual({
      items: [3, 4],
      pagination: { limit: 2, offset: 2, has_more: true },
    });
    expect(paginate(rows, { limit: 2, offset: 4 }).pagination.has_more).toBe(false);
  });
});
